/** Detects the layout of each configured root and names it with a stable source id. */
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../core/hash';
import { detectLayout, refusalLine } from './detect';
import { projectOfRoot } from './claude-home';
import { detectLayoutAdapter, layoutAdapter } from './registry';
import type { FileLayoutAdapter } from './layout-adapter';
import { isFileSource, type FileSourceInfo, type SourceInfo, type SourceKind } from './types';
import type { Env } from '../core/env';

export type { SourceInfo, FileSourceInfo, ListedFile, SourceKind } from './types';
export { isFileSource } from './types';
export { isFileLayout, unsupportedAction, type FileLayout, type FileLayoutAdapter } from './layout-adapter';
export { detectLayout, refusalLine, SUPPORTED_LAYOUTS, type Detection } from './detect';

/** Short, stable, URL-safe: folder name plus a hash of the absolute path. */
export function sourceId(root: string): string {
  const base =
    path
      .basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 24) || 'root';
  // lib/core/hash.ts: without node:crypto, whose loading is about 7 ms of a hook's start.
  const hash = sha256Hex(path.resolve(root)).slice(0, 6);
  return `${base}-${hash}`;
}

/**
 * The root's project, worked out when first asked for: decoding a Claude Code folder's name
 * may read the head of its transcripts (lib/sources/claude-home.ts), which the SessionStart
 * hook, already scoped to its project, never needs (docs/performance.md, "A home of 200 projects").
 */
function withProject(info: Omit<SourceInfo, 'project'>, root: string, env: Env): SourceInfo {
  let project: SourceInfo['project'] | undefined;
  return Object.defineProperty(info, 'project', {
    get: () => {
      if (project === undefined) project = projectOfRoot(root, env);
      return project;
    },
    enumerable: true,
  }) as SourceInfo;
}

/** `env`: where the Claude Code home is, for the root's project (lib/sources/claude-home.ts). */
export function describeSource(root: string, env: Env = process.env): SourceInfo {
  let error: string | null = null;
  try {
    const st = fs.statSync(root);
    if (st.isDirectory()) fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    error = code === 'ENOENT' ? 'root not found' : `root unreadable (${code ?? 'error'})`;
  }
  const d = detectLayout(root);
  // A file layout detect.ts names, else the trust-model root's: never used for a record or
  // refused root (the first is read through its own adapter, the second carries its refusal).
  const file = layoutAdapter(d.ok ? d.layout : 'trust-root') as FileLayoutAdapter;
  const base = {
    id: sourceId(root),
    root,
    kind: file.layout as SourceKind,
    label: file.label,
    adapter: file,
    layout: d.layout,
    shape: d.shape,
  };
  const out = (info: Omit<SourceInfo, 'project'>): SourceInfo => withProject(info, root, env);
  if (!d.ok) {
    // A layout read as records: its adapter confirms the store before it is taken.
    const named = layoutAdapter(d.layout);
    const shape = named?.detect(root)?.shape;
    if (named && shape) return out({ ...base, label: named.label, shape, adapter: named, error });
    // A layout detect.ts does not name: the registered adapters' own detect decides (docs/records.md).
    const other = named ? null : detectLayoutAdapter(root);
    if (other)
      return out({
        ...base,
        layout: other.adapter.layout,
        label: other.adapter.label,
        shape: other.shape,
        adapter: other.adapter,
        error,
      });
    const refused = refusalLine(root, d);
    return out({ ...base, label: d.found, error: refused, refused });
  }
  return out({ ...base, error });
}

/**
 * Every root described, split by the one test of how it is read (docs/records.md): roots
 * whose adapter has `files` (the scan, the file transitions) and roots read as records.
 */
export function describeSources(
  roots: readonly string[],
  env: Env = process.env,
): { sources: FileSourceInfo[]; recordSources: SourceInfo[] } {
  return splitSources(roots.map((r) => describeSource(r, env)));
}

/** The roots read as files and those read as records: one test, `isFileSource`. */
export function splitSources(all: readonly SourceInfo[]): { sources: FileSourceInfo[]; recordSources: SourceInfo[] } {
  return { sources: all.filter(isFileSource), recordSources: all.filter((s) => !isFileSource(s)) };
}
