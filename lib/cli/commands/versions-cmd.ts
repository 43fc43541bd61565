/**
 * `memtrust versions FILE|ID` and `memtrust recover FILE|ID [--at TIME] | --batch ID`
 * (docs/versions.md): a memory's kept versions, and putting one back as an undoable batch.
 */
import { UsageError, lastValue } from '../args';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { openStore, pickVersion, versionsOf } from '../../service/versions/versions-of';
import { outsideBatchTargets, recoverVersions } from '../../service/versions/recover';
import { updateMassChange } from '../../service/versions/mass-change';
import { sha256 } from '../../service/index/inspect';
import { readIfExists } from '../../service/write/fs-atomic';
import path from 'node:path';
import type { Command } from './index';
import { parseTime } from './list-as-of';

const versionsCmd: Command = {
  synopsis: 'versions FILE|ID',
  summary: "list a memory's kept versions (time, sha256, size, who), deleted memories included",
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    if (args.positionals.length !== 1) throw new UsageError('name exactly one memory (FILE or ID)');
    const ctx = openContext(args, io);
    const r = versionsOf(ctx, args.positionals[0]!);
    if (!r.ok) {
      io.err(`memtrust versions: ${r.message}`);
      return 2;
    }
    const { found } = r;
    const rows = found.lines.map((l) => ({
      at: l.at,
      sha256: l.sha,
      size: l.size,
      who: found.who(l),
      file: l.rel,
      ...(l.gone ? { deleted: true } : {}),
      ...(l.redacted ? { credentialsReplaced: l.redacted } : {}),
    }));
    if (args.bools.has('json')) {
      printJson(io, { id: found.id, root: found.source.root, versions: rows });
      return 0;
    }
    io.out(`${found.id}  (${found.source.root})`);
    for (const v of rows)
      io.out(
        v.deleted
          ? `${v.at}  deleted${' '.repeat(58)}  ${v.who}`
          : `${v.at}  ${v.sha256}  ${String(v.size).padStart(7)} B  ${v.who}${v.credentialsReplaced ? '  (credential values replaced in the kept copy)' : ''}`,
      );
    return 0;
  },
};

const recoverCmd: Command = {
  synopsis: 'recover FILE|ID [--at TIME] | recover --batch ID',
  summary: 'put a deleted or overwritten memory back as it was (MEMORY.md line too); an undoable batch',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['at', 'batch'] });
    const batchId = lastValue(args, 'batch');
    if (batchId ? args.positionals.length !== 0 : args.positionals.length !== 1)
      throw new UsageError('name exactly one memory (FILE or ID), or --batch ID of an outside change');
    const at = lastValue(args, 'at');
    const when = at ? parseTime(at) : undefined;
    const ctx = openContext(args, io);
    let targets: Parameters<typeof recoverVersions>[2];
    const store = openStore(ctx);
    if (!store) {
      io.err('memtrust recover: no version store: the index is not a file');
      return 2;
    }
    if (batchId) {
      targets = outsideBatchTargets(ctx, store, batchId);
      if (targets.length === 0) {
        io.err(`memtrust recover: no deleted or rewritten file with a kept version in outside change ${batchId}`);
        return 2;
      }
    } else {
      const r = versionsOf(ctx, args.positionals[0]!);
      if (!r.ok) {
        io.err(`memtrust recover: ${r.message}`);
        return 2;
      }
      const last = r.found.lines.at(-1)!;
      const now = last.gone ? null : readIfExists(path.join(r.found.source.root, last.rel));
      const line = pickVersion(r.found.lines, now ? sha256(now) : null, when);
      if (!line) {
        io.err(
          `memtrust recover: no kept version of ${r.found.id}${when ? ` at or before ${at}` : ' other than the current one'}`,
        );
        return 2;
      }
      targets = [{ source: r.found.source, filename: r.found.filename, line }];
    }
    const out = recoverVersions(ctx, store, targets);
    // "Recover all" of a mass change settles its banner and session line (docs/versions.md).
    if (out.ok && batchId) updateMassChange(store, batchId, { settled: true });
    if (args.bools.has('json')) printJson(io, out);
    else if (out.ok) {
      io.out(out.message);
      if (out.redacted.length > 0)
        io.out(
          `note: the kept copy of ${out.redacted.join(', ')} had its credential values replaced (⟦credential removed by memtrust⟧): put the values back by hand`,
        );
    } else {
      io.err(`memtrust recover: ${out.message}`);
      for (const p of out.paths ?? []) io.err(`  ${p}`);
    }
    return out.ok ? 0 : 2;
  },
};

export const versionsCommands: Record<string, Command> = { versions: versionsCmd, recover: recoverCmd };
