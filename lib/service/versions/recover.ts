/**
 * `memtrust recover` and "Recover all" (docs/versions.md, "Recover"): deleted or
 * overwritten memories put back as a kept version had them, their MEMORY.md line too,
 * as one undoable batch per root through the record-batch engine (journal, crash-safe
 * execute, undo: lib/service/records/batch.ts). A kept version has its credential values
 * replaced (redact.ts), so a recovered file holds the marker where a value was.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Actor, AuditEvent } from '../../audit/event';
import type { SourceInfo } from '../../sources';
import { isoNow } from '../../trust/dates';
import type { ServiceContext } from '../context';
import { readFields, sha256 } from '../index/inspect';
import { readIfExists } from '../write/fs-atomic';
import { withRootLock } from '../write/lock';
import { newBatchId } from '../batches/batch-store';
import { type ChangeBytes, commitRecordBatch } from '../records/batch';
import { scan } from '../index/scan-service';
import type { VersionLine, VersionStore } from './version-store';

export interface RecoverTarget {
  source: SourceInfo;
  filename: string;
  line: VersionLine;
}

export type RecoverResult =
  | { ok: true; batch: string | null; files: string[]; redacted: string[]; indexLines: number; message: string }
  | { ok: false; message: string; paths?: string[] };

/** The MEMORY.md line of a memory put back: its name and description, as memtrust writes one on create. */
export function indexLineFor(filename: string, bytes: Buffer): string {
  const f = readFields(bytes).fields;
  const name = (f.name || filename.replace(/\.md$/, '')).replace(/[[\]\n\r]/g, ' ');
  const desc = (f.description ?? '').replace(/[\n\r]/g, ' ');
  return `- [${name}](${filename})${desc ? ` — ${desc}` : ''}`;
}

/** `index` with a line for each filename it lacks, after its last link line (or at its end). */
export function withIndexLines(
  index: string,
  lines: { filename: string; line: string }[],
): { text: string; added: number } {
  const missing = lines.filter((l) => !index.includes(`](${l.filename})`));
  if (missing.length === 0) return { text: index, added: 0 };
  const rows = index.split('\n');
  let at = -1;
  rows.forEach((r, i) => {
    if (/^\s*[-*] \[[^\]]*\]\([^)]+\)/.test(r)) at = i;
  });
  const insert = missing.map((m) => m.line);
  if (at < 0) {
    const body = index.length === 0 || index.endsWith('\n') ? index : `${index}\n`;
    return { text: `${body}${insert.join('\n')}\n`, added: insert.length };
  }
  rows.splice(at + 1, 0, ...insert);
  return { text: rows.join('\n'), added: insert.length };
}

/** Puts every target back, one batch per root; refuses a root as a whole when a file changed meanwhile. */
export function recoverVersions(
  ctx: ServiceContext,
  store: VersionStore,
  targets: RecoverTarget[],
  actor: Actor = 'user:cli',
): RecoverResult {
  const bySource = new Map<string, RecoverTarget[]>();
  for (const t of targets) bySource.set(t.source.id, [...(bySource.get(t.source.id) ?? []), t]);
  const files: string[] = [];
  const redacted: string[] = [];
  let batch: string | null = null;
  let indexLines = 0;
  for (const group of bySource.values()) {
    const source = group[0]!.source;
    const r = withRootLock(source.root, ctx.machine, (): RecoverResult => {
      const id = newBatchId(ctx.now(), crypto.randomBytes(4).toString('hex'));
      const at = isoNow(ctx.now());
      const changes: ChangeBytes[] = [];
      const events: AuditEvent[] = [];
      const lines: { filename: string; line: string }[] = [];
      for (const t of group) {
        const bytes = store.bytesOf(t.line);
        if (!bytes)
          return { ok: false, message: `the kept version of ${t.line.rel} (${t.line.at}) is missing or damaged` };
        const now = readIfExists(path.join(source.root, t.line.rel));
        if (now && sha256(now) === sha256(bytes)) continue; // already as it was
        changes.push({ src: t.line.rel, dst: t.line.rel, before: now, after: bytes });
        if (!now) lines.push({ filename: t.filename, line: indexLineFor(t.filename, bytes) });
        events.push({
          v: 1,
          id: `${id}-${events.length + 1}`,
          at,
          machine: ctx.machine,
          actor,
          action: 'recover',
          memory: t.filename,
          from: null,
          to: null,
          reason: `recovered the version of ${t.line.at}${t.line.redacted ? ' (credential values replaced)' : ''}`,
          findings: [],
          before_sha256: now ? sha256(now) : null,
          after_sha256: sha256(bytes),
          recovered: false,
          batch: id,
          files: [t.line.rel],
        });
        if (t.line.redacted) redacted.push(t.line.rel);
      }
      const indexFile = source.adapter.indexFile;
      let added = 0;
      if (indexFile && lines.length > 0) {
        const before = readIfExists(path.join(source.root, indexFile));
        const next = withIndexLines(before?.toString('utf8') ?? '', lines);
        if (next.added > 0) {
          changes.push({ src: indexFile, dst: indexFile, before, after: Buffer.from(next.text, 'utf8') });
          added = next.added;
        }
      }
      if (changes.length === 0) return { ok: true, batch: null, files: [], redacted: [], indexLines: 0, message: '' };
      const run = commitRecordBatch(ctx, source, { id, kind: 'recover', actor, changes, events });
      if (!run.ok) return { ok: false, message: run.message, paths: run.paths };
      return {
        ok: true,
        batch: id,
        files: changes.filter((c) => c.src !== indexFile).map((c) => c.src),
        redacted: [],
        indexLines: added,
        message: '',
      };
    });
    if (!r.ok) return r;
    if (r.batch) batch = r.batch;
    files.push(...r.files);
    indexLines += r.indexLines;
  }
  if (files.length > 0) scan(ctx);
  const message =
    files.length === 0
      ? 'nothing to recover: every file is already as that version had it'
      : `recovered ${files.length} ${files.length === 1 ? 'file' : 'files'}${indexLines ? ` and ${indexLines} MEMORY.md ${indexLines === 1 ? 'line' : 'lines'}` : ''} as batch ${batch} (undo: memtrust undo ${batch})`;
  return { ok: true, batch, files, redacted, indexLines, message };
}

/** The targets that put back every file one outside change (an audit batch) deleted or rewrote. */
export function outsideBatchTargets(ctx: ServiceContext, store: VersionStore, batch: string): RecoverTarget[] {
  const rows = ctx.handle.sqlite
    .prepare(
      "SELECT source, memory, before_sha256 AS sha FROM audit_events WHERE batch = ? AND actor = 'outside' AND action IN ('deleted', 'rewritten')",
    )
    .all(batch) as { source: string; memory: string; sha: string | null }[];
  const out: RecoverTarget[] = [];
  const indexes = new Map<string, VersionLine[]>();
  for (const r of rows) {
    const source = ctx.sources.find((s) => s.id === r.source && !s.error);
    if (!source || !r.sha) continue;
    if (!indexes.has(source.id)) indexes.set(source.id, store.readIndex(source.root));
    const line = indexes
      .get(source.id)!
      .filter((l) => l.sha === r.sha && path.posix.basename(l.rel) === r.memory && l.pack)
      .at(-1);
    if (line) out.push({ source, filename: r.memory, line });
  }
  return out;
}
