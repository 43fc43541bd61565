/**
 * Record actions from the CLI (docs/records-write.md): the transition verbs on a record
 * of a record root, `resolve KEEP --expire OTHER` for a contradicting pair, and
 * `record-action ID VERB` for a layout's own verbs (a canonical backlog `close`). All go
 * through applyRecordActions as one batch, undone with `memtrust undo BATCH`.
 * Exit: 0 done, 2 refused (read-only layout, not allowed, conflict, locked, not found), 64 usage.
 */
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import type { ParsedArgs } from '../args';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import {
  applyRecordActions,
  findRecordForWrite,
  type RecordApplyResult,
  type RecordStep,
} from '../../service/records/apply';
import type { ServiceContext } from '../../service/context';
import type { Command } from './index';

/** True when `ref` names a record of a record root (a file-per-memory name `*.md` never does). */
export function isRecordRef(ctx: ServiceContext, ref: string): boolean {
  if (ctx.recordSources.length === 0 || /\.md$/i.test(ref)) return false;
  const f = findRecordForWrite(ctx, ref);
  return f.ok || f.code === 'ambiguous';
}

/** Prints a record batch's result; returns the exit code. */
export function reportRecordResult(io: Io, args: ParsedArgs, verb: string, r: RecordApplyResult): number {
  if (args.bools.has('json')) printJson(io, r);
  else if (r.ok) {
    for (const s of r.summary) io.out(s);
    if (r.batch)
      io.out(
        `batch ${r.batch}: ${r.done} ${r.done === 1 ? 'record' : 'records'} changed; undo it with: memtrust undo ${r.batch}`,
      );
    else io.out('nothing to change: the records are already so');
  } else {
    io.err(`memtrust ${verb}: ${r.message}`);
    if (r.command) io.err(`  ${r.command}`);
  }
  return r.ok ? 0 : 2;
}

function options(args: ParsedArgs): Record<string, unknown> | undefined {
  const all = args.values.get('option') ?? [];
  if (all.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const o of all) {
    const eq = o.indexOf('=');
    if (eq < 1) throw new UsageError(`--option takes KEY=VALUE, got ${JSON.stringify(o)}`);
    out[o.slice(0, eq)] = o.slice(eq + 1);
  }
  return out;
}

const resolveCmd: Command = {
  synopsis: 'resolve KEEP --expire OTHER [--reason TEXT]',
  summary: 'a contradicting pair of records: keep one, archive the other (one batch)',
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['expire', 'reason'] });
    const other = lastValue(args, 'expire');
    if (args.positionals.length !== 1 || !other)
      throw new UsageError('name the record to KEEP and the one to --expire');
    const ctx = openContext(args, io, { scan: false });
    const reason = lastValue(args, 'reason');
    const steps: RecordStep[] = [
      { id: args.positionals[0]!, action: 'restore', reason },
      { id: other, action: 'archive', reason },
    ];
    // The record to keep may already be live: then only the other one changes.
    const keep = findRecordForWrite(ctx, steps[0]!.id);
    if (keep.ok && !keep.record.actions.includes('restore')) steps.shift();
    return reportRecordResult(io, args, 'resolve', applyRecordActions(ctx, steps, { actor: 'user:cli' }));
  },
};

const recordActionCmd: Command = {
  synopsis: 'record-action ID VERB [--reason TEXT]',
  summary: "a layout's own verb on one record (e.g. close a canonical backlog entry)",
  async run(argv, io) {
    const args = parseServiceArgs(argv, { values: ['reason', 'option'] });
    if (args.positionals.length !== 2) throw new UsageError('name one record ID and one VERB');
    const ctx = openContext(args, io, { scan: false });
    const [id, verb] = args.positionals as [string, string];
    return reportRecordResult(
      io,
      args,
      'record-action',
      applyRecordActions(ctx, [{ id, action: verb, reason: lastValue(args, 'reason'), options: options(args) }], {
        actor: 'user:cli',
      }),
    );
  },
};

export const recordCommands: Record<string, Command> = { resolve: resolveCmd, 'record-action': recordActionCmd };
