/**
 * Undo copies never outlive a credential (CONTRACT §2.5; docs/batches.md "Copies that held
 * a removed credential"). Once a credential value is no longer in a memory — removed by a
 * repair, an edit through memtrust, or by hand (seen at the next scan) — every undo copy
 * of that memory holding it is deleted, and the batch's manifest says which and why. Undo
 * of such a batch is then refused with that reason (undo.ts).
 *
 * Recognising "a value removed" needs the old values, and memtrust keeps none anywhere
 * else: the copies themselves are where the old values are. So the check reads each copy
 * of a changed memory, finds its credential values with the secret check
 * (lib/validators/credential-values.ts, the rule propagation uses too; in memory only,
 * never written), and looks for each one in the memory's bytes now. A memory that is gone
 * is not "a value removed": its copies stay (until they expire) so a deletion can be undone.
 *
 * The same holds for the other copies memtrust keeps: the MEMORY.md lines a demotion put
 * aside (index-edit.ts, `index-lines.json` and `index-layout.json`) and the copies of record
 * batches (the files before and after each change; docs/records-write.md).
 *
 * Also here: expiry (`undoRetentionDays`, docs/batches.md "Expiry").
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../../sources';
import { isoNow } from '../../trust/dates';
import { valuesStillHeld } from '../../validators/credential-values';
import { decodeLossy } from '../../validators/scan-text';
import type { ServiceContext } from '../context';
import { resolveMemory } from '../index/resolve';
import { purgeStashedLines } from '../claude/index-edit';
import { readIfExists, replaceFileAtomic } from '../write/fs-atomic';
import { LockTimeoutError, withRootLock } from '../write/lock';
import { rootDataDir } from '../meta/places';
import { batchDir, batchIds, readBlob, readManifest, readState, type BatchManifest } from './batch-store';
import { sha256 } from '../index/inspect';

/** Why a copy is gone (the manifest's `purged` entries, and undo's refusal). */
export const PURGED_WHY = 'the copy held a credential that was removed from the memory; it was purged';

/** The memory's bytes now (both copies when it is in two places); null when it is gone. */
function bytesNow(source: SourceInfo, memory: string, indexFile: string | undefined): Buffer | null {
  if (memory === indexFile) return readIfExists(path.join(source.root, memory));
  const r = resolveMemory([source], memory, { sourceId: source.id });
  if (!r.ok) return null;
  const parts = [r.found.abs, ...(r.conflictWith ? [r.conflictWith.abs] : [])].map((f) => readIfExists(f));
  const got = parts.filter((b): b is Buffer => b !== null);
  return got.length ? Buffer.concat(got) : null;
}

function rewriteManifest(root: string, m: BatchManifest): void {
  replaceFileAtomic(
    path.join(batchDir(root, m.id), 'manifest.json'),
    Buffer.from(JSON.stringify(m, null, 1)),
    `batch-${process.pid}`,
  );
}

export interface PurgeReport {
  batch: string;
  memory: string;
}

/**
 * Deletes every undo copy of `memories` (filenames; the index file counts as one) that
 * holds a credential value the memory no longer holds. Returns what was purged.
 */
export function purgeRemovedCredentials(
  ctx: ServiceContext,
  source: SourceInfo,
  memories: Iterable<string>,
): PurgeReport[] {
  const wanted = new Set(memories);
  if (wanted.size === 0) return [];
  const owner = ctx.owner();
  const indexFile = source.adapter.files?.indexFile ?? undefined;
  if (indexFile) wanted.add(indexFile);
  const now = new Map<string, Buffer | null>();
  const current = (memory: string) => {
    if (!now.has(memory)) now.set(memory, bytesNow(source, memory, indexFile));
    return now.get(memory)!;
  };
  const out: PurgeReport[] = [];
  for (const id of batchIds(source.root)) {
    const m = readManifest(source.root, id);
    // A record batch's copies are checked against its files (purgeRecordCopies).
    if (!m || m.records || m.expired) continue;
    const entries = [
      ...m.files.map((f) => ({ memory: f.memory, sha: f.sha })),
      ...(m.index?.sha ? [{ memory: m.index.file, sha: m.index.sha }] : []),
    ];
    const gone = new Set<string>();
    for (const e of entries) {
      if (!wanted.has(e.memory) || gone.has(e.sha) || m.purged?.some((p) => p.sha === e.sha)) continue;
      const blob = readBlob(source.root, id, e.sha);
      if (!blob) continue;
      const cur = current(e.memory);
      if (!cur || valuesStillHeld(decodeLossy(blob), () => decodeLossy(cur), owner)) continue;
      gone.add(e.sha);
    }
    out.push(...purgeBlobs(ctx, source.root, m, entries, gone));
  }
  return out;
}

