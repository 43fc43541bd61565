/** The shapes of a session-context plan (docs/session-context.md). */
import type { MemoryFacts } from './facts';
import type { IndexView } from './index-limits';
import type { EffectiveTier } from './tiers';

export type ContextLayout = 'trust-root' | 'claude-code';

/**
 * A body the planner reads only when it quotes or measures it (docs/session-context.md,
 * "Reading the folders fast"): at 100,000 memories the budget holds a few dozen.
 * `trimmedLength` must equal `read().trim().length` (the packing's lower bound needs it).
 */
export interface LazyBody {
  trimmedLength: number;
  read(): string;
}

export interface ContextMemory {
  /** `<source-id>:<filename>`. */
  id: string;
  filename: string;
  /** Frontmatter name (one line is made of it). */
  name: string;
  /** Body text, or a body read on first use; only trust-model roots need it. */
  body: string | LazyBody;
  facts: MemoryFacts;
  /** File lines of credential findings (empty: none). */
  credentialLines: number[];
  /** The injection check flagged it (advisory). */
  injection: boolean;
  /** Could not be read (too large, unreadable, refused): never loaded, reported. */
  problem?: string;
  /**
   * Flagged untrusted-origin and not yet promoted with the origin shown (docs/origin.md):
   * what its writing turn read, in one line. Never loaded as verified.
   */
  untrustedOrigin?: string;
  /**
   * `originSessionId` and `origin-reviewed` as its file (or fresh row, or kept checks) says:
   * the origin flags take them from here instead of reading the file again. Set by the service.
   */
  origin?: { session?: string; reviewed?: string };
}

export interface ContextRootInput {
  id: string;
  /** Absolute path. */
  root: string;
  /** How the path is shown in the text (e.g. with `~`). */
  display: string;
  layout: ContextLayout;
  /** The root could not be read at all. */
  error?: string | null;
  memories: ContextMemory[];
  /** Claude Code layout: MEMORY.md as read (null when absent) and its credential lines. */
  index?: { text: string | null; credentialLines: number[] };
}

export interface ContextProblem {
  /** A path or id the user recognises. */
  path: string;
  message: string;
}

export interface ContextInput {
  roots: ContextRootInput[];
  now: Date;
  budget: number;
  /** Problems outside any root (settings, configuration). */
  problems?: ContextProblem[];
  /**
   * Block lengths measured by earlier plans, kept by a caller that hands the same memory
   * objects to the next plan while their files are unchanged (the dashboard, docs/session-context.md
   * "Between changes"). A length is taken from here instead of reading and quoting the body
   * again; which blocks a plan "measured" (the X-ray's note) is decided as without it.
   */
  lengths?: BlockLengths;
}

/**
 * A memory's block length by (tier, stale): index 0 verified, 1 stale verified, 2 inferred.
 * Keyed by the memory object: a caller must make a new object when the file changes.
 */
export type BlockLengths = WeakMap<ContextMemory, number[]>;

/** Where a memory stands in what a session gets (the X-ray's state column). */
export type RowState =
  | 'loaded' // its body is in the text (trust root) / its index line is loaded (Claude Code)
  | 'over-budget'
  | 'cut' // its MEMORY.md line falls past the 200-line / 25,000-byte cut
  | 'not-indexed' // MEMORY.md does not name it
  | 'withheld' // credential finding: never quoted
  | 'quarantined'
  | 'archived'
  | 'conflict'
  | 'unreadable';

export type RowFlag = 'stale' | 'due' | 'credential' | 'injection' | 'still-indexed' | 'untrusted-origin';

/** The gesture that would change a row (rendered as a link or a command by the callers). */
export type RowAction =
  | 'review'
  | 'reaffirm'
  | 'redact'
  | 'restore'
  | 'index-move'
  | 'index-add'
  | 'budget'
  | 'conflict'
  | 'fix-file'
  | 'none';

export interface ContextRow {
  id: string;
  filename: string;
  name: string;
  tier: EffectiveTier;
  state: RowState;
  flags: RowFlag[];
  /** 1-based MEMORY.md line naming it (Claude Code layout), else null. */
  indexLine: number | null;
  /** Characters its quoted block adds to the text (0 when not quoted). */
  chars: number;
  /** One line: why it is in this state. */
  note: string;
  action: RowAction;
}

export interface ContextRootPlan {
  id: string;
  root: string;
  display: string;
  layout: ContextLayout;
  error: string | null;
  rows: ContextRow[];
  /** Claude Code layout with a MEMORY.md: every line and the cut. */
  index: IndexView | null;
  indexCredentialLines: number[];
}

export interface ContextCounts {
  /** Bodies quoted in the text, by tier. */
  verified: number;
  inferred: number;
  overBudget: number;
  withheld: number;
  /** Quarantined or archived: never loaded. */
  excluded: number;
  conflicts: number;
  stale: number;
  awaitingReview: number;
  /** Claude Code memories whose index line is loaded / cut / absent. */
  indexed: number;
  cut: number;
  notIndexed: number;
}

export interface ContextPlan {
  text: string;
  /** text.length (UTF-16 code units). */
  chars: number;
  tokens: number;
  budget: number;
  /** budget − chars. */
  headroom: number;
  roots: ContextRootPlan[];
  counts: ContextCounts;
  problems: ContextProblem[];
}
