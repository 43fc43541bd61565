/**
 * Governed records (layout 4, docs/governed-layout.md): codeclone's engineering memory, read-only.
 * The shared types come from lib/sources/record.ts; `GovernedRecord` is the layout's
 * own reading, mapped onto LayoutRecord by adapter.ts (docs/governed-layout.md).
 */
import type { RawField, RecordFlag, RecordLocation, RecordTier } from '../record';

export type { RawField, RecordFlag, RecordLocation, RecordTier };

/** Where codeclone keeps the store, relative to the project root. */
export const STORE_REL = '.codeclone/memory/engineering_memory.sqlite3';
export const STORE_FILE = 'engineering_memory.sqlite3';

/** The newest `memory_meta.schema_version` this adapter was tested against. */
export const TESTED_SCHEMA = '1.7';

/** The enumerations of the published schema (codeclone/memory/enums.py). */
export const STATUSES = ['draft', 'active', 'historical', 'stale', 'superseded', 'rejected', 'archived'] as const;
export const CONFIDENCES = ['inferred', 'supported', 'verified'] as const;
export const ORIGINS = ['system', 'agent', 'human'] as const;
export const EVIDENCE_KINDS = [
  'code',
  'test',
  'doc',
  'spec',
  'receipt',
  'git_commit',
  'report',
  'baseline',
  'cache',
  'audit_event',
  'trajectory',
  'external_url',
] as const;
export const LINK_RELATIONS = [
  'supersedes',
  'depends_on',
  'contradicts',
  'explains',
  'implements',
  'tests',
  'documents',
  'deprecates',
  'related_to',
  'implicit_coupling',
] as const;
export type GovernedStatus = (typeof STATUSES)[number];
export type GovernedConfidence = (typeof CONFIDENCES)[number];
export type GovernedOrigin = (typeof ORIGINS)[number];

/** The shared flags (`pending-human`: a draft waiting for a human) of lib/sources/record.ts. */
export type GovernedFlag = RecordFlag;

/** codeclone's own governance commands, and the memtrust verbs that map onto them. */
export type CodecloneCommand = 'approve' | 'reject' | 'archive';
export type GovernedAction = CodecloneCommand | 'promote' | 'demote';
export const GOVERNED_ACTIONS: readonly GovernedAction[] = ['approve', 'reject', 'archive', 'promote', 'demote'];

/** A location in a store that is not a text file: line 0, plus the table and rowid. */
export interface GovernedLocation extends RecordLocation {
  table: 'memory_records';
  rowid: number;
}

export interface Evidence {
  id: string;
  kind: string;
  ref: string;
  locator: string | null;
  quote: string | null;
  digest: string | null;
  createdAt: string;
}

export interface Link {
  id: string;
  relation: string;
  /** `out`: this record is `from_memory_id`; `in`: it is `to_memory_id`. */
  direction: 'out' | 'in';
  /** The record at the other end. */
  other: string;
  /** False when the other end is not in the store (a dangling link). */
  otherExists: boolean;
  createdBy: string;
  createdAt: string;
}

export interface Subject {
  kind: string;
  key: string;
  relation: string;
}

/** The layout's reading of one `memory_records` row. */
export interface GovernedView {
  /** The project root codeclone's `--root` names. */
  projectRoot: string;
  projectId: string;
  identityKey: string;
  type: string;
  status: string;
  confidence: string;
  origin: string;
  ingestSource: string;
  statement: string;
  summary: string | null;
  createdAt: string;
  updatedAt: string;
  lastVerifiedAt: string | null;
  expiresAt: string | null;
  createdBy: string;
  verifiedBy: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  staleReason: string | null;
  evidence: Evidence[];
  links: Link[];
  subjects: Subject[];
  /** Records this one supersedes (direct). */
  supersedes: string[];
  /** Records that supersede this one (direct). */
  supersededBy: string[];
  /** From this record to the newest one along `supersedes` links (this one first). */
  chain: string[];
  /** The end of the chain when it is not this record, else null. */
  current: string | null;
  /** Records joined to this one by a `contradicts` link (either direction). */
  conflictsWith: string[];
}

export interface GovernedRecord {
  /** `<source-id>:<record id>`. */
  id: string;
  layout: 'governed';
  /** codeclone's record id (`mem-<hex>`). */
  key: string;
  /** `status/confidence/origin` as stored, e.g. `active/supported/agent`. */
  native: string;
  tier: RecordTier;
  flags: GovernedFlag[];
  flagReasons: Partial<Record<GovernedFlag, string>>;
  location: GovernedLocation;
  /** codeclone's `origin` (system / agent / human). */
  origin: string;
  /** Actions that apply now; each is a codeclone command line for the user to run. */
  actions: GovernedAction[];
  refused: Partial<Record<GovernedAction, string>>;
  /** The exact command line per allowed action. */
  commands: Partial<Record<GovernedAction, string>>;
  /** Every column of the row as stored (line 0: not a text file). */
  fields: RawField[];
  governed: GovernedView;
}

export interface Detected {
  /** Absolute path of the store file. */
  store: string;
  /** The project root (the folder holding `.codeclone/`). */
  project: string;
  /** Companion files present next to the store. */
  wal: boolean;
  shm: boolean;
}

export type GovernedErrorCode =
  | 'not-found'
  | 'locked'
  | 'corrupt'
  | 'schema-unsupported'
  | 'missing-table'
  | 'unreadable';

/** A store that cannot be read: one line naming the file and the problem. */
export interface GovernedError {
  ok: false;
  code: GovernedErrorCode;
  file: string;
  message: string;
}

export interface ReadTimings {
  /** Reading the store and -wal into memory and folding the log in. */
  snapshotMs: number;
  queryMs: number;
  mapMs: number;
}

export interface GovernedReadResult {
  ok: true;
  detected: Detected;
  schemaVersion: string;
  /** Non-fatal notes (e.g. a schema newer than the one tested). */
  warnings: string[];
  records: GovernedRecord[];
  /** Stat of the store and its -wal when read; compare with `changeToken()` to refresh. */
  token: string;
  timings: ReadTimings;
}

export type GovernedRead = GovernedReadResult | GovernedError;
