/**
 * Table state kept in the URL (bookmarkable views): parsed once with zod at the
 * edge, so pages and queries only see typed values.
 */
import { z } from 'zod';
import { ORIGIN_FLAGS, QUEUES, SORTS, type ListQuery, type Queue } from '../../db/queries/memories';
import { RECORD_QUEUES } from '../../db/queries/record-rows';
import { FINDING_CLASSES } from '../../db/queries/finding-filter';
import { EFFECTIVE_TIERS, MEMORY_TYPES } from '../trust/tiers';
import { CHECKS } from '../validators/types';

export const TIER_PARAMS = [...EFFECTIVE_TIERS, 'all'] as const;
export type TierParam = (typeof TIER_PARAMS)[number];

export const PAGE_SIZE = 50;

/** An optional query parameter: empty means absent, a repeated one counts once. */
export const opt = <T extends z.ZodTypeAny>(s: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : Array.isArray(v) ? v[0] : v), s.optional());

export const TableParams = z.object({
  q: opt(z.string().max(200)),
  type: opt(z.enum(MEMORY_TYPES)),
  source: opt(z.string().max(100)),
  /** The project filter (lib/service/project-filter.ts): a project's path, or `user`. */
  project: opt(z.string().max(4096)),
  machine: opt(z.string().max(100)),
  /** The check a finding came from (validate | secret | injection): older links and the overview's cards. */
  finding: opt(z.enum(CHECKS)),
  /** Finding class and kind: the inbox's words and values (docs/dashboard.md "Words"). */
  cls: opt(z.enum(FINDING_CLASSES)),
  kind: opt(z.string().max(100)),
  /** An origin flag (docs/origin.md "In the index"). */
  flag: opt(z.enum(ORIGIN_FLAGS)),
  /** The queue (the filter's label is Queue): a memory queue, or a record-only one (db/queries/record-rows.ts). */
  status: opt(z.enum([...QUEUES, ...RECORD_QUEUES])),
  verdict: opt(z.enum(['pass', 'fail-struct', 'fail-format', 'warn'])),
  sort: opt(z.enum(SORTS)),
  dir: opt(z.enum(['asc', 'desc'])),
  page: opt(z.coerce.number().int().min(1).max(100_000)),
});
export type TableParams = z.infer<typeof TableParams>;

/**
 * A page's parameters parsed with its zod object, one key at a time: unknown or
 * malformed parameters are dropped, never an error page. Every table's URL state
 * (tier tables, inbox, records) is read with it.
 */
export function parseParams<S extends z.ZodRawShape>(
  schema: z.ZodObject<S>,
  raw: Record<string, string | string[] | undefined>,
): z.infer<z.ZodObject<S>> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const r = (field as z.ZodTypeAny).safeParse(raw[key]);
    if (r.success && r.data !== undefined) out[key] = r.data;
  }
  return out as z.infer<z.ZodObject<S>>;
}

/** `base` with the parameters `p`, some changed (undefined or empty removes one). */
export function hrefWith<P extends object>(
  base: string,
  p: P,
  change: Partial<Record<keyof P, string | number | undefined>> = {},
): string {
  const merged: Record<string, unknown> = { ...p, ...change };
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${base}?${s}` : base;
}

export function parseTableParams(raw: Record<string, string | string[] | undefined>): TableParams {
  return parseParams(TableParams, raw);
}

export function toListQuery(tier: TierParam, p: TableParams): ListQuery {
  return {
    tier: tier === 'all' ? undefined : tier,
    queue: (QUEUES as readonly string[]).includes(p.status ?? '') ? (p.status as Queue) : undefined,
    source: p.source,
    type: p.type,
    machine: p.machine,
    finding: p.finding,
    flag: p.flag,
    verdict: p.verdict,
    q: p.q,
    sort: p.sort ?? 'name',
    dir: p.dir ?? 'asc',
    limit: PAGE_SIZE,
    offset: ((p.page ?? 1) - 1) * PAGE_SIZE,
  };
}

/**
 * `base` with only the project filter kept: where a "Clear" link goes, so clearing the
 * filters never drops the project the page shows (docs/roots.md "The Claude Code home").
 */
export function clearedHref(base: string, project: string | undefined): string {
  return hrefWith(base, { project });
}

/** The same view with some parameters changed (undefined removes one). */
export function withParams(
  base: string,
  p: TableParams,
  change: Partial<Record<keyof TableParams, string | number | undefined>>,
): string {
  return hrefWith(base, p, change);
}
