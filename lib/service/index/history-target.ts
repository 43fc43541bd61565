/**
 * What `memtrust history ARG` is about (docs/audit-trail.md; docs/roots.md): a memory id
 * (`<source-id>:<filename>`), a path inside a configured root, or a bare filename that
 * exactly one configured root knows (on disk or in its trail). A filename that several
 * roots know is ambiguous and refused: it never merges the histories of different memories.
 * Failing that, a record of a record root by id or key (lib/service/records/history.ts).
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ServiceContext } from '../context';
import { parseMemoryId } from '../../core/memory-id';
import { isInside } from '../../core/paths';
import { resolveMemory } from './resolve';
import { recordHistoryTarget } from '../records/history';

export type HistoryTarget =
  | { ok: true; source: string; memory: string; record?: { id: string; layout: string } }
  | { ok: false; code: 'not-found' | 'ambiguous' | 'bad-name'; message: string };

function sourcesWithEvents(sqlite: Database.Database, memory: string, ids: string[]): string[] {
  const rows = sqlite.prepare('SELECT DISTINCT source FROM audit_events WHERE memory = ?').all(memory) as {
    source: string;
  }[];
  return rows.map((r) => r.source).filter((s) => ids.includes(s));
}

/**
 * A memory first (id, path, filename), else a record of a record root by id or bare key
 * (docs/records.md, "History and reports"): `memory` is then the record's key.
 */
export function historyTarget(ctx: ServiceContext, ref: string): HistoryTarget {
  const mem = memoryTarget(ctx, ref);
  if (mem.ok || mem.code === 'ambiguous' || !ctx.recordSources?.length) return mem;
  const rec = recordHistoryTarget(ctx, ref);
  if (rec.ok) return { ok: true, source: rec.source.id, memory: rec.key, record: { id: rec.id, layout: rec.layout } };
  if (rec.code === 'ambiguous') return rec;
  return {
    ok: false,
    code: 'not-found',
    message: `no memory or record ${ref} in the configured roots (give a memory id, path or file name, or a record id or key)`,
  };
}

function memoryTarget(ctx: ServiceContext, ref: string): HistoryTarget {
  const ids = ctx.sources.map((s) => s.id);
  const asId = parseMemoryId(ref);
  if (asId && ids.includes(asId.source)) return { ok: true, source: asId.source, memory: asId.filename };
  // The index key `list` prints, `<source-id>:<relPath>`: that root's memory of that file name.
  const key = /^([a-z0-9-]{1,40}):((?:[^/\\\0]+\/)+[^/\\\0]+\.md)$/.exec(ref);
  if (key && ids.includes(key[1]!) && !key[2]!.split('/').includes('..'))
    return { ok: true, source: key[1]!, memory: path.posix.basename(key[2]!) };
  if (ref.includes('/') || ref.includes('\\')) {
    const abs = path.resolve(ref);
    const inRoot = ctx.sources.filter((s) => isInside(path.resolve(s.root), abs));
    if (inRoot.length === 0)
      return { ok: false, code: 'not-found', message: `${ref} is not inside any configured root` };
    // The deepest root wins when roots nest.
    const s = inRoot.sort((a, b) => b.root.length - a.root.length)[0]!;
    return { ok: true, source: s.id, memory: path.basename(abs) };
  }
  if (!/^[^/\\\0]+\.md$/.test(ref))
    return {
      ok: false,
      code: 'bad-name',
      message: `${ref} is neither a memory id (source:file.md) nor a memory file name`,
    };
  const onDisk = new Set<string>();
  const r = resolveMemory(ctx.sources, ref);
  if (r.ok) onDisk.add(r.found.source.id);
  else if (r.code === 'ambiguous') for (const s of ctx.sources) if (resolveMemory([s], ref).ok) onDisk.add(s.id);
  const known = [...new Set([...onDisk, ...sourcesWithEvents(ctx.handle.sqlite, ref, ids)])];
  if (known.length === 1) return { ok: true, source: known[0]!, memory: ref };
  if (known.length === 0)
    return { ok: false, code: 'not-found', message: `no memory named ${ref} in the configured roots` };
  return {
    ok: false,
    code: 'ambiguous',
    message: `${ref} names a memory in several roots (${known.map((id) => `${id}:${ref}`).join(', ')}): give its id`,
  };
}
