/**
 * Where a write lands (docs/hooks.md "Which writes are guarded"): the target's real
 * path — `..` resolved, every symlink in the directories followed — compared with
 * the real path of each configured root. Reads the disk (lstat, realpath); never writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../core/paths';
import { detectLayout } from '../sources/detect';
import type { SourceKind } from '../sources/types';

export type TargetPlace =
  /** A memory file (memories/ of a trust-model root; the folder itself for Claude Code's layout). */
  | 'memory'
  /** The index Claude Code loads (MEMORY.md, any folder of the root). */
  | 'index'
  | 'quarantine'
  | 'archive'
  /** A Markdown file elsewhere in the root (a sub-folder, the root of a trust-model root). */
  | 'other';

export type Target =
  | { kind: 'outside' }
  | { kind: 'not-markdown' }
  | {
      kind: 'inside';
      root: string;
      realRoot: string;
      /** Real path of the file (or of where it will be created). */
      real: string;
      /** Relative to the real root, `/` separated. */
      relPath: string;
      filename: string;
      place: TargetPlace;
      /** The root's layout: its memories are validated by its rules (docs/validators.md "Rules by layout"). */
      layout: SourceKind;
      /** The path given, or the file it names, is a symlink (docs/security.md: refused). */
      symlink: boolean;
      /** The extension is `.md` in another case (`.MD`, `.Md`). */
      oddCase: boolean;
      exists: boolean;
    };

/** realpath of the nearest existing ancestor, with the missing tail appended. */
function realOrAncestor(p: string): string {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = fs.realpathSync(cur);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function placeOf(kind: SourceKind, relPath: string): TargetPlace {
  const parts = relPath.split('/');
  const name = parts[parts.length - 1]!;
  if (name === 'MEMORY.md') return 'index';
  const top = parts[0]!;
  if (parts.length > 1 && top === 'quarantine') return 'quarantine';
  if (parts.length > 1 && top === 'archive') return 'archive';
  if (kind === 'trust-root') return parts.length === 2 && top === 'memories' ? 'memory' : 'other';
  return parts.length === 1 ? 'memory' : 'other';
}

/**
 * `filePath` as the tool gives it (absolute per Claude Code; a relative one is taken
 * against the hook's `cwd`). `roots` as configured (absolute).
 */
export function locateTarget(filePath: string, cwd: string | undefined, roots: readonly string[]): Target {
  const given = path.resolve(cwd && path.isAbsolute(cwd) ? cwd : process.cwd(), filePath);
  if (!/\.md$/i.test(given)) {
    // A symlink named x.txt that points at a memory is still a write into the root.
    const st = lstat(given);
    if (!st?.isSymbolicLink() || !/\.md$/i.test(realOrAncestor(given))) return { kind: 'not-markdown' };
  }
  const st = lstat(given);
  const symlink = !!st?.isSymbolicLink();
  // The real place: for a symlink, where it points (dangling links resolved by hand).
  let real = realOrAncestor(given);
  if (symlink && real === given) {
    try {
      real = realOrAncestor(path.resolve(path.dirname(given), fs.readlinkSync(given)));
    } catch {
      // unreadable link: keep the lexical path
    }
  }
  const lexicalParent = realOrAncestor(path.dirname(given));
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(root);
    } catch {
      continue; // a missing root guards nothing
    }
    const viaLink = path.join(lexicalParent, path.basename(given));
    const inside = isInside(realRoot, real) || (symlink && isInside(realRoot, viaLink));
    if (!inside || real === realRoot) continue;
    const abs = isInside(realRoot, real) ? real : viaLink;
    const relPath = path.relative(realRoot, abs).split(path.sep).join('/');
    const filename = path.basename(abs);
    const realSt = lstat(abs);
    // A root of neither file layout is guarded by the trust-model root's places (as describeSource falls back).
    const d = detectLayout(realRoot);
    const layout: SourceKind = d.ok ? d.layout : 'trust-root';
    return {
      kind: 'inside',
      root,
      realRoot,
      real: abs,
      relPath,
      filename,
      place: placeOf(layout, relPath.replace(/\.md$/i, '.md')),
      layout,
      symlink: symlink || !!realSt?.isSymbolicLink(),
      oddCase: !filename.endsWith('.md'),
      exists: !!realSt || !!st,
    };
  }
  return { kind: 'outside' };
}
