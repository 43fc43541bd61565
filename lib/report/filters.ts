/**
 * Audit-view filters kept in the URL (and given to `memtrust report` as flags):
 * parsed once with zod at the edge, so queries only ever see typed values.
 * One parser serves the audit page, the charts page and the report download.
 */
import { z } from 'zod';
import { ACTORS, AUDIT_ACTIONS } from '../audit/event';
import { MEMORY_TYPES } from '../trust/tiers';
import { parseDate } from '../trust/dates';

export const AUDIT_PAGE_SIZE = 50;

const opt = <T extends z.ZodTypeAny>(s: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : Array.isArray(v) ? v[0] : v), s.optional());
const day = z.string().refine((s) => parseDate(s) !== null, 'expected YYYY-MM-DD');

export const AuditParams = z.object({
  action: opt(z.enum(AUDIT_ACTIONS)),
  actor: opt(z.enum(ACTORS)),
  machine: opt(z.string().max(100)),
  memory: opt(z.string().max(200)),
  from: opt(day),
  to: opt(day),
  source: opt(z.string().max(100)),
  type: opt(z.enum(MEMORY_TYPES)),
  /** The project filter (lib/service/project-filter.ts): kept by every link, form and download of the page. */
  project: opt(z.string().max(4096)),
  page: opt(z.coerce.number().int().min(1).max(1_000_000)),
});
export type AuditParams = z.infer<typeof AuditParams>;

/** What the queries take: the same fields, dates as epoch-ms bounds. */
export interface AuditFilter {
  action?: string;
  actor?: string;
  machine?: string;
  /** Substring of the memory's filename (case-insensitive). */
  memory?: string;
  /** Inclusive lower bound, epoch ms. */
  fromMs?: number;
  /** Exclusive upper bound, epoch ms. */
  toMs?: number;
  source?: string;
  type?: string;
  /** Source ids of the configured roots: events of roots no longer configured are never shown (docs/audit-trail.md; docs/roots.md). */
  scope?: string[];
}

type Raw = Record<string, string | string[] | undefined>;

/** Unknown or malformed parameters are dropped, never an error page. */
export function parseAuditParams(raw: Raw): AuditParams {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(AuditParams.shape)) {
    const r = (schema as z.ZodTypeAny).safeParse(raw[key]);
    if (r.success && r.data !== undefined) out[key] = r.data;
  }
  return out as AuditParams;
}

export function searchParamsRecord(sp: URLSearchParams): Raw {
  const out: Raw = {};
  for (const [k, v] of sp) out[k] ??= v;
  return out;
}

export function toAuditFilter(p: AuditParams): AuditFilter {
  const from = p.from ? parseDate(p.from) : null;
  const to = p.to ? parseDate(p.to) : null;
  return {
    action: p.action,
    actor: p.actor,
    machine: p.machine,
    memory: p.memory,
    fromMs: from?.getTime(),
    // `to` names a whole day: everything up to the next midnight.
    toMs: to ? to.getTime() + 86_400_000 : undefined,
    source: p.source,
    type: p.type,
  };
}

/** The same view with some parameters changed (undefined removes one). */
export function auditHref(
  base: string,
  p: AuditParams,
  change: Partial<Record<keyof AuditParams, string | number | undefined>> = {},
): string {
  const merged: Record<string, string | number | undefined> = { ...p, ...change };
  const qs = new URLSearchParams();
  for (const key of Object.keys(AuditParams.shape)) {
    const v = merged[key];
    if (v !== undefined && v !== '') qs.set(key, String(v));
  }
  const s = qs.toString();
  return s ? `${base}?${s}` : base;
}

/** Human summary of the filters in force, for headings and reports ("action demote · type user"). */
export function describeFilters(p: AuditParams): string[] {
  const order: (keyof AuditParams)[] = ['source', 'type', 'action', 'actor', 'machine', 'memory', 'from', 'to'];
  return order.filter((k) => p[k] !== undefined).map((k) => `${k} ${String(p[k])}`);
}
