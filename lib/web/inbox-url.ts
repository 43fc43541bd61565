/**
 * The review inbox's state, all of it in the URL (filters, sort, page, selected row):
 * parsed once with zod at the edge; malformed values are dropped, never an error page.
 */
import { z } from 'zod';
import { ORIGIN_FLAGS, SORTS } from '../../db/queries/memories';
import { AGES, INBOX_QUEUES, type InboxQuery } from '../../db/queries/inbox';
import { EFFECTIVE_TIERS, MEMORY_TYPES } from '../trust/tiers';
import { CHECKS } from '../validators/types';
import { hrefWith, opt, parseParams } from './url-state';

export const INBOX_PAGE_SIZES = [25, 50, 100, 200] as const;

export const InboxParams = z.object({
  q: opt(z.string().max(200)),
  source: opt(z.string().max(100)),
  /** The project filter (lib/service/project-filter.ts): a project's path, or `user`. */
  project: opt(z.string().max(4096)),
  /** A layout name (lib/sources/record.ts LAYOUT_NAMES, or a registered test layout). */
  layout: opt(z.string().regex(/^[a-z][a-z0-9-]{0,40}$/)),
  type: opt(z.enum(MEMORY_TYPES)),
  tier: opt(z.enum(EFFECTIVE_TIERS)),
  cls: opt(z.enum(['credential', 'personal'])),
  finding: opt(z.enum(CHECKS)),
  /** An origin flag (docs/origin.md "In the index"). */
  flag: opt(z.enum(ORIGIN_FLAGS)),
  kind: opt(z.string().regex(/^[a-z0-9._-]{1,80}$/)),
  age: opt(z.enum(AGES)),
  queue: opt(z.enum(INBOX_QUEUES)),
  sort: opt(z.enum(SORTS)),
  dir: opt(z.enum(['asc', 'desc'])),
  page: opt(z.coerce.number().int().min(1).max(100_000)),
  size: opt(
    z.coerce
      .number()
      .int()
      .refine((n) => (INBOX_PAGE_SIZES as readonly number[]).includes(n)),
  ),
  /** The selected row (memory key `<source>:<relPath>`), shown in the preview pane. */
  sel: opt(z.string().max(600)),
});
export type InboxParams = z.infer<typeof InboxParams>;

export function parseInboxParams(raw: Record<string, string | string[] | undefined>): InboxParams {
  return parseParams(InboxParams, raw);
}

export function toInboxQuery(p: InboxParams): InboxQuery {
  const size = p.size ?? 50;
  return {
    q: p.q,
    source: p.source,
    layout: p.layout,
    type: p.type,
    tier: p.tier,
    cls: p.cls,
    finding: p.finding,
    flag: p.flag,
    kind: p.kind,
    age: p.age,
    queue: p.queue ?? 'inbox',
    sort: p.sort ?? 'name',
    dir: p.dir ?? 'asc',
    limit: size,
    offset: ((p.page ?? 1) - 1) * size,
  };
}

/** The same view with some parameters changed (undefined removes one). */
export function inboxHref(
  p: InboxParams,
  change: Partial<Record<keyof InboxParams, string | number | undefined>>,
): string {
  return hrefWith('/review', p, change);
}
