/** Detects the layout of each configured root and names it with a stable source id. */
import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../core/hash';
import { claudeCodeAdapter } from './claude-code';
import { trustRootAdapter } from './trust-root';
import { detectLayout, refusalLine } from './detect';
import { projectOfRoot } from './claude-home';
import { detectRecordLayout, recordAdapter } from './registry';
import type { SourceAdapter, SourceInfo } from './types';
import type { MemoryAction } from '../trust/tiers';
import type { Env } from '../core/env';

export type { SourceInfo, SourceAdapter, ListedFile, SourceKind } from './types';
export { detectLayout, refusalLine, SUPPORTED_LAYOUTS, type Detection } from './detect';

/**
 * A trust-model root has memories/; a folder with MEMORY.md or *.md memories is Claude
 * Code's, even once it has a quarantine/ of its own (made by our first demotion there); a
 * folder with only quarantine/ is a trust-model root. Other stores are refused by
 * detectLayout (docs/roots.md); for them this falls back to the trust-model adapter, which
 * is never used because the source carries the refusal as its error.
 */
export function detectAdapter(root: string): SourceAdapter {
  const d = detectLayout(root);
  return d.ok && d.layout === 'claude-code' ? claudeCodeAdapter : trustRootAdapter;
}

/**
 * The adapter's capabilities, as a precondition beside the trust rules (docs/records.md,
 * "File layouts"): the sentence refusing `action` when the layout does not support it,
 * else null.
 */
export function unsupportedAction(adapter: SourceAdapter, action: MemoryAction): string | null {
  if (adapter.supports.includes(action)) return null;
  return `${action} is not supported by the ${adapter.label} layout (it supports: ${adapter.supports.join(', ') || 'nothing'})`;
}

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
  const adapter = d.ok && d.layout === 'claude-code' ? claudeCodeAdapter : trustRootAdapter;
  const base = {
    id: sourceId(root),
    root,
    kind: adapter.kind,
    label: adapter.label,
    adapter,
    layout: d.layout,
    shape: d.shape,
  };
  const out = (info: Omit<SourceInfo, 'project'>): SourceInfo => withProject(info, root, env);
  if (!d.ok) {
    // A layout read as records: its adapter confirms the store before it is taken.
    const records = recordAdapter(d.layout);
    const shape = records?.detect(root)?.shape;
    if (records && shape) return out({ ...base, label: records.label, shape, records, error });
    // A layout detect.ts does not name: the registered adapters' own detect decides (docs/records.md).
    const other = records ? null : detectRecordLayout(root);
    if (other)
      return out({
        ...base,
        layout: other.adapter.layout,
        label: other.adapter.label,
        shape: other.shape,
        records: other.adapter,
        error,
      });
    const refused = refusalLine(root, d);
    return out({ ...base, label: d.found, error: refused, refused });
  }
  return out({ ...base, error });
}
