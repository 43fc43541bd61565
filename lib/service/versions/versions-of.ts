/**
 * A memory's versions (docs/versions.md, "Listing versions"): `memtrust versions FILE|ID`
 * and recover find them by memory id (`<source>:<filename>`), a path inside a configured
 * root, or a bare filename known to one root only. A deleted memory is found too: the
 * version store remembers it, not the index.
 */
import path from 'node:path';
import type { SourceInfo } from '../../sources';
import type { ServiceContext } from '../context';
import { type VersionLine, VersionStore, versionsDirFor } from './version-store';

export interface MemoryVersions {
  source: SourceInfo;
  id: string;
  filename: string;
  /** Oldest first; `gone` lines mark when the file was seen deleted. */
  lines: VersionLine[];
  /** Who made each version (by sha): the audit event's actor naming those bytes, else `first seen`. */
  who: (line: VersionLine) => string;
}

export type VersionsLookup = { ok: true; found: MemoryVersions; store: VersionStore } | { ok: false; message: string };

export function openStore(ctx: ServiceContext): VersionStore | null {
  const dir = versionsDirFor(ctx.handle.sqlite);
  return dir ? new VersionStore(dir) : null;
}

export function versionsOf(ctx: ServiceContext, ref: string): VersionsLookup {
  const store = openStore(ctx);
  if (!store) return { ok: false, message: 'no version store: the index is not a file' };
  const matches = new Map<string, { source: SourceInfo; lines: VersionLine[] }>();
  const abs = path.isAbsolute(ref) ? path.resolve(ref) : null;
  for (const source of ctx.sources.filter((s) => !s.error)) {
    const byId = ref.startsWith(`${source.id}:`) ? ref.slice(source.id.length + 1) : null;
    for (const l of store.readIndex(source.root)) {
      if (l.index) continue; // MEMORY.md's versions: kept for recover, not a memory
      const name = path.posix.basename(l.rel);
      const hit =
        byId !== null
          ? name === byId || l.rel === byId
          : abs
            ? path.join(source.root, l.rel) === abs
            : l.rel === ref || name === ref;
      if (!hit) continue;
      const m = matches.get(l.id) ?? { source, lines: [] };
      m.lines.push(l);
      matches.set(l.id, m);
    }
  }
  if (matches.size === 0) return { ok: false, message: `no versions of ${ref} are kept (docs/versions.md)` };
  if (matches.size > 1)
    return {
      ok: false,
      message: `${ref} names more than one memory: use one of ${[...matches.keys()].sort().join(', ')}`,
    };
  const [id, m] = [...matches.entries()][0]!;
  const filename = id.slice(m.source.id.length + 1);
  const actorOf = ctx.handle.sqlite.prepare(
    'SELECT actor FROM audit_events WHERE source = ? AND memory = ? AND after_sha256 = ? ORDER BY at_ms DESC LIMIT 1',
  );
  const who = (l: VersionLine) =>
    l.gone
      ? ((
          ctx.handle.sqlite
            .prepare(
              "SELECT actor FROM audit_events WHERE source = ? AND memory = ? AND after_sha256 IS NULL AND action != 'undo' ORDER BY at_ms DESC LIMIT 1",
            )
            .get(m.source.id, filename) as { actor: string } | undefined
        )?.actor ?? 'outside')
      : ((actorOf.get(m.source.id, filename, l.sha) as { actor: string } | undefined)?.actor ?? 'first seen');
  return { ok: true, store, found: { source: m.source, id, filename, lines: m.lines, who } };
}

/** The version to put back: the last one at or before `at`; else the one before the file's current state. */
export function pickVersion(lines: VersionLine[], currentSha: string | null, at?: Date): VersionLine | null {
  const kept = lines.filter((l) => !l.gone && l.pack);
  if (at) return kept.filter((l) => Date.parse(l.at) <= at.getTime()).at(-1) ?? null;
  return kept.filter((l) => l.sha !== currentSha).at(-1) ?? null;
}
