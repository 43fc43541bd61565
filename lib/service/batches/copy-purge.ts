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
 * (`credentialValuesIn`, in memory only, never written), and looks for each one in the
 * memory's bytes now. A memory that is gone is not "a value removed": its copies stay
 * (until they expire) so a deletion can be undone.
 *
 * Also here: expiry (`undoRetentionDays`, docs/batches.md "Expiry").
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../../sources';
import { isoNow } from '../../trust/dates';
import { findingClass, type OwnerIdentity } from '../../validators/types';
import type { ServiceContext } from '../context';
import { resolveMemory } from '../index/resolve';
import { secretSpans } from '../index/secret-spans';
import { readIfExists, replaceFileAtomic } from '../write/fs-atomic';
import { LockTimeoutError, withRootLock } from '../write/lock';
import { rootDataDir } from '../meta/places';
import { batchDir, batchIds, readBlob, readManifest, readState, type BatchManifest } from './batch-store';

/** Why a copy is gone (the manifest's `purged` entries, and undo's refusal). */
export const PURGED_WHY = 'the copy held a credential that was removed from the memory; it was purged';

/**
 * The credential values in these bytes, as the secret check finds them (class
 * `credential`; personal data is not a credential). Held in memory for one comparison.
 */
export function credentialValuesIn(bytes: Buffer, owner: OwnerIdentity): string[] {
  const text = bytes.toString('utf8');
  return [
    ...new Set(
      secretSpans(text, owner)
        .filter((s) => findingClass(s.c.code) === 'credential')
        .map((s) => text.slice(s.c.start, s.c.end)),
    ),
  ];
}

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
 * holds a credential value the memory no longer holds. Record batches are not looked at
 * (docs/batches.md). Returns what was purged.
 */
export function purgeRemovedCredentials(
  ctx: ServiceContext,
  source: SourceInfo,
  memories: Iterable<string>,
): PurgeReport[] {
  const wanted = new Set(memories);
  if (wanted.size === 0) return [];
  const owner = ctx.owner();
  const indexFile = source.adapter.indexFile ?? undefined;
  if (indexFile) wanted.add(indexFile);
  const now = new Map<string, Buffer | null>();
  const current = (memory: string) => {
    if (!now.has(memory)) now.set(memory, bytesNow(source, memory, indexFile));
    return now.get(memory)!;
  };
  const out: PurgeReport[] = [];
  for (const id of batchIds(source.root)) {
    const m = readManifest(source.root, id);
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
      const values = credentialValuesIn(blob, owner);
      if (values.length === 0) continue;
      const cur = current(e.memory);
      if (!cur) continue;
      const text = cur.toString('utf8');
      if (values.every((v) => text.includes(v))) continue;
      gone.add(e.sha);
    }
    if (gone.size === 0) continue;
    const at = isoNow(ctx.now());
    // The manifest says so first: a crash between the two leaves a copy marked purged, never an unexplained hole.
    const purged = [...(m.purged ?? [])];
    for (const e of entries)
      if (gone.has(e.sha)) {
        purged.push({ memory: e.memory, sha: e.sha, at, why: 'credential-removed' });
        out.push({ batch: id, memory: e.memory });
      }
    rewriteManifest(source.root, { ...m, purged });
    for (const sha of gone) fs.rmSync(path.join(batchDir(source.root, id), 'blobs', sha), { force: true });
  }
  return out;
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
