/**
 * Consolidation records (layout 5, docs/layouts.md): the vocabulary of the `*.memory.jsonl`
 * format memtrust defines (docs/consolidation-layout.md). Pure constants and types.
 */

export const FILE_SUFFIX = '.memory.jsonl';

export const RECORD_TYPES = ['episodic', 'semantic', 'procedural', 'working'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** The seed's retention table: days from `createdAt` when no `expiresAt` is written. */
export const TTL_DAYS: Record<RecordType, number> = { episodic: 14, semantic: 180, procedural: 365, working: 0 };

export const STATUSES = ['active', 'needs-review', 'expired'] as const;
export type Status = (typeof STATUSES)[number];

export const CONFIDENCES = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const SENSITIVITIES = ['public', 'internal', 'secret'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

/** The verbs, in the order the pages offer them. */
export const CONSOLIDATION_ACTIONS = ['promote', 'reaffirm', 'demote', 'restore', 'archive'] as const;
export type ConsolidationAction = (typeof CONSOLIDATION_ACTIONS)[number];

/** Promotion waits this long after `createdAt` (the trust model's observation period). */
export const OBSERVATION_DAYS = 7;

/** Read problems kept per file; the rest are counted in one closing problem. */
export const MAX_PROBLEMS_PER_FILE = 1000;

/** The seed's write rules a stored record can break (docs/layouts.md). */
export type WriteRule = 'no-evidence' | 'no-source-step' | 'secret' | 'working';

export const WRITE_RULE_TEXT: Record<WriteRule, string> = {
  'no-evidence': 'no evidence (every persisted item needs an evidence snippet)',
  'no-source-step': 'no sourceStep (every persisted item needs its source step)',
  secret: 'sensitivity secret (secrets are never persisted)',
  working: 'type working (working memory is never persisted; TTL 0 days)',
};

/** One record line, decoded: every known key read with its type checked. */
export interface Evaluated {
  id: string;
  type: string | null;
  statement: string | null;
  evidence: string[];
  confidence: string | null;
  sensitivity: string | null;
  sourceStep: string | null;
  createdAt: string | null;
  created: Date | null;
  expiresAt: string | null;
  /** Effective expiry: `expiresAt`, else `createdAt` + TTL; null when neither can be computed. */
  expiry: Date | null;
  expiryBasis: 'expiresAt' | 'ttl' | null;
  /** `expiry` as `YYYY-MM-DDTHH:MM:SSZ`, computed once. */
  expiryIso: string | null;
  status: string | null;
  verifiedAt: string | null;
  reviewNote: string | null;
  conflictsWith: string[];
  conflictNote: string | null;
  broken: WriteRule[];
  /** Fields with the wrong type or value, one sentence each (reported as read problems). */
  problems: string[];
}
