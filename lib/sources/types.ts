/**
 * A configured root as the service sees it (docs/layouts.md): its id, its layout's adapter
 * (lib/sources/layout-adapter.ts, the one interface every layout implements) and why it
 * cannot be read, if so. Also the listed file of the file-per-memory layouts.
 */
import type { Location } from '../trust/tiers';
import type { FileLayoutAdapter, LayoutAdapter } from './layout-adapter';
import type { ValidationRules } from '../validators/validation-rules';
import type { ProjectRef } from './claude-home';

/** The file-per-memory layouts (their adapters have `files`). */
export type SourceKind = 'trust-root' | 'claude-code';

export interface ListedFile {
  /** Path relative to the root, with `/` separators. */
  relPath: string;
  filename: string;
  location: Location;
  size: number;
  mtimeMs: number;
  /** A symlink or other non-regular file: listed so it can be reported, never read. */
  refused?: string;
  /**
   * Read the bytes from this path (relative to the root) instead of `relPath`: a memory
   * moved aside by a transition in flight is shown where it was (docs/crash-safety.md).
   */
  readFrom?: string;
  /** The layout's validation rules (validators/validation-rules.ts); the reference's when absent. */
  rules?: ValidationRules;
}

export interface SourceInfo {
  id: string;
  root: string;
  /** The file layout of the root; a record root's is `trust-root` and unused (its `layout` names it). */
  kind: SourceKind;
  label: string;
  /** The root's layout: read as files when `adapter.files` is set, else as records (docs/records.md). */
  adapter: LayoutAdapter;
  /** Why the root cannot be read (missing, unreadable, refused layout), else null. */
  error: string | null;
  /** The detected layout (docs/records.md): a read one, or the store memtrust refuses (docs/roots.md). */
  layout?: string;
  shape?: string;
  /** A store memtrust does not read: the one line naming what was found and the layouts supported. */
  refused?: string;
  /**
   * The project the root belongs to (CONTRACT §9 `project`; lib/sources/claude-home.ts): its
   * path and whether it exists; null for a user-level root (every session's).
   */
  project: ProjectRef | null;
}

/** A root read file by file: its adapter has `files` (the scan, the transitions, the `memories` table). */
export interface FileSourceInfo extends SourceInfo {
  adapter: FileLayoutAdapter;
}

export function isFileSource(s: SourceInfo): s is FileSourceInfo {
  return s.adapter.files !== undefined;
}
