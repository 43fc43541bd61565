/**
 * Which actions a memory gets, each with the rule when disabled. Built on `decide`
 * plus what the file itself allows (docs/trust-model.md "Offered only when possible"; see
 * docs/claude-code-folders.md), so the CLI, the dashboard and the service can never
 * disagree: an action is offered only when it would succeed now.
 */
import type { MemoryFacts } from './facts';
import type { CheckExits } from './reason';
import { decide, TRANSITIONS } from './transitions';
import { effectiveTier } from './facts';
import { MEMORY_ACTIONS, type Action, type MemoryAction } from './tiers';
import { findingClass, type Finding } from '../validators/types';
import { CREDENTIAL_WAY_OUT, secretWayOut } from './way-out';

export interface ActionAvailability {
  action: MemoryAction;
  allowed: boolean;
  /** Why it is disabled (a full sentence), or what will be asked for when it is enabled. */
  reason?: string;
}

/** What a finding carries that the rules read (index rows and live verdicts both have it). */
export type FindingRef = Pick<Finding, 'check' | 'code' | 'message'> & {
  line?: number | null;
  label?: string;
  class?: string;
};

/** The file's own state, beside its tier facts: verdict exits and the findings behind them. */
export interface FileState extends CheckExits {
  findings?: FindingRef[];
}

/**
 * Validate codes after which memtrust cannot rewrite the frontmatter: no block, a block
 * YAML cannot parse, or one the minimal rewriter refuses (docs/memory-files.md). Also the files
 * memtrust never reads whole.
 */
const UNREWRITABLE = new Set([
  'missing-open-delimiter',
  'missing-close-delimiter',
  'file-too-large',
  'binary-file',
  'file-unreadable',
  'file-not-found',
  'frontmatter-not-utf8',
  'frontmatter-too-large',
  'nesting-too-deep',
  'yaml-syntax',
  'not-a-mapping',
  'duplicate-key',
  'yaml-anchor',
  'yaml-alias',
  'yaml-tag',
  'non-scalar-key',
  'non-scalar-value',
]);

/** Files that no edit of their text can make pass: memtrust never reads them as memories. */
const NEVER_PASSES = new Set(['file-too-large', 'binary-file']);

/** Actions that write frontmatter keys (demote may move a file unchanged instead; archive writes none). */
const REWRITES: ReadonlySet<Action> = new Set<Action>(['promote', 'reaffirm', 'restore', 'edit']);

const at = (f: FindingRef) => (f.line ? ` at line ${f.line}` : '');

/** The first finding that stops a frontmatter rewrite, if any. */
export function unrewritable(findings: readonly FindingRef[] = []): FindingRef | undefined {
  return findings.find((f) => f.check === 'validate' && UNREWRITABLE.has(f.code));
}

/** The first credential finding (docs/credentials.md class `credential`), if any. */
export function credentialFinding(findings: readonly FindingRef[] = []): FindingRef | undefined {
  return findings.find((f) => f.check === 'secret' && (f.class ?? findingClass(f.code)) === 'credential');
}

/**
 * Why the file itself stops an action the tier rules would allow, or null. One rule for
 * the CLI, the dashboard and the service: every frontmatter-rewriting action needs a
 * block memtrust can rewrite; promote and re-affirm also need validate ≠ 1/2 and no
 * credential finding (demote instead).
 */
export function fileBlock(action: Action, state: FileState | undefined): string | null {
  if (!state) return null;
  const verb = action === 'reaffirm' ? 're-affirm' : action;
  const broken = REWRITES.has(action) ? unrewritable(state.findings) : undefined;
  if (broken) {
    if (NEVER_PASSES.has(broken.code))
      return `${verb} refused: ${broken.message}; this file can never pass validation as it is`;
    return `${verb} refused: the frontmatter cannot be rewritten (${broken.message}${at(broken)}); fix the frontmatter${at(broken)} first`;
  }
  if (action !== 'promote' && action !== 'reaffirm') return null;
  if (state.validateExit === 1 || state.validateExit === 2) {
    const first = state.findings?.find(
      (f) => f.check === 'validate' && (f.label === 'FAIL-STRUCT' || f.label === 'FAIL-FORMAT'),
    );
    const what = first ? `${first.message}${at(first)}` : `validate exit ${state.validateExit}`;
    return `${verb} refused: the file fails validation (${what}); fix it, or demote it`;
  }
  const cred =
    credentialFinding(state.findings) ??
    (state.secretExit === 1 && !state.findings ? { check: 'secret', code: 'secret', message: 'a secret' } : undefined);
  if (cred)
    return `${verb} refused: a credential is in the file (${cred.message}${at(cred)}); ${CREDENTIAL_WAY_OUT}, or demote it`;
  return null;
}

