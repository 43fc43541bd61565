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
 * One file per root, `<data dir>/session-checks/<source id>.json`, mode 0600, beside the
 * index: a snapshot (one JSON line, with a nonce `n`), then one line per session start that
 * changed something, appended (`{"n":…,"f":{path: checks, or null when dropped},"i":…}`):
 * a session start after one file changed writes that file's entry, not every file's. A line
 * stands only beside the snapshot it names (a writer that read another snapshot, or none,
 * appends nothing that counts); a line torn by a crash is skipped, and each is written after a
 * newline with one `write`, so two session starts' lines never mix. Past DELTAS_MAX lines, when
 * more than a quarter of the files changed, or when nothing of the snapshot stood, the file is
 * rewritten whole (temp name, rename).
 * It holds no value of a credential (line numbers only) and no body. A file that cannot be
 * read or written is no cache: the hook checks the files, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { replaceFile, sweepStaleTemps } from '../replace-file';
import type { OwnerIdentity } from '../../validators/types';
import { readSignature } from '../index/rules-signature';

/** Bump when what is kept, or how it is worked out, changes. */
const FORMAT = 1;
/** Appended lines after which the next change rewrites the file whole. */
export const DELTAS_MAX = 32;

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
  /** The snapshot's nonce: the appended lines that name it stand (absent before the lines: none does). */
  n?: string;
  files: Record<string, CheckedFile>;
  index?: CheckedIndex;
}

/** One appended line: the entries a session start changed (null: dropped) and MEMORY.md's. */
interface Delta {
  n: string;
  f: Record<string, CheckedFile | null>;
  i?: CheckedIndex;
}

const nonce = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

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
  const roots = new Map<
    string,
    { file: string; stored: Stored; used: Set<string>; puts: Set<string>; index: boolean; lines: number }
  >();
  return {
    root(sourceId, root) {
      const file = path.join(dir, `${sourceId}.json`);
      let stored: Stored = { format: FORMAT, root, signature, files: {} };
      let lines = 0;
      try {
        const text = fs.readFileSync(file, 'utf8');
        const nl = text.indexOf('\n');
        const s = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as Stored;
        // Another format, rules, owner or root (two roots with one id): nothing of it stands.
        if (s.format === FORMAT && s.root === root && s.signature === signature && s.files) {
          stored = s;
          if (nl >= 0) lines = applyLines(s, text.slice(nl + 1));
        }
      } catch {
        // none yet, or unreadable: an empty cache
      }
      const r = { file, stored, used: new Set<string>(), puts: new Set<string>(), index: false, lines };
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
          r.puts.add(relPath);
        },
        index(size, mtimeMs) {
          const c = r.stored.index;
          return c && c.size === size && c.mtimeMs === mtimeMs ? c.credentialLines : undefined;
        },
        putIndex(c) {
          r.stored.index = c;
          r.index = true;
        },
      };
    },
    save() {
      for (const r of roots.values()) {
        if (r.puts.size === 0 && !r.index) continue;
        try {
          fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
          if (r.stored.n !== undefined && r.lines < DELTAS_MAX && r.puts.size * 4 <= r.used.size) {
            // What a whole rewrite would change: the entries put, and those of files not looked at dropped.
            const f: Record<string, CheckedFile | null> = {};
            for (const rel of r.puts) f[rel] = r.stored.files[rel]!;
            for (const rel of Object.keys(r.stored.files)) if (!r.used.has(rel)) f[rel] = null;
            const d: Delta = { n: r.stored.n, f };
            if (r.index && r.stored.index) d.i = r.stored.index;
            const fd = fs.openSync(r.file, 'a', 0o600);
            try {
              // One write, after a newline: a line torn by a crash spoils itself alone.
              fs.writeSync(fd, `\n${JSON.stringify(d)}\n`);
            } finally {
              fs.closeSync(fd);
            }
            continue;
          }
          const files: Record<string, CheckedFile> = {};
          for (const rel of r.used) files[rel] = r.stored.files[rel]!;
          writeWhole(r.file, { ...r.stored, n: nonce(), files });
        } catch {
          // A cache that cannot be written costs the next session start the checks, nothing else.
        }
      }
    },
  };
}

/** Applies the appended lines that name the snapshot's nonce; returns how many lines there are. */
function applyLines(s: Stored, text: string): number {
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    lines++;
    let d: Delta;
    try {
      d = JSON.parse(line) as Delta;
    } catch {
      continue; // torn by a crash
    }
    // A line written beside another snapshot (replaced since its writer read it) says nothing here.
    if (s.n === undefined || d.n !== s.n || !d.f || typeof d.f !== 'object') continue;
    for (const [rel, c] of Object.entries(d.f)) {
      if (c === null) delete s.files[rel];
      else s.files[rel] = c;
    }
    if (d.i) s.index = d.i;
  }
  return lines;
}

function writeWhole(file: string, s: Stored): void {
  replaceFile(file, `${JSON.stringify(s)}\n`, { mode: 0o600 });
  sweepStaleTemps(path.dirname(file)); // a killed session start's temp files (replace-file.ts)
}
