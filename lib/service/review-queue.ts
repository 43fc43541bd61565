/**
 * The seed's /memory-review as data: inferred memories past observation
 * (promote / demote), stale verified ones (re-affirm / demote), quarantined ones
 * (restore, archive when due). Allowed actions come from the trust domain.
 */
import type { ServiceContext } from './context';
import { listMemories, type MemoryListItem, type Queue } from '../../db/queries/memories';
import { allowedActions, type ActionAvailability } from '../trust/allowed';
import { lifecycle } from '../trust/lifecycle';
import { describeLifecycle } from '../trust/describe';
import { changedSinceVerifiedFact } from '../trust/assistant-write';
import type { MemoryFacts } from '../trust/facts';

export interface ReviewItem {
  id: string;
  source: string;
  filename: string;
  relPath: string;
  name: string;
  description: string;
  tier: string;
  kind: 'promote' | 'reaffirm' | 'quarantine';
  facts: string[];
  reason: string | null;
  sha256: string;
  findingChecks: string;
  actions: ActionAvailability[];
}

/** Per group; the queue is for review sessions, not a full listing. */
export const REVIEW_LIMIT = 200;

function factsOf(m: MemoryListItem): MemoryFacts {
  return {
    filename: m.filename,
    location: m.location as MemoryFacts['location'],
    trustLevel: m.tier === 'quarantined' ? 'quarantined' : (m.tier as string),
    type: m.type ?? undefined,
    createdAt: m.createdAt ?? undefined,
    lastVerified: m.lastVerified ?? undefined,
    quarantinedAt: m.quarantinedAt ?? undefined,
    changedSinceVerified: m.changedSinceVerified ?? undefined,
    mtime: new Date(m.createdMs),
    conflict: m.conflict,
  };
}

export function reviewQueue(ctx: ServiceContext): ReviewItem[] {
  const now = ctx.now();
  const group = (queue: Queue | undefined, tier: MemoryListItem['tier'] | undefined, kind: ReviewItem['kind']) =>
    listMemories(ctx.handle.sqlite, { queue, tier: tier as never, limit: REVIEW_LIMIT, sort: 'file' }, now).items.map((m): ReviewItem => {
      const facts = factsOf(m);
      const checks = { validateExit: m.validateExit, secretExit: m.secretExit };
      return {
        id: m.id,
        source: m.source,
        filename: m.filename,
        relPath: m.relPath,
        name: m.name ?? m.filename,
        description: m.description ?? '',
        tier: m.tier,
        kind,
        facts: [changedSinceVerifiedFact(m.changedSinceVerified), ...describeLifecycle(lifecycle(facts, now), now)].filter((x): x is string => x !== null),
        reason: m.quarantineReason,
        sha256: m.sha256,
        findingChecks: m.findingChecks,
        actions: allowedActions(facts, now, checks),
      };
    });
  return [...group('due', undefined, 'promote'), ...group('stale', undefined, 'reaffirm'), ...group(undefined, 'quarantined', 'quarantine')];
}
