/**
 * The one record every layout produces (docs/records.md): what the index, the CLI's
 * `--json`, the pages and the write pipeline see, whatever the store looks like on
 * disk. A layout adapter (layout-adapter.ts) reads its store into these and plans
 * its changes as file edits; it never writes. Pure types: no fs, no db.
 */

/** The layouts of docs/records.md, in the order the registry tries them. */
export const LAYOUT_NAMES = ['trust-root', 'claude-code', 'canonical', 'governed', 'consolidation'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** Tiers a record can sit in; `archived` is out of every session. */
export type RecordTier = 'verified' | 'inferred' | 'quarantined' | 'archived';

/**
 * Flags beside the tier. Each layout uses the ones its rules produce and explains each
 * in `flagReasons`: `stale` (age or commits), `suspect` (target gone), `conflict`
 * (contradicting records), `inbox` (a candidate, read-only), `pending-human` (a draft
 * waiting for a person), `write-rule` (breaks the layout's own write rules), `expired`.
 */
export const RECORD_FLAGS = [
  'stale',
  'suspect',
  'conflict',
  'inbox',
  'pending-human',
  'write-rule',
  'expired',
] as const;
export type RecordFlag = (typeof RECORD_FLAGS)[number];

/** Where an entry lives: a file relative to the root, and its 1-based inclusive line span (0 when not a text file). */
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

export interface LayoutRecord {
  /** `<source-id>:<key>`. */
  id: string;
  layout: LayoutName;
  /** The layout's identity (entry key, record id), never derived from a position. */
  key: string;
  /** The state as the store writes it (`active/supported/agent`, `needs-review`, `picked-up`). */
  native: string;
  tier: RecordTier;
  flags: RecordFlag[];
  /** Per flag, the sentence that explains it. */
  flagReasons: Partial<Record<RecordFlag, string>>;
  location: RecordLocation;
  /** Provenance as the layout states it (`user-instruction`, `agent`, a source step), or `none`. */
  origin: string;
  /** One line for tables: the claim, statement or name. */
  title: string;
  /** The text the validators inspect (secrets, injection): body, claim, statement + evidence. */
  text: string;
  /** Creation and last-verification instants as the store gives them (ISO or date), null when absent. */
  createdAt: string | null;
  verifiedAt: string | null;
  /** Actions that apply now (the layout's verbs), and why the others do not. */
  actions: string[];
  refused: Record<string, string>;
  /** Every field as stored, unknown ones included. */
  fields: RawField[];
  /** Layout-specific facts for its own views (category, shape, evidence, links, commands…); JSON-safe. */
  detail: Record<string, unknown>;
}

/** A problem that kept part of a store from being read: reported with its place, never fatal. */
export interface ReadProblem {
  file: string;
  /** 1-based; 0 when the problem is the whole file. */
  line: number;
  problem: string;
}

export interface LayoutRead {
  /** The store's shape as detected (`flat`, `sharded`, `wal`, `jsonl`…). */
  shape: string;
  records: LayoutRecord[];
  problems: ReadProblem[];
  /** Non-fatal notes about the store as a whole (a newer schema, an ignored folder…). */
  warnings: string[];
}

// ---- edits: what a plan asks the write pipeline to do ----

/** Replace `count` whole lines starting at 1-based `line` (count 0 inserts before it). */
export interface ReplaceLines {
  kind: 'replace-lines';
  file: string;
  line: number;
  count: number;
  /** Exact bytes of the replaced lines, checked before applying. */
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

export interface RecordPlan {
  edits: FileEdit[];
  /** Facts the audit event records (where a block stood, the field values before). */
  memo: Record<string, string | number>;
  /** Every file the plan reads or writes, relative to the root. */
  files: string[];
  /** One line for the plan preview and the audit event. */
  summary: string;
}

/** A refusal names why; for a read-only layout, `command` is the owning tool's own command line. */
export type RecordPlanResult = { ok: true; plan: RecordPlan } | { ok: false; reason: string; command?: string | null };
