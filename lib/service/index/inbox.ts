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
import { recordFindingKinds, type ListRow } from '../../../db/queries/record-rows';
import { RECORD_ENTRY } from '../../../db/queries/entry-kind';
import { syncRecordIndex, type RecordView } from '../records/read';
import { maskValues } from '../../validators/mask-inline';
import type { ActionAvailability } from '../../trust/allowed';
import { memoryActions } from './list-actions';
import { isBinary } from './inspect';
import { lifecycle } from '../../trust/lifecycle';
import { describeLifecycle } from '../../trust/describe';
import type { MemoryFacts } from '../../trust/facts';
import { findingClass } from '../../validators/types';
import { flaggedReason } from '../write/preview';
import { recordFlaggedReason } from '../records/bulk';
import { indexedOriginFlags, UNTRUSTED_ORIGIN } from '../../trust/origin';

export interface InboxItem extends ListRow {
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
  /** A binary file: the pane shows no body (inspect.ts `isBinary`). */
  binary: boolean;
  findings: StoredFinding[];
  actions: ActionAvailability[];
  lifecycle: string[];
  /** A record's pane (docs/review-inbox.md "Records in the inbox"): its verbs through the record actions; null for a memory. */
  record: {
    /** The layout's verbs in its order; those the record allows now; why the others not (masked). */
    layoutActions: readonly string[];
    actions: string[];
    refused: Record<string, string>;
    readOnly: string | null;
  } | null;
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

function enrich(m: ListRow, codes: { code: string; check: string }[], layouts: Map<string, string>): InboxItem {
  const secret = codes.filter((c) => c.check === 'secret');
  const findings = codes.map((c) => ({ check: c.check as 'secret', code: c.code, label: '' as never }));
  const flags = indexedOriginFlags(m.origin);
  return {
    ...m,
    layout: m.layout ?? layouts.get(m.source) ?? 'trust-root',
    // An untrusted origin is shown before a promote (docs/origin.md "What the flag does"):
    // never promoted from the inbox's keys or in bulk, only from a dialog that shows it.
    // A record's own rules say what it allows (its pane's verbs); a credential or injection
    // finding flags it as it does a memory: never promoted in bulk (lib/service/records/bulk.ts).
    flagged:
      m.kind === 'record'
        ? recordFlaggedReason(findings)
        : (flaggedReason(findings, m.validateExit) ??
          (flags.includes(UNTRUSTED_ORIGIN)
            ? `untrusted origin (the turn that wrote it read ${m.originReason ?? 'outside content'} first): promote it from its page, where the origin is shown`
            : null)),
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
  // Records beside memories (docs/review-inbox.md "Records in the inbox"): the record roots read first.
  const live = syncRecordIndex(ctx);
  const page = listInbox(sqlite, { ...q, recordSources: live }, now);
  const facets = withRecordFacets(ctx, inboxFacets(sqlite), live);
  const layouts = new Map(facets.sources.map((s) => [s.id, s.kind]));
  const codes = pageCodes(sqlite, page.items);
  const items = page.items.map((m) => enrich(m, codes.get(m.key) ?? [], layouts));
  let pane: InboxPane | null = null;
  const selected = selectedKey
    ? (items.find((i) => i.key === selectedKey) ?? rowByKey(ctx, selectedKey, layouts))
    : items[0];
  if (selected?.kind === 'record') pane = recordPane(ctx, selected);
  else if (selected) {
    const p = inboxPreview(sqlite, selected.key);
    if (p) {
      const facts = factsOfRow(selected);
      const adapter = ctx.sources.find((s) => s.id === selected.source)?.adapter;
      pane = {
        item: selected,
        body: p.body,
        binary: isBinary(p.findings),
        findings: p.findings,
        actions: adapter
          ? memoryActions(adapter, facts, now, { validateExit: selected.validateExit, secretExit: selected.secretExit })
          : [],
        lifecycle: describeLifecycle(lifecycle(facts, now), now),
        record: null,
      };
    }
  }
  return { items, total: page.total, facets, pane };
}

/** The record roots in the Root and Layout filters, and the finding kinds records hold in the kind filter. */
function withRecordFacets(ctx: ServiceContext, f: InboxFacets, live: string[]): InboxFacets {
  if (live.length === 0) return f;
  const roots = ctx.recordSources
    .filter((s) => live.includes(s.id))
    .map((s) => ({ id: s.id, root: s.root, kind: s.adapter.layout as string }));
  return { ...f, sources: [...f.sources, ...roots], kinds: findingKinds(ctx, live) };
}

/**
 * The Finding kind filter's values (the inbox and the tier tabs): every finding code the
 * memories and the `live` record roots hold, with how many rows hold each.
 */
export function findingKinds(ctx: ServiceContext, live: readonly string[]): InboxFacets['kinds'] {
  const kinds = new Map(inboxFacets(ctx.handle.sqlite).kinds.map((k) => [k.code, { ...k }]));
  if (live.length)
    for (const k of recordFindingKinds(ctx.handle.sqlite, live)) {
      const was = kinds.get(k.code);
      if (was) was.memories += k.memories;
      else kinds.set(k.code, k);
    }
  return [...kinds.values()].sort((a, b) => a.check.localeCompare(b.check) || a.code.localeCompare(b.code));
}

/** The finding codes of a page's rows: memories from `findings`, records from their stored view. */
function pageCodes(sqlite: ServiceContext['handle']['sqlite'], rows: ListRow[]) {
  const codes = pageFindingCodes(
    sqlite,
    rows.filter((m) => m.kind !== 'record').map((m) => m.key),
  );
  const recs = rows.filter((m) => m.kind === 'record' && m.findingCount > 0).map((m) => m.key);
  if (recs.length) {
    const found = sqlite
      .prepare(
        `SELECT r.key AS key, json_extract(f.value, '$.code') AS code, json_extract(f.value, '$.check') AS "check"
           FROM entries r, json_each(r.data, '$.findings') f WHERE r.key IN (SELECT value FROM json_each(?)) AND r.${RECORD_ENTRY}`,
      )
      .all(JSON.stringify(recs)) as { key: string; code: string; check: string }[];
    for (const c of found) codes.set(c.key, [...(codes.get(c.key) ?? []), { code: c.code, check: c.check }]);
  }
  return codes;
}

/** A record's pane: its checked text and findings as indexed, its flags' reasons, its layout's verbs. */
function recordPane(ctx: ServiceContext, item: InboxItem): InboxPane | null {
  const row = ctx.handle.sqlite.prepare(`SELECT data FROM entries WHERE key = ? AND ${RECORD_ENTRY}`).get(item.key) as
    | { data: string }
    | undefined;
  const source = ctx.recordSources.find((s) => s.id === item.source);
  if (!row || !source) return null;
  const r = JSON.parse(row.data) as RecordView;
  const owner = ctx.owner();
  const mask = (s: string) => maskValues(s, owner).text;
  const readOnly = source.adapter.readOnly ?? null;
  return {
    item,
    body: r.text,
    binary: false,
    findings: r.findings.map((f) => ({
      check: f.check,
      code: f.code,
      label: f.label,
      line: f.line ?? null,
      message: f.message,
    })),
    actions: [],
    lifecycle: [
      `${r.layout} record, state as the store writes it: ${r.native}`,
      ...r.flags.map((f) => `${f}: ${mask(r.flagReasons[f] ?? '')}`),
      ...(readOnly ? [`read-only: ${readOnly}`] : []),
    ],
    record: {
      layoutActions: source.adapter.actions,
      actions: r.actions,
      refused: Object.fromEntries(Object.entries(r.refused).map(([k, v]) => [k, mask(v)])),
      readOnly,
    },
  };
}

/** A selected row that left the current page (after a transition) is still previewed. */
function rowByKey(ctx: ServiceContext, key: string, layouts: Map<string, string>): InboxItem | undefined {
  const one = inboxRowByKey(ctx.handle.sqlite, key);
  return one ? enrich(one, pageCodes(ctx.handle.sqlite, [one]).get(key) ?? [], layouts) : undefined;
}
