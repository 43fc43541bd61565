/**
 * The adapter interface every memory layout implements (docs/layouts.md). An adapter
 * reads; it never writes. The service asks it where things live and what it supports.
 */
import type { Location } from '../trust/tiers';
import type { MemoryAction } from '../trust/tiers';
import type { LayoutAdapter } from './layout-adapter';
import type { ValidationRules } from '../validators/validation-rules';
import type { ProjectRef } from './claude-home';

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

export interface SourceAdapter {
  kind: SourceKind;
  label: string;
  /** Every memory file of the root (readdir + lstat only). */
  list(root: string): ListedFile[];
  /** Directory (relative to the root) holding a location; archive needs the month. */
  dirOf(location: Location, month?: string): string;
  supports: readonly MemoryAction[];
  /** For index-file layouts: the index file name (MEMORY.md). */
  indexFile?: string;
}

export interface SourceInfo {
  id: string;
  root: string;
  kind: SourceKind;
  label: string;
  adapter: SourceAdapter;
  /** Why the root cannot be read (missing, unreadable, refused layout), else null. */
  error: string | null;
  /** The detected layout (docs/records.md): a read one, or the store memtrust refuses (docs/roots.md). */
  layout?: string;
  shape?: string;
  /** A store memtrust does not read: the one line naming what was found and the layouts supported. */
  refused?: string;
  /**
   * Set when the root holds a layout read as records (docs/records.md): the adapter
   * that reads and plans it. Such a source is never listed by the file-per-memory
   * paths (`adapter` above is unused for it); the service keeps it in `recordSources`.
   */
  records?: LayoutAdapter;
  /**
   * The project the root belongs to (CONTRACT §9 `project`; lib/sources/claude-home.ts): its
   * path and whether it exists; null for a user-level root (every session's).
   */
  project: ProjectRef | null;
}
