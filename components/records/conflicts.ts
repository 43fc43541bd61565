/**
 * Contradictions between records (docs/records-pages.md): the pairing rule is
 * lib/web/record-conflicts.ts; these helpers feed it from the record service and build what
 * each side of the side-by-side view shows, masked.
 */
import 'server-only';
import type { ServiceContext } from '@/lib/service/context';
import { findRecord, listRecords, type RecordView } from '@/lib/service/records/read';
import { pairConflicts, partnersOf } from '@/lib/web/record-conflicts';
import { detailList, detailString, detailText, type Masker } from './record-view';

export interface ConflictSide {
  id: string;
  key: string;
  layout: string;
  tier: string;
  native: string;
  statement: string;
  evidence: string[];
  confidence: string;
  createdAt: string;
  conflictNote: string;
  location: string;
  /** Why "keep this one" is not possible (a refused restore / archive), else null. */
  keepRefused: string | null;
  /** Set for a layout memtrust never writes: the reason, and the owner's command lines to copy instead. */
  readOnly: string | null;
  commands: [string, string][];
}

/** The reason a record's layout is read-only (its adapter's), else null. */
export function readOnlyOf(ctx: ServiceContext, r: RecordView): string | null {
  return ctx.recordSources.find((s) => s.id === r.source)?.adapter.readOnly ?? null;
}

/** A record named by a conflicting one: a key of its own root first, else any id or key. */
function lookup(ctx: ServiceContext) {
  return (name: string, source: string): RecordView | null => {
    const hit = findRecord(ctx, name.includes(':') ? name : `${source}:${name}`);
    if (hit.ok) return hit.record;
    const any = findRecord(ctx, name);
    return any.ok ? any.record : null;
  };
}

/** The records `r` contradicts. */
export function conflictPartners(ctx: ServiceContext, r: RecordView): RecordView[] {
  return partnersOf(r, [], lookup(ctx));
}

/** Every contradiction pair of the record roots, each once (ordered by id). */
export function conflictPairs(ctx: ServiceContext): [RecordView, RecordView][] {
  const flagged: RecordView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = listRecords(ctx, { flag: 'conflict', offset, limit: 500 });
    flagged.push(...page.items);
    if (page.items.length === 0 || flagged.length >= page.total) break;
  }
  return pairConflicts(flagged, lookup(ctx));
}

function keepRefused(keep: RecordView, other: RecordView, mask: Masker): string | null {
  if (!keep.actions.includes('restore'))
    return `Restore ${keep.key}: ${mask(keep.refused.restore ?? 'not offered for this record')}`;
  if (!other.actions.includes('archive'))
    return `Archive ${other.key}: ${mask(other.refused.archive ?? 'not offered for this record')}`;
  return null;
}

export function conflictSide(
  ctx: ServiceContext,
  r: RecordView,
  other: RecordView,
  mask: Masker,
  location: string,
): ConflictSide {
  const d = r.detail;
  const commands =
    d.commands && typeof d.commands === 'object'
      ? (Object.entries(d.commands).filter(([, v]) => typeof v === 'string') as [string, string][])
      : [];
  return {
    id: r.id,
    key: mask(r.key),
    layout: r.layout,
    tier: r.tier,
    native: r.native,
    statement: mask(detailString(d.statement) ?? r.title),
    evidence: detailList(d.evidence).map((e) => detailText(e, mask)),
    confidence: detailString(d.confidence) ?? '—',
    createdAt: r.createdAt ?? '—',
    conflictNote: mask(detailString(d.conflictNote) ?? r.flagReasons.conflict ?? ''),
    location,
    keepRefused: keepRefused(r, other, mask),
    readOnly: readOnlyOf(ctx, r),
    commands,
  };
}
