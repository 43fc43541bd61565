/**
 * The staleness table's rows, order and page (docs/records-pages.md "Staleness"): pure, so
 * the page only reads the records and renders what this returns. Sort and page live in the
 * URL (`?sort=name&dir=asc&page=2`), parsed like every table's state (lib/web/url-state.ts).
 */
import { z } from 'zod';
import { hrefWith, opt, parseParams } from '@/lib/web/url-state';

export const STALENESS_PAGE_SIZE = 50;
export const STALENESS_SORTS = ['staleness', 'days', 'name'] as const;
export type StalenessSort = (typeof STALENESS_SORTS)[number];

export const StalenessParams = z.object({
  sort: opt(z.enum(STALENESS_SORTS)),
  dir: opt(z.enum(['asc', 'desc'])),
  page: opt(z.coerce.number().int().min(1).max(100_000)),
});
export type StalenessParams = z.infer<typeof StalenessParams>;

export function parseStalenessParams(raw: Record<string, string | string[] | undefined>): StalenessParams {
  return parseParams(StalenessParams, raw);
}

/** Each sort's first direction: the most drifted, the oldest, A to Z. */
const FIRST: Record<StalenessSort, 'asc' | 'desc'> = { staleness: 'desc', days: 'desc', name: 'asc' };

export function stalenessDir(p: StalenessParams): 'asc' | 'desc' {
  return p.dir ?? FIRST[p.sort ?? 'staleness'];
}

export function stalenessHref(
  p: StalenessParams,
  change: Partial<Record<keyof StalenessParams, string | number | undefined>> = {},
): string {
  return hrefWith('/records/staleness', p, change);
}

export interface StalenessRow {
  key: string;
  /** The title as shown (components/title.ts), for the name order. */
  title: string;
  commits: number | null;
  days: number | null;
}

/**
 * `rows` in the order `p` asks for, and the page of it: staleness is commits since verified,
 * then days; a row without a figure sorts last either way; ties go by key, so a page boundary
 * never moves between loads.
 */
export function stalenessPage<R extends StalenessRow>(
  rows: R[],
  p: StalenessParams,
  size = STALENESS_PAGE_SIZE,
): { rows: R[]; page: number; pages: number; total: number } {
  const sort = p.sort ?? 'staleness';
  const sign = stalenessDir(p) === 'asc' ? 1 : -1;
  const num = (a: number | null, b: number | null) =>
    a === null || b === null ? (a === null ? 1 : 0) - (b === null ? 1 : 0) : sign * (a - b);
  const byKey = (a: R, b: R) => a.key.localeCompare(b.key);
  const order =
    sort === 'name'
      ? (a: R, b: R) => sign * a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || byKey(a, b)
      : sort === 'days'
        ? (a: R, b: R) => num(a.days, b.days) || num(a.commits, b.commits) || byKey(a, b)
        : (a: R, b: R) => num(a.commits, b.commits) || num(a.days, b.days) || byKey(a, b);
  const sorted = [...rows].sort(order);
  const pages = Math.max(1, Math.ceil(sorted.length / size));
  const page = Math.min(p.page ?? 1, pages);
  return { rows: sorted.slice((page - 1) * size, page * size), page, pages, total: sorted.length };
}
