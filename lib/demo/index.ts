/** Deterministic demo / test / benchmark corpora (see README in this folder's report). */
export { generateCorpus, uniqueNamer, DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from './corpus';
export type { Corpus, CorpusFile, CorpusOptions } from './corpus';
export { generateClaudeCodeFolder } from './claude-code';
export type { ClaudeCodeFolder, ClaudeCodeOptions } from './claude-code';
export { writeCorpus } from './write';
export type { WriteStats } from './write';
export { CATEGORIES, categoryCounts, planCategories } from './plan';
export type { Category } from './plan';
export { mulberry32, seedToInt } from './prng';

/** Size of the demo root shown when no memory root is configured. */
export const DEMO_N = 60;
export const DEMO_SEED = 20261122;
