/**
 * The canonical-file adapter (layout 3, docs/canonical-layout.md) in the shape the one-record-model
 * registry will list: detect, read, capabilities, plan, and its lifecycle rule.
 * `canonicalLayout` (adapter.ts) is the LayoutAdapter registered in lib/sources/registry.ts;
 * see docs/canonical-layout.md, "Wiring".
 */
import { capabilities, detect, read } from './read';
import { applyEdits } from '../edits';
import { plan } from './plan';
import { AGE_EXEMPT, STALE_AFTER_COMMITS, staleness } from './staleness';

export const canonicalAdapter = {
  layout: 'canonical' as const,
  label: 'canonical-file project memory',
  detect,
  read,
  capabilities,
  plan,
  lifecycle: { staleness, staleAfterCommits: STALE_AFTER_COMMITS, ageExempt: AGE_EXEMPT },
};

export { applyEdits, capabilities, detect, plan, read };
export { canonicalLayout, canonicalStore } from './adapter';
export type * from './types';
