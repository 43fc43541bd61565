/**
 * What a layout is, in one place (docs/records.md): an adapter detects its store,
 * reads it into LayoutRecords, says what each record allows, and plans a change as
 * file edits. It never writes; the service applies plans through the one write
 * pipeline (lock, journal, apply, audit, index). Adding a layout is a folder under
 * lib/sources/<layout>/ exporting one of these plus a line in registry.ts.
 */
import type { LayoutName, LayoutRead, LayoutRecord, RecordPlanResult } from './record';
import type { Location, MemoryAction } from '../trust/tiers';
import type { OwnerIdentity } from '../validators/types';
import type { ListedFile } from './types';

export interface DetectedStore {
  /** `flat` / `sharded` / `jsonl` / `sqlite`… shown in `roots --json` and the tables. */
  shape: string;
}

export interface ReadContext {
  /** The service's source id: record ids are `<sourceId>:<key>`. */
  sourceId: string;
  /** The injectable clock (MEMTRUST_NOW): ages, TTLs and staleness use it. */
  now: Date;
  /**
   * The owner identity the validators use (ctx.owner()): a file layout's read runs the
   * scan's checks with it, so its records carry the index's verdicts. Absent: no owner.
   */
  owner?: OwnerIdentity;
}

/**
 * One memory per Markdown file (the trust-model root, the Claude Code folder; docs/records.md,
 * "File layouts"): what the scan and the file write pipeline (lib/service/write,
 * lib/service/batches) ask of the layout, beside `read`.
 */
export interface FileLayout {
  /** Every memory file of the root (readdir + lstat only). */
  list(root: string): ListedFile[];
  /** Directory (relative to the root) holding a location; archive needs the month. */
  dirOf(location: Location, month?: string): string;
  supports: readonly MemoryAction[];
  /** For index-file layouts: the index file name (MEMORY.md). */
  indexFile?: string;
}

export interface PlanContext {
  now: Date;
  /** Current bytes of a file relative to the root, null when absent (the plan's `expect`s come from here). */
  read: (file: string) => Buffer | null;
  /** Why (demote, resolve): one line, recorded in the store where the layout keeps one, and in the audit. */
  reason?: string;
  /** Layout-specific inputs the action needs (a canonical restore's remembered position, a close status). */
  options?: Record<string, unknown>;
}

export interface LayoutAdapter {
  layout: LayoutName;
  /** Human name for pages and refusals ("consolidation records"). */
  label: string;
  /** The store's shape when `dir` holds this layout, else null. Reads names and a few bytes only. */
  detect(dir: string): DetectedStore | null;
  /** Every record of the store; never throws on bad content (a problem per bad line or file). */
  read(root: string, ctx: ReadContext): LayoutRead;
  /**
   * A cheap token (stat data of the files read) that changes whenever `read` would
   * return something else: the index re-reads the store only when it moves.
   */
  changeToken(root: string): string;
  /** Every verb the layout knows, in the order the pages offer them. */
  actions: readonly string[];
  /** Set when memtrust never writes this layout: the reason shown beside every refused action. */
  readOnly?: string;
  /** The edits that perform `action` on `record`, or a refusal naming why (and, read-only, the owner's command). */
  plan(record: LayoutRecord, action: string, ctx: PlanContext): RecordPlanResult;
  /**
   * Set for a file-per-memory layout: its memories are indexed by the scan (rows of kind
   * 'file' in `entries`) and changed by the file transitions, not by `plan`. Absent: the store
   * is read as records (rows of kind 'record' in the same table; docs/records.md "The index").
   * The one test of which path a source takes.
   */
  files?: FileLayout;
}

/** An adapter of a file-per-memory layout. */
export type FileLayoutAdapter = LayoutAdapter & { files: FileLayout };

export function isFileLayout(adapter: LayoutAdapter): adapter is FileLayoutAdapter {
  return adapter.files !== undefined;
}

/**
 * The layout's capabilities, as a precondition beside the trust rules (docs/records.md,
 * "File layouts"): the sentence refusing `action` when the layout does not support it,
 * else null.
 */
export function unsupportedAction(adapter: FileLayoutAdapter, action: MemoryAction): string | null {
  const { supports } = adapter.files;
  if (supports.includes(action)) return null;
  return `${action} is not supported by the ${adapter.label} layout (it supports: ${supports.join(', ') || 'nothing'})`;
}