/**
 * Drops the MEMORY.md lines a demotion put aside (index-edit.ts) that hold a credential value
 * neither their memory (wherever it lies) nor MEMORY.md holds any more. Call holding the
 * root's lock: the stash is read, changed and written back.
 */
export function purgeStash(ctx: ServiceContext, source: SourceInfo): void {
  const indexFile = source.adapter.files?.indexFile ?? undefined;
  if (!indexFile) return;
  const owner = ctx.owner();
  const index = readIfExists(path.join(source.root, indexFile));
  purgeStashedLines(source.root, indexFile, `purge-${process.pid}`, (line, memory) =>
    valuesStillHeld(
      line,
      () =>
        [index, memory ? bytesNow(source, memory, indexFile) : null]
          .filter((b): b is Buffer => b !== null)
          .map((b) => decodeLossy(b))
          .join('\n'),
      owner,
    ),
  );
}

/**
 * Marks `gone` (blob shas of the batch) purged in the manifest, then deletes them. The
 * manifest says so first: a crash between the two leaves a copy marked purged, never an
 * unexplained hole.
 */
function purgeBlobs(
  ctx: ServiceContext,
  root: string,
  m: BatchManifest,
  entries: { memory: string; sha: string }[],
  gone: ReadonlySet<string>,
): PurgeReport[] {
  if (gone.size === 0) return [];
  const at = isoNow(ctx.now());
  const purged = [...(m.purged ?? [])];
  const out: PurgeReport[] = [];
  const named = new Set<string>();
  for (const e of entries)
    if (gone.has(e.sha) && !named.has(e.sha)) {
      named.add(e.sha);
      purged.push({ memory: e.memory, sha: e.sha, at, why: 'credential-removed' });
      out.push({ batch: m.id, memory: e.memory });
    }
  rewriteManifest(root, { ...m, purged });
  for (const sha of gone) fs.rmSync(path.join(batchDir(root, m.id), 'blobs', sha), { force: true });
  return out;
}

/**
 * The copies of a record root's batches (the bytes of each file before and after each
 * change): a copy holding a credential value that neither of the change's files holds now is
 * purged, and undo of that batch is refused with the reason (undo.ts). A batch not yet
 * finished keeps its copies: recovery needs them. A copy equal to a file as it is now holds
 * nothing removed, so only copies of files changed since are read and checked.
 */
export function purgeRecordCopies(ctx: ServiceContext, source: SourceInfo, onlyIfChanged = false): PurgeReport[] {
  const ids = batchIds(source.root);
  if (ids.length === 0) return [];
  // After a scan: nothing to do while no file a batch touched changed since the last check.
  const mark = path.join(rootDataDir(source.root), 'record-copies-checked');
  const signature = onlyIfChanged ? recordFilesSignature(source.root, ids) : '';
  if (onlyIfChanged && readIfExists(mark)?.toString('utf8') === signature) return [];
  const owner = ctx.owner();
  const out: PurgeReport[] = [];
  const now = new Map<string, Buffer | null>();
  const current = (rel: string) => {
    if (!now.has(rel)) now.set(rel, readIfExists(path.join(source.root, rel)));
    return now.get(rel)!;
  };
  for (const id of batchIds(source.root)) {
    const m = readManifest(source.root, id);
    if (!m?.records || m.expired || !readState(source.root, id)?.done) continue;
    const done = new Set(m.purged?.map((p) => p.sha));
    const entries: { memory: string; sha: string }[] = [];
    const gone = new Set<string>();
    for (const c of m.records.changes) {
      const files = [...new Set([c.src, c.dst])].map((rel) => current(rel));
      const shas = new Set(files.map((b) => (b ? sha256(b) : null)));
      for (const sha of [c.before, c.after]) {
        if (!sha || done.has(sha) || gone.has(sha) || shas.has(sha)) continue;
        entries.push({ memory: c.src, sha });
        const blob = readBlob(source.root, id, sha);
        if (!blob) continue;
        const held = () =>
          files
            .filter((b): b is Buffer => b !== null)
            .map((b) => decodeLossy(b))
            .join('\n');
        if (!valuesStillHeld(decodeLossy(blob), held, owner)) gone.add(sha);
      }
    }
    out.push(...purgeBlobs(ctx, source.root, m, entries, gone));
  }
  if (onlyIfChanged) {
    try {
      fs.writeFileSync(mark, signature, { mode: 0o600 });
    } catch {
      // no data folder for this root: checked again next time
    }
  }
  return out;
}

