/**
 * What a session loads (seed §5 auto-application matrix, CONTRACT §4), as the text
 * `memtrust context` prints. Verified: loaded silently. Inferred: loaded with the
 * `[inferred]` marker and a reminder to confirm. Quarantined and archived: never.
 */
import type { MemoryFacts } from './facts';
import { applyIndexLimits } from './index-limits';
import { lifecycle } from './lifecycle';
import { oneLine } from './reason';

export interface ContextItem {
  filename: string;
  name: string;
  description: string;
  body: string;
  facts: MemoryFacts;
}

export interface ContextProblem {
  /** A path or id the user recognises. */
  path: string;
  message: string;
}

export interface ContextOptions {
  /** Files or roots that could not be read; listed at the end, never fatal. */
  problems?: ContextProblem[];
  /** Raw MEMORY.md of an index-file layout: loaded first, under the index limits. */
  index?: string;
}

export interface ContextCounts {
  verified: number;
  inferred: number;
  /** Quarantined or archived items that were left out. */
  excluded: number;
  conflicts: number;
  stale: number;
  awaitingReview: number;
}

export interface SessionContext {
  text: string;
  counts: ContextCounts;
}

export const INFERRED_MARKER = '[inferred]';
export const INFERRED_REMINDER =
  "[inferred] Advisory: saved by the assistant without the user's confirmation. Confirm with the user before relying on it.";

/** The one review prompt per session (CONTRACT §4 wording, kept verbatim for any N). */
export function reviewBanner(n: number): string {
  return `You have ${n} inferred memories awaiting review. Run /memory-review to promote or demote them.`;
}

export function staleLine(n: number): string {
  const subject = n === 1 ? '1 verified memory is' : `${n} verified memories are`;
  return `${subject} stale (last verified more than 90 days ago, or never); they still apply. Run /memory-review to re-affirm or demote them.`;
}

function section(item: ContextItem, inferred: boolean): string {
  const title = oneLine(item.name, 100) || item.filename;
  const head = `## ${title} (${item.filename})${inferred ? ` ${INFERRED_MARKER}` : ''}`;
  const body = item.body.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  return [head, ...(inferred ? [INFERRED_REMINDER] : []), body].join('\n');
}

export function sessionContext(items: ContextItem[], now: Date, opts: ContextOptions = {}): SessionContext {
  const counts: ContextCounts = { verified: 0, inferred: 0, excluded: 0, conflicts: 0, stale: 0, awaitingReview: 0 };
  const verified: string[] = [];
  const inferred: string[] = [];
  const problems = opts.problems ?? [];
  const conflicted: string[] = [];
  for (const item of items) {
    const life = lifecycle(item.facts, now);
    if (life.tier === 'quarantined' || life.tier === 'archived') {
      counts.excluded++;
    } else if (life.reading.conflict) {
      // A copy also sits in quarantine/: loading either could apply what someone demoted.
      counts.conflicts++;
      conflicted.push(`- ${oneLine(item.filename, 300)}: in both memories/ and quarantine/; resolve the conflict to load it`);
    } else if (life.tier === 'verified') {
      counts.verified++;
      if (life.verification?.stale) counts.stale++;
      verified.push(section(item, false));
    } else {
      counts.inferred++;
      if (life.dueForReview) counts.awaitingReview++;
      inferred.push(section(item, true));
    }
  }

  const header = [
    '# Memories (memtrust)',
    `${counts.verified} verified, ${counts.inferred} inferred loaded. Quarantined memories are never loaded.`,
  ];
  if (counts.awaitingReview > 0) header.push(reviewBanner(counts.awaitingReview));
  if (counts.stale > 0) header.push(staleLine(counts.stale));

  const blocks = [header.join('\n')];
  if (opts.index !== undefined) blocks.push(`## MEMORY.md (index)\n${applyIndexLimits(opts.index).text.trimEnd()}`);
  blocks.push(...verified, ...inferred);
  if (conflicted.length > 0) blocks.push(['## Not loaded (conflict)', ...conflicted].join('\n'));
  if (problems.length > 0) {
    const lines = problems.map((p) => `- ${oneLine(p.path, 300)}: ${oneLine(p.message, 300)}`);
    blocks.push(['## Could not read', ...lines].join('\n'));
  }
  return { text: `${blocks.join('\n\n')}\n`, counts };
}

/** The JSON a SessionStart hook prints on stdout. */
export function hookJson(text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}
