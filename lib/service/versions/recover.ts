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
import { sha256 } from '../index/inspect';
import { linkedFile } from '../claude/claude-index';
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

/** A MEMORY.md line to put back, with the link lines around it then (to put it back in its place). */
export interface IndexLine {
  filename: string;
  line: string;
  /** Its row in the MEMORY.md it is taken from: lines put back together go back in this order. */
  pos: number;
  /** The link lines before it there, nearest first, and after it, nearest first. */
  before: string[];
  after: string[];
}

/**
 * The line MEMORY.md had for `target`'s file when that version stopped being the file's (the
 * next line for its path in the pack: a deletion or another version), from the last MEMORY.md
 * version kept before then (index-keep.ts). Null when MEMORY.md did not list it then, or when no
 * version of MEMORY.md from then is kept: a line is never made up.
 */
export function indexLineWhenLost(
  store: VersionStore,
  lines: readonly VersionLine[],
  target: VersionLine,
  filename: string,
): IndexLine | null {
  const at = lines.findIndex(
    (l) => !l.index && l.rel === target.rel && l.sha === target.sha && l.at === target.at && !l.gone,
  );
  if (at < 0) return null;
  let end = lines.length;
  for (let k = at + 1; k < lines.length; k++)
    if (!lines[k]!.index && lines[k]!.rel === target.rel && lines[k]!.sha !== target.sha) {
      end = k;
      break;
    }
  let index: VersionLine | undefined;
  for (let k = end - 1; k >= 0; k--)
    if (lines[k]!.index) {
      index = lines[k];
      break;
    }
  const text = index ? store.bytesOf(index)?.toString('utf8') : undefined;
  if (!text) return null;
  const rows = text.split('\n').map((r) => r.replace(/\r$/, ''));
  const i = rows.findIndex((r) => linkedFile(r) === filename);
  if (i < 0) return null;
  const links = (from: number, step: number): string[] => {
    const out: string[] = [];
    for (let k = from; k >= 0 && k < rows.length; k += step) if (linkedFile(rows[k]!)) out.push(rows[k]!);
    return out;
  };
  return { filename, line: rows[i]!, pos: i, before: links(i - 1, -1), after: links(i + 1, 1) };
}

/**
 * `index` with each line it has no link for put back, in their old order: after the nearest
 * link line that preceded it then and is still there (one put back just before counts), else
 * before the nearest that followed it, else after the last link line (or at the end). The
 * file's own line ending (CRLF or LF) is kept.
 */
export function withIndexLines(index: string, lines: IndexLine[]): { text: string; added: number } {
  const crlf = index.includes('\r\n');
  // Rows keep their own endings; only the rows put back are new.
  const rows = index.split('\n');
  const bare = (r: string) => r.replace(/\r$/, '');
  let added = 0;
  const find = (candidates: string[]): number => {
    for (const c of candidates) {
      const k = rows.findIndex((r) => bare(r) === c);
      if (k >= 0) return k;
    }
    return -1;
  };
  for (const l of [...lines].sort((a, b) => a.pos - b.pos)) {
    if (rows.some((r) => linkedFile(bare(r)) === l.filename)) continue;
    const prev = find(l.before);
    let at = prev >= 0 ? prev + 1 : find(l.after);
    if (at < 0)
      rows.forEach((r, k) => {
        if (linkedFile(bare(r))) at = k + 1;
      });
    // No link line: at the end, before the empty row a final newline leaves.
    if (at < 0)
      at = rows.length > 1 && rows[rows.length - 1] === '' ? rows.length - 1 : rows[0] === '' ? 0 : rows.length;
    rows.splice(at, 0, crlf ? `${l.line}\r` : l.line);
    added++;
  }
  return { text: rows.join('\n'), added };
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
      const lines: IndexLine[] = [];
      const indexFile = source.adapter.files?.indexFile;
      const kept = indexFile ? store.readIndex(source.root) : [];
      for (const t of group) {
        const bytes = store.bytesOf(t.line);
        if (!bytes)
          return { ok: false, message: `the kept version of ${t.line.rel} (${t.line.at}) is missing or damaged` };
        const now = readIfExists(path.join(source.root, t.line.rel));
        if (now && sha256(now) === sha256(bytes)) continue; // already as it was
        changes.push({ src: t.line.rel, dst: t.line.rel, before: now, after: bytes });
        const line = indexFile ? indexLineWhenLost(store, kept, t.line, t.filename) : null;
        if (line) lines.push(line);
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