/** The way out of one blocking finding (docs/trust-model.md "Refusals teach"). */
function wayOut(f: FindingRef): string {
  if (NEVER_PASSES.has(f.code)) return 'this file can never pass as it is';
  if (f.check === 'secret') return secretWayOut(f);
  if (f.code === 'missing-open-delimiter' || f.code === 'missing-close-delimiter')
    return 'add a frontmatter block (--- lines) with name, description and type';
  if (UNREWRITABLE.has(f.code)) return `fix the YAML${at(f)}`;
  if (f.code === 'missing-required-field')
    return `add ${f.message.replace('missing required field: ', '')}: to the frontmatter (or under metadata:)`;
  if (f.code === 'body-too-short') return 'write a longer body (30 characters at least)';
  return `fix the value${at(f)}`;
}

const CHECK_NAME: Record<string, string> = {
  validate: 'validate',
  secret: 'secret-check',
  injection: 'injection-check',
};

/** Findings that stop a restore: validate FAIL-STRUCT/FAIL-FORMAT and every secret-check finding. */
export function restoreBlockers(findings: readonly FindingRef[]): FindingRef[] {
  return findings.filter(
    (f) => (f.check === 'validate' && (f.label === 'FAIL-STRUCT' || f.label === 'FAIL-FORMAT')) || f.check === 'secret',
  );
}

/**
 * A refused restore, as one line that teaches: each blocking finding with its line,
 * masked message (findings never hold a secret unmasked) and the way out, then
 * "restore" again — or that the file can never pass.
 */
export function restoreRefusal(
  filename: string,
  findings: readonly FindingRef[],
  location = 'quarantine/',
): string | null {
  const blockers = restoreBlockers(findings);
  if (blockers.length === 0) return null;
  if (blockers.some((f) => NEVER_PASSES.has(f.code))) {
    const f = blockers.find((b) => NEVER_PASSES.has(b.code))!;
    return `restore refused: ${filename}: ${f.message}; this file can never pass validation, so it cannot be restored (archive it from day 91, or replace it with a new memory)`;
  }
  const shown = blockers
    .slice(0, 6)
    .map(
      (f) => `${f.line ? `line ${f.line}` : 'file'} (${CHECK_NAME[f.check] ?? f.check}): ${f.message} → ${wayOut(f)}`,
    );
  const more =
    blockers.length > shown.length ? ` · and ${blockers.length - shown.length} more (memtrust show ${filename})` : '';
  const n = blockers.length === 1 ? '1 finding blocks it' : `${blockers.length} findings block it`;
  return `restore refused: ${filename}: ${n} — ${shown.join(' · ')}${more}; edit the file in ${location} by hand, then restore`;
}

const ASKED = {
  demote: 'asks for a one-line reason',
  restore: 're-runs validate and secret-check first',
} as const;

/**
 * Availability for the user (never the validator). Demote is enabled before the reason is
 * typed. Restore is enabled before the validators are re-run when no `state` is given
 * (they are asked for on click); pass `state` (exits and findings) for the real outcome.
 */
export function allowedActions(facts: MemoryFacts, now: Date, state?: FileState): ActionAvailability[] {
  return MEMORY_ACTIONS.map((action) => {
    const d = decide(action, facts, { now, machine: 'preview', actor: 'user', reason: 'preview', checks: state });
    if (d.ok && d.noop) return { action, allowed: false, reason: d.message };
    if (!d.ok && d.code === 'validators-fail' && action === 'restore' && state?.findings) {
      return { action, allowed: false, reason: restoreRefusal(facts.filename, state.findings) ?? d.message };
    }
    if (d.ok || d.code === 'checks-required') {
      const blocked = fileBlock(action, state);
      if (blocked) return { action, allowed: false, reason: blocked };
    }
    if (d.ok) return action === 'demote' ? { action, allowed: true, reason: ASKED.demote } : { action, allowed: true };
    if (d.code === 'checks-required') return { action, allowed: true, reason: ASKED.restore };
    return { action, allowed: false, reason: d.message };
  });
}

/** The allowed actions' names only (`list --json` items, docs/records.md). */
export function actionNames(list: ActionAvailability[]): MemoryAction[] {
  return list.filter((a) => a.allowed).map((a) => a.action);
}

/**
 * The same answer as `actionNames(allowedActions(…))` for listings of thousands of rows:
 * actions whose transition does not start from the memory's tier are skipped before
 * `decide` (they are always refused as wrong-tier or already done).
 */
export function allowedActionNames(facts: MemoryFacts, now: Date, state?: FileState): MemoryAction[] {
  const tier = effectiveTier(facts).tier;
  const out: MemoryAction[] = [];
  for (const action of MEMORY_ACTIONS) {
    const rule = TRANSITIONS[action];
    if (!rule.from.includes(tier) || rule.noopFrom.includes(tier)) continue;
    const d = decide(action, facts, {
      now,
      machine: 'preview',
      actor: 'user',
      reason: 'preview',
      checks: state,
      preview: true,
    });
    if ((d.ok && !d.noop) || (!d.ok && d.code === 'checks-required')) {
      if (!fileBlock(action, state)) out.push(action);
    }
  }
  return out;
}
