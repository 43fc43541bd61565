/**
 * Finds the memory a user named — a filename or a path inside a root — on disk,
 * not in the cache, so a transition always starts from what is there now.
 * Browser ids are looked up here too; nothing from a request is joined into a
 * path without this lookup and `confine` (docs/security.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isFileSource, type FileSourceInfo, type SourceInfo } from '../../sources';
import type { Location } from '../../trust/tiers';
import { confine, isInside, PathEscapeError } from '../../core/paths';

/** A file on disk in a root: a memory (a file layout's root), or a record store's file a record batch writes. */
export interface Located<S extends SourceInfo = FileSourceInfo> {
  source: S;
  relPath: string;
  abs: string;
  filename: string;
  location: Location;
}

export type Resolution =
  | { ok: true; found: Located; conflictWith?: Located }
  | { ok: false; code: 'not-found' | 'ambiguous' | 'bad-name' | 'not-a-memory' | 'path-escape'; message: string };

const FILENAME = /^[^/\\\0]+\.md$/;

function locationsOf(source: FileSourceInfo, filename: string): Located[] {
  const a = source.adapter.files;
  const dirs: { rel: string; location: Location }[] = [
    { rel: a.dirOf('memories'), location: 'memories' },
    { rel: a.dirOf('quarantine'), location: 'quarantine' },
  ];
  const archiveBase = path.posix.dirname(a.dirOf('archive', '0000-00'));
  try {
    for (const m of fs.readdirSync(path.join(source.root, archiveBase))) {
      if (/^\d{4}-\d{2}$/.test(m)) dirs.push({ rel: a.dirOf('archive', m), location: 'archive' });
    }
  } catch {
    // no archive yet
  }
  const out: Located[] = [];
  for (const d of dirs) {
    const relPath = d.rel ? `${d.rel}/${filename}` : filename;
    const abs = path.join(source.root, relPath);
    try {
      if (!fs.lstatSync(abs).isFile() && !fs.lstatSync(abs).isSymbolicLink()) continue;
    } catch {
      continue;
    }
    out.push({ source, relPath, abs, filename, location: d.location });
  }
  return out;
}

/** `<source-id>:<rest>` (what `list` prints as `id` and `key`): the source and the rest, when the id is configured. */
const SOURCE_PREFIX = /^([a-z0-9-]{1,40}):(.+)$/;

/**
 * Every handle the CLI prints names a memory (#34): its id `<source-id>:<filename>`, its
 * index key `<source-id>:<relPath>`, a path inside a root (absolute, or relative to the
 * working directory), or a `relPath` as `list` prints it (relative to its root).
 */
export function resolveMemory(
  sources: readonly SourceInfo[],
  ref: string,
  opts: { sourceId?: string } = {},
): Resolution {
  if (ref.includes('\0')) return { ok: false, code: 'bad-name', message: 'the name contains a NUL byte' };
  // A memory is a file of a file layout's root: roots read as records hold none.
  const files = sources.filter(isFileSource);
  let pool = opts.sourceId ? files.filter((s) => s.id === opts.sourceId) : files;
  const prefixed = SOURCE_PREFIX.exec(ref);
  if (prefixed && pool.some((s) => s.id === prefixed[1])) {
    pool = pool.filter((s) => s.id === prefixed[1]);
    ref = prefixed[2]!;
    // A key's relPath names a file of that root: read against the root, never the working directory.
    if ((ref.includes('/') || ref.includes('\\')) && !path.isAbsolute(ref)) ref = path.join(pool[0]!.root, ref);
  }
  let filename = ref;
  let scoped = pool;
  if (ref.includes('/') || ref.includes('\\')) {
    let abs = path.resolve(ref);
    scoped = pool.filter((s) => isInside(path.resolve(s.root), abs));
    if (scoped.length === 0 && !path.isAbsolute(ref)) {
      // A relPath as `list` prints it (`memories/x.md`, `quarantine/x.md`): the roots that hold it.
      scoped = pool.filter(
        (s) => isInside(path.resolve(s.root), path.join(s.root, ref)) && fs.existsSync(path.join(s.root, ref)),
      );
      if (scoped.length > 0) abs = path.join(scoped[0]!.root, ref);
    }
    if (scoped.length === 0)
      return { ok: false, code: 'not-found', message: `${ref} is not inside any configured root` };
    filename = path.basename(abs);
  }
  if (!FILENAME.test(filename))
    return { ok: false, code: 'bad-name', message: `${ref} does not name a memory file (*.md)` };
  // The index is a file of the root, but never a memory: refused, not a usage error.
  if (filename === 'MEMORY.md')
    return { ok: false, code: 'not-a-memory', message: `${ref} does not name a memory file (*.md)` };
  const hits = scoped.filter((s) => !s.error).flatMap((s) => locationsOf(s, filename));
  if (hits.length === 0)
    return {
      ok: false,
      code: 'not-found',
      message: `no memory named ${filename} in ${scoped.length === 1 ? scoped[0]!.root : 'any configured root'}`,
    };
  const bySource = new Set(hits.map((h) => h.source.id));
  if (bySource.size > 1) {
    return {
      ok: false,
      code: 'ambiguous',
      message: `${filename} exists in several roots (${hits.map((h) => h.abs).join(', ')}): name its path or pass --root`,
    };
  }
  for (const h of hits) {
    try {
      confine(h.source.root, h.relPath);
    } catch (e) {
      if (e instanceof PathEscapeError) return { ok: false, code: 'path-escape', message: `${h.abs}: ${e.message}` };
      throw e;
    }
  }
  const live = hits.filter((h) => h.location !== 'archive');
  const found = live[0] ?? hits[0]!;
  const conflictWith = live.length > 1 ? live[1] : undefined;
  return { ok: true, found, conflictWith };
}
