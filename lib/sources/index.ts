/** Detects the layout of each configured root and names it with a stable source id. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { claudeCodeAdapter, INDEX_FILE } from './claude-code';
import { trustRootAdapter } from './trust-root';
import type { SourceAdapter, SourceInfo } from './types';

export type { SourceInfo, SourceAdapter, ListedFile, SourceKind } from './types';

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A trust-model root has memories/; a folder with MEMORY.md or loose *.md is Claude Code's,
 * even once it has a quarantine/ of its own (made by our first demotion there); a folder
 * with only quarantine/ is a trust-model root.
 */
export function detectAdapter(root: string): SourceAdapter {
  if (isDir(path.join(root, 'memories'))) return trustRootAdapter;
  try {
    const names = fs.readdirSync(root);
    if (names.includes(INDEX_FILE) || names.some((n) => n.endsWith('.md'))) return claudeCodeAdapter;
  } catch {
    // unreadable: reported by describeSource
  }
  return trustRootAdapter;
}

/** Short, stable, URL-safe: folder name plus a hash of the absolute path. */
export function sourceId(root: string): string {
  const base = path.basename(root).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'root';
  const hash = crypto.createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 6);
  return `${base}-${hash}`;
}

export function describeSource(root: string): SourceInfo {
  let error: string | null = null;
  try {
    const st = fs.statSync(root);
    if (!st.isDirectory()) error = 'not a directory';
    else fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    error = code === 'ENOENT' ? 'root not found' : `root unreadable (${code ?? 'error'})`;
  }
  const adapter = detectAdapter(root);
  return { id: sourceId(root), root, kind: adapter.kind, label: adapter.label, adapter, error };
}
