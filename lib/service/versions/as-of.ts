/**
 * A root as it was at a time (docs/versions.md, "As of"): from the version store, each file
 * whose last line at or before that time is a version, not a deletion. Only what memtrust
 * saw: a file changed twice between two scans shows the bytes the later scan read.
 */
import path from 'node:path';
import type { ServiceContext } from '../context';
import { readFields } from '../index/inspect';
import { openStore } from './versions-of';
import type { VersionLine } from './version-store';

export interface AsOfItem {
  source: string;
  id: string;
  relPath: string;
  /** When memtrust first saw this version. */
  seen: string;
  sha256: string;
  size: number;
  trustLevel: string | null;
  name: string | null;
  /** What the file is now: the same bytes, other bytes, or gone. */
  now: 'same' | 'changed' | 'deleted';
}

export function listAsOf(ctx: ServiceContext, at: Date): AsOfItem[] | null {
  const store = openStore(ctx);
  if (!store) return null;
  const out: AsOfItem[] = [];
  for (const source of ctx.sources.filter((s) => !s.error)) {
    const lines = store.readIndex(source.root);
    const then = new Map<string, VersionLine>();
    const latest = new Map<string, VersionLine>();
    for (const l of lines) {
      if (l.index) continue; // MEMORY.md's versions: kept for recover, not a memory
      if (Date.parse(l.at) <= at.getTime()) then.set(l.rel, l);
      latest.set(l.rel, l);
    }
    for (const l of then.values()) {
      if (l.gone || !l.sha) continue;
      const bytes = store.bytesOf(l);
      const f = bytes ? readFields(bytes).fields : {};
      const last = latest.get(l.rel)!;
      out.push({
        source: source.id,
        id: l.id,
        relPath: l.rel,
        seen: l.at,
        sha256: l.sha,
        size: l.size,
        trustLevel: f['trust-level'] ?? null,
        name: f.name ?? path.posix.basename(l.rel, '.md'),
        now: last.gone ? 'deleted' : last.sha === l.sha ? 'same' : 'changed',
      });
    }
  }
  return out.sort((a, b) => a.source.localeCompare(b.source) || a.relPath.localeCompare(b.relPath));
}
