/**
 * The review inbox as data (docs/review-inbox.md): one page of rows from the index
 * and the selected row's preview (body as the index stores it, findings, the
 * actions docs/trust-model.md allows now). Reads only the index: a filter change never touches a file.
 */
import type { ServiceContext } from '../context';
import {
  inboxFacets,
  inboxPreview,
  inboxRowByKey,
  listInbox,
  pageFindingCodes,
  type InboxFacets,
  type InboxQuery,
  type StoredFinding,
} from '../../../db/queries/inbox';
import type { MemoryListItem } from '../../../db/queries/memories';
import type { ActionAvailability } from '../../trust/allowed';
import { memoryActions } from './list-actions';
import { lifecycle } from '../../trust/lifecycle';
import { describeLifecycle } from '../../trust/describe';
import type { MemoryFacts } from '../../trust/facts';
import { findingClass } from '../../validators/types';
import { flaggedReason } from '../write/preview';
import { indexedOriginFlags, UNTRUSTED_ORIGIN } from '../../trust/origin';

export interface InboxItem extends MemoryListItem {
  layout: string;
  /** Credential finding or hard validator failure: promote / re-affirm refused. */
  flagged: string | null;
  classes: { credential: boolean; personal: boolean };
  /** The origin's flags as the index keeps them (docs/origin.md "In the index"). */
  originFlags: string[];
}

export interface InboxPane {
  item: InboxItem;
  body: string;
  findings: StoredFinding[];
  actions: ActionAvailability[];
  lifecycle: string[];
}

export interface InboxView {
  items: InboxItem[];
  total: number;
  facets: InboxFacets;
  pane: InboxPane | null;
}

export function factsOfRow(m: MemoryListItem): MemoryFacts {
  return {
    filename: m.filename,
    location: m.location as MemoryFacts['location'],
    trustLevel: m.needsBackfill ? undefined : m.tier,
    type: m.type ?? undefined,
    createdAt: m.createdAt ?? undefined,
    lastVerified: m.lastVerified ?? undefined,
    quarantinedAt: m.quarantinedAt ?? undefined,
    mtime: new Date(m.createdMs),
    conflict: m.conflict,
  };
}

function enrich(m: MemoryListItem, codes: { code: string; check: string }[], layouts: Map<string, string>): InboxItem {
  const secret = codes.filter((c) => c.check === 'secret');
  const findings = codes.map((c) => ({ check: c.check as 'secret', code: c.code, label: '' as never }));
  const flags = indexedOriginFlags(m.origin);
  return {
    ...m,
    layout: layouts.get(m.source) ?? 'trust-root',
    // An untrusted origin is shown before a promote (docs/origin.md "What the flag does"):
    // never promoted from the inbox's keys or in bulk, only from a dialog that shows it.
    flagged:
      flaggedReason(findings, m.validateExit) ??
      (flags.includes(UNTRUSTED_ORIGIN)
        ? `untrusted origin (the turn that wrote it read ${m.originReason ?? 'outside content'} first): promote it from its page, where the origin is shown`
        : null),
    originFlags: flags,
    classes: {
      credential: secret.some((c) => findingClass(c.code) === 'credential'),
      personal: secret.some((c) => findingClass(c.code) === 'personal'),
    },
  };
}

export function inboxView(ctx: ServiceContext, q: InboxQuery, selectedKey: string | undefined): InboxView {
  const sqlite = ctx.handle.sqlite;
  const now = ctx.now();
  const page = listInbox(sqlite, q, now);
  const facets = inboxFacets(sqlite);
  const layouts = new Map(facets.sources.map((s) => [s.id, s.kind]));
  const codes = pageFindingCodes(
    sqlite,
    page.items.map((m) => m.key),
  );
  const items = page.items.map((m) => enrich(m, codes.get(m.key) ?? [], layouts));
  let pane: InboxPane | null = null;
  const selected = selectedKey
    ? (items.find((i) => i.key === selectedKey) ?? rowByKey(ctx, selectedKey, layouts))
    : items[0];
  if (selected) {
    const p = inboxPreview(sqlite, selected.key);
    if (p) {
      const facts = factsOfRow(selected);
      const adapter = ctx.sources.find((s) => s.id === selected.source)?.adapter;
      pane = {
        item: selected,
        body: p.body,
        findings: p.findings,
        actions: adapter
          ? memoryActions(adapter, facts, now, { validateExit: selected.validateExit, secretExit: selected.secretExit })
          : [],
        lifecycle: describeLifecycle(lifecycle(facts, now), now),
      };
    }
  }
  return { items, total: page.total, facets, pane };
}

/** A selected row that left the current page (after a transition) is still previewed. */
function rowByKey(ctx: ServiceContext, key: string, layouts: Map<string, string>): InboxItem | undefined {
  const one = inboxRowByKey(ctx.handle.sqlite, key);
  return one ? enrich(one, pageFindingCodes(ctx.handle.sqlite, [key]).get(key) ?? [], layouts) : undefined;
}
