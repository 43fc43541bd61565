/**
 * The records table's state in the URL (docs/records-pages.md): search, layout, tier,
 * queue, finding class and kind, category, shape, root and page — the inbox's filter words
 * (docs/dashboard.md "Words"); `flag` and `finding` are still read from older links — parsed once with zod at the edge like the tier tables' filters
 * (lib/web/url-state.ts). Unknown or malformed values are dropped, never an error page.
 */
import { z } from 'zod';
import { CATEGORIES } from '../sources/canonical/types';
import { RECORD_FLAGS } from '../sources/record';
import type { RecordFilter } from '../service/records/read';
import { hrefWith, opt, parseParams } from './url-state';
import { QUEUE_FLAG, RECORD_QUEUES } from '../../db/queries/record-rows';

export const RECORD_LAYOUTS = ['canonical', 'governed', 'consolidation'] as const;
export const RECORD_TIERS = ['verified', 'inferred', 'quarantined', 'archived'] as const;
export const RECORD_PAGE_SIZE = 50;
/** Canonical categories (`detail.category`; `pending` = `_pending.md` candidates) and entry shapes (`detail.shape`). */
export const RECORD_CATEGORIES = [...CATEGORIES, 'pending'] as const;
export const RECORD_SHAPES = ['flat', 'sharded'] as const;
/** Records with a finding of this check (their values masked). */
export const RECORD_FINDINGS = ['secret', 'injection'] as const;

/** The queues a record can be in by its flags (db/queries/record-rows.ts QUEUE_FLAG). */
export const RECORD_PAGE_QUEUES = ['stale', ...RECORD_QUEUES] as const;

export const RecordParams = z.object({
  q: opt(z.string().max(200)),
  layout: opt(z.enum(RECORD_LAYOUTS)),
  tier: opt(z.enum(RECORD_TIERS)),
  queue: opt(z.enum(RECORD_PAGE_QUEUES)),
  cls: opt(z.enum(['credential', 'personal'])),
  kind: opt(z.string().regex(/^[a-z0-9._-]{1,80}$/)),
  flag: opt(z.enum(RECORD_FLAGS)),
  finding: opt(z.enum(RECORD_FINDINGS)),
  category: opt(z.enum(RECORD_CATEGORIES)),
  shape: opt(z.enum(RECORD_SHAPES)),
  source: opt(z.string().max(100)),
  /** The project filter (lib/service/project-filter.ts): a project's path, or `user`. */
  project: opt(z.string().max(4096)),
  page: opt(z.coerce.number().int().min(1).max(100_000)),
});
export type RecordParams = z.infer<typeof RecordParams>;

export function parseRecordParams(raw: Record<string, string | string[] | undefined>): RecordParams {
  return parseParams(RecordParams, raw);
}

/** The filter the record service takes for one page of the table. */
export function toRecordFilter(p: RecordParams): RecordFilter & { offset: number; limit: number } {
  return {
    source: p.source,
    layout: p.layout,
    tier: p.tier,
    flag: (p.queue ? QUEUE_FLAG[p.queue] : undefined) ?? p.flag,
    finding: p.finding,
    cls: p.cls,
    kind: p.kind,
    category: p.category,
    shape: p.shape,
    q: p.q,
    offset: ((p.page ?? 1) - 1) * RECORD_PAGE_SIZE,
    limit: RECORD_PAGE_SIZE,
  };
}

/** The same view with some parameters changed (undefined removes one). */
export function recordsHref(
  p: RecordParams,
  change: Partial<Record<keyof RecordParams, string | number | undefined>> = {},
  base = '/records',
): string {
  return hrefWith(base, p, change);
}

/** A record's page: ids hold `:` (`<source>:<key>`), so the id is one encoded path segment. */
export function recordHref(id: string): string {
  return `/records/${encodeURIComponent(id)}`;
}
