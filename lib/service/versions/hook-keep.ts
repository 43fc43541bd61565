/**
 * Versions kept by the hooks (docs/versions.md, "When"): the bytes the PostToolUse stamp
 * leaves and the files SessionStart reads from disk, so a file another program rewrites or
 * deletes before the next scan still has its last version. Files only (the plugin's hooks
 * have no SQLite): the version store is beside the index database's path. Never an error
 * for the hook: a version that cannot be kept is left to the next scan.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OwnerIdentity } from '../../validators/types';
import type { ServiceContext } from '../context';
import { FILE_CAP_BYTES } from '../../validators/types';
import { sha256Hex } from '../../core/hash';
import { redactForVersion } from './redact';
import { type NewVersion, VersionStore, versionsDirBeside, versionsOn } from './version-store';

export interface SeenFile {
  root: string;
  /** The memory id (`<source>:<filename>`). */
  id: string;
  relPath: string;
  bytes: Buffer;
  /** false: the secret check found no credential in these bytes (no second look); undefined: not checked yet. */
  credential?: boolean;
}

/**
 * Keeps `files` as versions seen at `now`. `blind` (one file, the stamp): appended without
 * reading the pack, as fast however large it is; otherwise (SessionStart, every file of a
 * root) the pack is read first and only bytes it does not end with for that path are kept.
 */
export function keepSeen(
  dbPath: string,
  files: SeenFile[],
  owner: OwnerIdentity,
  now: Date,
  opts: { blind: boolean },
): void {
  if (files.length === 0 || !path.isAbsolute(dbPath) || !versionsOn()) return;
  try {
    const store = new VersionStore(versionsDirBeside(dbPath));
    const at = `${now.toISOString().slice(0, 19)}Z`;
    const byRoot = new Map<string, NewVersion[]>();
    for (const f of files) {
      const { bytes: stored, replaced } =
        f.credential === false ? { bytes: f.bytes, replaced: 0 } : redactForVersion(f.bytes, owner);
      const list = byRoot.get(f.root) ?? [];
      list.push({
        id: f.id,
        rel: f.relPath,
        sha: sha256Hex(f.bytes),
        size: f.bytes.length,
        stored,
        redacted: replaced,
      });
      byRoot.set(f.root, list);
    }
    // Stored, not compressed: a hook keeps a file or two, and brotli's encoder would load node:zlib (pack.ts).
    for (const [root, versions] of byRoot) store.put(root, at, versions, { blind: opts.blind, stored: true });
    store.flush();
  } catch {
    // A full disk, a read-only data folder: the next scan keeps what it finds.
  }
}

/**
 * After the stamp: the file as the stamp left it (or found it, for a no-op), kept blind, and
 * before it the file as it was before the assistant's write when Claude Code reports that
 * (`tool_response.originalFile`, null for a new file): a change another program made just
 * before the write is kept even though no scan read it (docs/versions.md, "When").
 */
export function keepAfterStamp(
  ctx: ServiceContext,
  realRoot: string,
  relPath: string,
  abs: string,
  opts: { before?: string | null; stamped: boolean },
): void {
  if (!versionsOn()) return;
  const source = ctx.sources.find((s) => !s.error && realOf(s.root) === realRoot);
  if (!source) return;
  const id = `${source.id}:${path.posix.basename(relPath)}`;
  const files: SeenFile[] = [];
  if (typeof opts.before === 'string') {
    const bytes = Buffer.from(opts.before, 'utf8');
    if (bytes.length <= FILE_CAP_BYTES) files.push({ root: source.root, id, relPath, bytes });
  }
  if (opts.stamped) {
    try {
      const bytes = fs.readFileSync(abs);
      if (bytes.length <= FILE_CAP_BYTES) files.push({ root: source.root, id, relPath, bytes });
    } catch {
      // gone since the stamp: the next scan records it
    }
  }
  keepSeen(ctx.config.dbPath, files, ctx.owner(), ctx.now(), { blind: true });
}

function realOf(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
