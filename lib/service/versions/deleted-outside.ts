/**
 * Memories deleted outside memtrust (docs/versions.md, "Versions in the dashboard"): files the
 * version store last saw gone, whose deletion an `outside` audit event recorded, and that no
 * index row holds again (put back, or recreated). Each keeps its last version, which
 * Recover puts back.
 */
import path from 'node:path';
import type { ServiceContext } from '../context';
import { readFields } from '../index/inspect';
import { maskKept } from './version-view';
import { openStore } from './versions-of';
import type { VersionLine } from './version-store';

export interface DeletedMemory {
  /** The memory id (`<source>:<filename>`). */
  id: string;
  source: string;
  root: string;
  rel: string;
  filename: string;
  name: string;
  /** When the scan saw it gone. */
  deletedAt: string;
  /** The outside change's audit batch (the mass change's, when it was one). */
  batch: string | null;
  /** Size of the last kept version, or null when none is kept (retention removed it). */
  size: number | null;
  /** When the last kept version was first seen. */
  versionAt: string | null;
  /** Credential values were replaced in the kept copy. */
  redacted: boolean;
}

/**
 * Newest deletion first; `sources` limits the roots (the project filter). `names: false`
 * skips reading the kept copies (a count for a link): `name` is then the filename's stem.
 */
export function deletedOutside(
  ctx: ServiceContext,
  sources?: readonly string[],
  opts: { names?: boolean } = {},
): DeletedMemory[] {
  const store = openStore(ctx);
  if (!store) return [];
  const indexed = ctx.handle.sqlite.prepare('SELECT 1 FROM entries WHERE source = ? AND filename = ? LIMIT 1');
  const outsideEvent = ctx.handle.sqlite.prepare(
    "SELECT at, batch FROM audit_events WHERE source = ? AND memory = ? AND actor = 'outside' AND action = 'deleted' ORDER BY at_ms DESC LIMIT 1",
  );
  // Only a root with an outside deletion in its audit trail can list one: the others' packs are
  // not read (reading every pack of a home of 200 projects took 0.5 s, docs/performance-pages.md).
  const withOutsideDeletions = new Set(
    ctx.handle.sqlite
      .prepare("SELECT DISTINCT source FROM audit_events WHERE actor = 'outside' AND action = 'deleted'")
      .pluck()
      .all() as string[],
  );
  const owner = ctx.owner();
  const out: DeletedMemory[] = [];
  for (const source of ctx.sources) {
    if (source.error || (sources && !sources.includes(source.id))) continue;
    if (!withOutsideDeletions.has(source.id)) continue;
    const last = new Map<string, VersionLine>();
    const lastKept = new Map<string, VersionLine>();
    for (const l of store.readIndex(source.root)) {
      if (l.index) continue; // MEMORY.md's versions: kept for recover, not a memory
      last.set(l.rel, l);
      if (!l.gone && l.pack) lastKept.set(l.rel, l);
    }
    for (const [rel, l] of last) {
      if (!l.gone) continue;
      const filename = path.posix.basename(rel);
      if (indexed.get(source.id, filename)) continue;
      const ev = outsideEvent.get(source.id, filename) as { at: string; batch: string | null } | undefined;
      if (!ev) continue; // memtrust's own move or deletion: not lost
      const kept = lastKept.get(rel) ?? null;
      const bytes = kept && opts.names !== false ? store.bytesOf(kept) : null;
      out.push({
        id: `${source.id}:${filename}`,
        source: source.id,
        root: source.root,
        rel,
        filename,
        // Shown on a page: masked like every value a page shows (docs/credentials.md).
        name: maskKept((bytes && readFields(bytes).fields.name) || filename.replace(/\.md$/, ''), owner),
        deletedAt: l.at,
        batch: ev.batch,
        size: kept ? kept.size : null,
        versionAt: kept ? kept.at : null,
        redacted: Boolean(kept?.redacted),
      });
    }
  }
  return out.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt) || a.id.localeCompare(b.id));
}