/** The record batches and the size and time of every file they changed, as one string. */
function recordFilesSignature(root: string, ids: string[]): string {
  const rels = new Set<string>();
  for (const id of ids) for (const c of readManifest(root, id)?.records?.changes ?? []) rels.add(c.src).add(c.dst);
  const parts = [ids.sort().join(',')];
  for (const rel of [...rels].sort()) {
    try {
      const st = fs.statSync(path.join(root, rel));
      parts.push(`${rel}:${st.size}:${st.mtimeMs}`);
    } catch {
      parts.push(`${rel}:-`);
    }
  }
  return parts.join('\n');
}

/**
 * A record root after a scan: its old batches expire, and copies of files changed since the
 * last check are purged of removed credentials (under the root's lock when it is free).
 */
export function tidyRecordCopies(ctx: ServiceContext, source: SourceInfo): void {
  if (batchIds(source.root).length === 0) return;
  try {
    withRootLock(
      source.root,
      ctx.machine,
      () => {
        expireOldBatches(ctx, source);
        purgeRecordCopies(ctx, source, true);
      },
      0,
    );
  } catch (e) {
    if (!(e instanceof LockTimeoutError)) throw e;
  }
}

/**
 * After a scan: copies of the memories it read anew are checked, and old batches expire.
 * Under the root's lock when it is free; a writer holding it means the next scan does it.
 */
export function tidyUndoCopies(ctx: ServiceContext, source: SourceInfo, rewritten: Iterable<string>): void {
  const names = [...rewritten];
  // Nothing read anew and expiry done today, or no batch at all: no lock taken, nothing written.
  if ((names.length === 0 && !expiryDue(ctx, source)) || batchIds(source.root).length === 0) return;
  try {
    withRootLock(
      source.root,
      ctx.machine,
      () => {
        expireOldBatches(ctx, source);
        purgeRemovedCredentials(ctx, source, names);
        if (names.length > 0) purgeStash(ctx, source);
      },
      0,
    );
  } catch (e) {
    if (!(e instanceof LockTimeoutError)) throw e;
  }
}

const DAY = 86_400_000;

/**
 * The day (and retention) the root's old batches were last expired, by any process: one
 * small file in the root's data folder. Kept on disk only, so a run does the same work
 * whatever ran before it in the process (the fault suite counts every read of a write).
 */
const expiryMark = (source: SourceInfo) => path.join(rootDataDir(source.root), 'expired-on');
const expiryDay = (ctx: ServiceContext) => `${isoNow(ctx.now()).slice(0, 10)} ${ctx.config.undoRetentionDays}`;

/** Whether the root's old batches were not yet expired today (here, or by another process). */
function expiryDue(ctx: ServiceContext, source: SourceInfo): boolean {
  try {
    return fs.readFileSync(expiryMark(source), 'utf8') !== expiryDay(ctx);
  } catch {
    return true;
  }
}

/**
 * Deletes the copies of batches older than `undoRetentionDays` (once per root and day); the
 * manifest stays, marked `expired`, so undo can say why it cannot. A batch that never
 * finished keeps its copies: recovery may still need them.
 */
export function expireOldBatches(ctx: ServiceContext, source: SourceInfo): string[] {
  const now = ctx.now();
  if (!expiryDue(ctx, source)) return [];
  const today = expiryDay(ctx);
  const limit = now.getTime() - ctx.config.undoRetentionDays * DAY;
  const out: string[] = [];
  for (const id of batchIds(source.root)) {
    const m = readManifest(source.root, id);
    if (!m || m.expired || !(Date.parse(m.at) < limit) || !readState(source.root, id)?.done) continue;
    rewriteManifest(source.root, { ...m, expired: isoNow(now) });
    fs.rmSync(path.join(batchDir(source.root, id), 'blobs'), { recursive: true, force: true });
    out.push(id);
  }
  try {
    fs.writeFileSync(expiryMark(source), today, { mode: 0o600 });
  } catch {
    // no data folder for this root yet (no batch): asked again next time
  }
  return out;
}
