/**
 * Canonical-file project memory (layout 3, docs/canonical-layout.md): the record it produces and the
 * edits it plans. `MemoryRecord` is the layout's own reading; the adapter (adapter.ts)
 * maps it onto the shared LayoutRecord of lib/sources/record.ts (docs/canonical-layout.md).
 */
import type {
  FileEdit,
  LayoutName,
  LayoutRecord,
  RawField,
  RecordFlag,
  RecordLocation,
  RecordPlan,
  RecordTier,
} from '../record';

/** The shared record model (lib/sources/record.ts): one place for each type. */
export type { FileEdit, LayoutName, RawField, RecordFlag, RecordLocation, RecordTier };
export type { MoveFile, RemoveFile, ReplaceLines, WriteFile } from '../record';

/** The eight categories of a canonical store; anything else in the folder is not read. */
export const CATEGORIES = [
  'landmarks',
  'libraries',
  'decisions',
  'landmines',
  'conventions',
  'pending-questions',
  'backlog',
  'constraints',
] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(name: string): name is Category {
  return (CATEGORIES as readonly string[]).includes(name);
}

/** Files in the store's folder that are never entries. */
export const NOT_ENTRIES = ['README.md', '_discard-ledger.md', '_resume.md', '_thread.md'] as const;
export const PENDING_FILE = '_pending.md';
/** Folder beside the categories that holds demoted entries (same shape as the store). */
export const QUARANTINE_DIR = 'quarantine';

export type Shape = 'flat' | 'sharded';

export interface Detected {
  /** `sharded` when any category is a folder, else `flat`. */
  shape: Shape;
  /** Shape per category found on disk (a store may mix them while it migrates). */
  categories: Partial<Record<Category, Shape>>;
}

export type CanonicalAction = 'reaffirm' | 'archive' | 'close' | 'demote' | 'restore';
export const CANONICAL_ACTIONS: readonly CanonicalAction[] = ['reaffirm', 'archive', 'close', 'demote', 'restore'];

export interface Staleness {
  stale: boolean;
  /** What the judgement rests on. */
  basis: 'commits' | 'date' | 'missing-commit' | 'exempt' | 'closed' | 'none';
  /** Always names the count or the date ("41 commits since a1b2c3d, 3 touch its target"). */
  reason: string;
  commits?: number;
  touching?: number;
  days?: number;
}

export interface TargetCheck {
  ok: boolean;
  /** Why the target does not re-verify; empty when ok. */
  problems: string[];
  /** What was checked and passed (for the detail page). */
  checked: string[];
  /** Paths skipped because the project ignores them (never suspect). */
  ignored: string[];
}

/**
 * The layout's own record (adapter.ts maps it onto LayoutRecord).
 * `fields` keeps every field as written, unknown ones included; `canonical` is the
 * layout's reading of them through the fallbacks of docs/canonical-layout.md.
 * Its id is `<source-id>:<category>/<key>` (a key is unique within its category);
 * its key is the entry key verbatim, never the filename.
 */
export interface MemoryRecord
  extends Pick<LayoutRecord, 'id' | 'key' | 'native' | 'tier' | 'flags' | 'flagReasons' | 'location' | 'fields'> {
  layout: 'canonical';
  /** Provenance: the `source` value (`user-instruction`, `inferred-from-code`, …) or `none`. */
  origin: string;
  /** Actions that apply now, and why the others do not. */
  actions: CanonicalAction[];
  refused: Partial<Record<CanonicalAction, string>>;
  canonical: CanonicalView;
  shape: Shape;
  category: Category | 'pending';
  /** Where the entry lives now. */
  place: 'store' | 'quarantine' | 'inbox';
  staleness?: Staleness;
  targetCheck?: TargetCheck;
  /** The entry as written (its file, or its block's lines): what the validators inspect. */
  text: string;
}

export interface CanonicalView {
  key: string;
  claim: string | null;
  /** `target` | `governs` | the key when it is `path:line`. */
  target: string | null;
  targetFrom: 'target' | 'governs' | 'key' | null;
  added: string | null;
  /** The verified marker and which field it came from. */
  verified: string | null;
  verifiedFrom: 'verified-at' | 'verified' | 'last-touched' | null;
  /** A git SHA when `verified-at` holds one. */
  verifiedSha: string | null;
  /** A date usable for age: `verified` or `last-touched`. */
  verifiedDate: string | null;
  status: string | null;
  /** How the entry was closed (field or heading), null when open. */
  closed: string | null;
  restsOn: string[];
}

/** A problem that kept one entry from being read. Reported, never fatal. */
export interface ReadFailure {
  file: string;
  line: number;
  problem: string;
}

export interface ReadResult {
  detected: Detected;
  records: MemoryRecord[];
  failures: ReadFailure[];
  /** Files or folders seen and deliberately not read (unknown categories, …). */
  ignored: string[];
  /** The checkout that targets were checked against, null when none was found. */
  checkout: string | null;
  /** Short SHA of HEAD, null outside git. */
  head: string | null;
  timings: { parseMs: number; gitMs: number; verifyMs: number; recordsMs: number };
}

// ---- edits: the shared FileEdit and RecordPlan of lib/sources/record.ts ----

export type Plan = RecordPlan;

/** Canonical plans never name an owner's command: a refusal is a reason only. */
export type PlanResult = { ok: true; plan: Plan } | { ok: false; reason: string };
