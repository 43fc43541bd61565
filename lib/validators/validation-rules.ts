/**
 * Which conventions judge a memory file (CONTRACT §2.1, docs/validators.md "Rules by
 * layout"). `validate FILE`, the drop-in, keeps the reference's rules; inside memtrust a
 * file is judged by what its layout defines. Seed 000's recommended fields
 * (source-machine, created-at, trust-level, last-verified) and its `<type>_<topic>.md`
 * filename rule belong to trust-model roots: Claude Code never writes those fields and
 * names its files as it likes (`feedback-ci.md`), so asking for them there would put a
 * warning on nearly every real file.
 */

export type ValidationRules = 'reference' | 'claude-code';

export interface RuleSet {
  /** Seed 000's recommended fields and filename convention are warnings. */
  seedRecommendations: boolean;
}

/**
 * Both keep the required fields (`name`, `description`, `type` of the four, read from the
 * top level else `metadata:`), the format rules of any field present (a trust-level
 * memtrust wrote is checked the same way) and the body rules: the `Why:` / `How to
 * apply:` markers are Claude Code's own convention for feedback and project memories
 * (seed 003). MEMORY.md's 200-line / 25,000-byte cut is checked on the index file
 * (lib/trust/index-limits.ts), never on a memory.
 */
export const VALIDATION_RULES: Readonly<Record<ValidationRules, RuleSet>> = {
  reference: { seedRecommendations: true },
  'claude-code': { seedRecommendations: false },
};

/** The rules for a root of this layout kind (lib/sources/types.ts SourceKind). */
export function rulesForLayout(kind: string | undefined): ValidationRules {
  return kind === 'claude-code' ? 'claude-code' : 'reference';
}

/**
 * Bumped when what the index stores for unchanged bytes changes (rules by layout, the
 * density hint): the scan re-reads every file when it differs (lib/service/index/scan.ts).
 */
export const LAYOUT_RULES_VERSION = '2026-11-29.layout-1';
