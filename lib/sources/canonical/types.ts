/**
 * Canonical-file project memory (layout 3, seed 001): the record it produces and the
 * edits it plans. `MemoryRecord` is written as a proposal for the general record model
 * (one shape for every layout); the fields are described in docs/canonical-layout.md.
 */

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

/** Layout names of CONTRACT §9. */
export type LayoutName = 'trust-root' | 'claude-code' | 'canonical' | 'governed' | 'consolidation';

export type RecordTier = 'verified' | 'inferred' | 'quarantined' | 'archived';
export type RecordFlag = 'stale' | 'suspect' | 'conflict' | 'inbox';

/** Where an entry lives: a file relative to the store, and its 1-based inclusive line span. */
export interface RecordLocation {
  file: string;
  line: number;
  endLine: number;
}

/** One field as written: its name (original case), raw value (verbatim) and file line. */
export interface RawField {
  name: string;
  value: string;
  line: number;
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
 * The record every layout produces (proposal for the general model, CONTRACT §9).
 * `fields` keeps every field as written, unknown ones included; `canonical` is the
 * layout's reading of them through the fallbacks of docs/canonical-layout.md.
 */
export interface MemoryRecord {
  /** `<source-id>:<category>/<key>` (a key is unique within its category). */
  id: string;
  layout: 'canonical';
  /** The layout's identity: the entry key verbatim, never the filename. */
  key: string;
  /** The state as the store writes it: `open`, `picked-up`, `closed 2026-05-16`, `candidate`… */
  native: string;
  tier: RecordTier;
  flags: RecordFlag[];
  /** Per flag, the sentence that explains it. */
  flagReasons: Partial<Record<RecordFlag, string>>;
  location: RecordLocation;
  /** Provenance: the `source` value (`user-instruction`, `inferred-from-code`, …) or `none`. */
  origin: string;
  /** Actions that apply now, and why the others do not. */
  actions: CanonicalAction[];
  refused: Partial<Record<CanonicalAction, string>>;
  fields: RawField[];
  canonical: CanonicalView;
  shape: Shape;
  category: Category | 'pending';
  /** Where the entry lives now. */
  place: 'store' | 'quarantine' | 'inbox';
  staleness?: Staleness;
  targetCheck?: TargetCheck;
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

// ---- edits (proposal for the one write pipeline) ----

/** Replace `count` whole lines starting at 1-based `line` (count 0 inserts before it). */
export interface ReplaceLines {
  kind: 'replace-lines';
  file: string;
  line: number;
  count: number;
  /** Exact bytes of the replaced lines, checked before applying (latin1-safe: Buffer). */
  expect: Buffer;
  bytes: Buffer;
}
export interface WriteFile {
  kind: 'write';
  file: string;
  /** null: the file must not exist yet. */
  expect: Buffer | null;
  bytes: Buffer;
}
export interface MoveFile {
  kind: 'move';
  from: string;
  to: string;
}
export interface RemoveFile {
  kind: 'remove';
  file: string;
  expect: Buffer;
}
export type FileEdit = ReplaceLines | WriteFile | MoveFile | RemoveFile;

export interface Plan {
  edits: FileEdit[];
  /** Facts the audit event records (e.g. where a flat block stood before demotion). */
  memo: Record<string, string | number>;
  /** The files the plan reads or writes (for the journal and the lock). */
  files: string[];
  summary: string;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; reason: string };
