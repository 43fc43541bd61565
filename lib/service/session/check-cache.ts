/**
 * The SessionStart hook's cache of checks, for the files no index row stands for
 * (docs/session-context.md, "Reading the folders fast"). The plugin has no SQLite, and a
 * CLI without an index reads and checks every memory of the project at every session start:
 * the credential and injection checks of a few hundred files, 100–300 ms of CPU in a
 * project of a Claude Code home of 200 projects (docs/performance.md).
 *
 * What is kept is what the hook worked out from a file's bytes — its fields, the lines of its
 * credential findings, whether the injection check flags it — keyed by the scan's own
 * freshness rule (size and mtime, docs/freshness.md) and by what the checks depend on
 * besides the bytes (`readSignature`: the rules' versions, the owner and allowances, the set
 * of known values). The text is made from these as from a fresh row: the clock, the budget
 * and the plan are worked out at every session start, so nothing the text depends on is
 * kept except what the bytes decide.
 *
 * One JSON file per root, `<data dir>/session-checks/<source id>.json`, mode 0600, beside the
 * index. It holds no value of a credential (line numbers only) and no body. A file that
 * cannot be read or written is no cache: the hook checks the files, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OwnerIdentity } from '../../validators/types';
import { readSignature } from '../index/rules-signature';

/** Bump when what is kept, or how it is worked out, changes. */
const FORMAT = 1;

/** What the hook works out from one memory file's bytes. */
export interface CheckedFile {
  size: number;
  mtimeMs: number;
  name: string;
  trustLevel?: string;
  type?: string;
  createdAt?: string;
  lastVerified?: string;
  originSession?: string;
  originReviewed?: string;
  credentialLines: number[];
  injection: boolean;
}

/** A Claude Code folder's MEMORY.md: the lines holding a credential. */
interface CheckedIndex {
  size: number;
  mtimeMs: number;
  credentialLines: number[];
}

interface Stored {
  format: number;
  root: string;
  signature: string;
  files: Record<string, CheckedFile>;
  index?: CheckedIndex;
}

/** One root's kept checks. */
export interface RootChecks {
  /** The checks of `relPath` when kept for exactly this size and mtime. */
  file(relPath: string, size: number, mtimeMs: number): CheckedFile | undefined;
  put(relPath: string, c: CheckedFile): void;
  index(size: number, mtimeMs: number): number[] | undefined;
  putIndex(c: CheckedIndex): void;
}

export interface CheckCache {
  root(sourceId: string, root: string): RootChecks;
  /** Writes the roots whose checks changed (entries of files not looked at this time are dropped). */
  save(): void;
}

/** The cache under `dataDir` for checks made under `owner`; null: no cache (no folder, or a set of known values without its version). */
export function openCheckCache(dataDir: string | null, owner: OwnerIdentity): CheckCache | null {
  if (!dataDir || (owner.knownValues && !owner.knownValues.digest)) return null;
  const dir = path.join(dataDir, 'session-checks');
  const signature = readSignature(owner);
  const roots = new Map<string, { file: string; stored: Stored; used: Set<string>; changed: boolean }>();
  return {
    root(sourceId, root) {
      const file = path.join(dir, `${sourceId}.json`);
      let stored: Stored = { format: FORMAT, root, signature, files: {} };
      try {
        const s = JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
        // Another format, rules, owner or root (two roots with one id): nothing of it stands.
        if (s.format === FORMAT && s.root === root && s.signature === signature && s.files) stored = s;
      } catch {
        // none yet, or unreadable: an empty cache
      }
      const r = { file, stored, used: new Set<string>(), changed: false };
      roots.set(file, r);
      return {
        file(relPath, size, mtimeMs) {
          const c = Object.hasOwn(r.stored.files, relPath) ? r.stored.files[relPath] : undefined;
          if (!c || c.size !== size || c.mtimeMs !== mtimeMs) return undefined;
          r.used.add(relPath);
          return c;
        },
        put(relPath, c) {
          r.stored.files[relPath] = c;
          r.used.add(relPath);
          r.changed = true;
        },
        index(size, mtimeMs) {
          const c = r.stored.index;
          return c && c.size === size && c.mtimeMs === mtimeMs ? c.credentialLines : undefined;
        },
        putIndex(c) {
          r.stored.index = c;
          r.changed = true;
        },
      };
    },
    save() {
      for (const r of roots.values()) {
        if (!r.changed) continue;
        const files: Record<string, CheckedFile> = {};
        for (const rel of r.used) files[rel] = r.stored.files[rel]!;
        const tmp = `${r.file}.${process.pid}.tmp`;
        try {
          fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
          fs.writeFileSync(tmp, JSON.stringify({ ...r.stored, files }), { mode: 0o600 });
          fs.renameSync(tmp, r.file);
        } catch {
          // A cache that cannot be written costs the next session start the checks, nothing else.
          try {
            fs.rmSync(tmp, { force: true });
          } catch {
            // nothing left to do
          }
        }
      }
    },
  };
}
