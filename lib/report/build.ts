/**
 * Builds the report's data from the index and the context (clock, machine,
 * roots, owner). Same files + same MEMTRUST_NOW → the same data: every list has
 * a total order, the clock is ctx.now(), and no path but the configured roots
 * appears. Free text passes the secret guard; bodies are never read.
 */
import type { ServiceContext } from '../service/context';
import { type listMemories, listMemoriesAndRecords } from '../../db/queries/memories';
import type { ListRow } from '../../db/queries/record-rows';
import { auditActionCounts, auditEventsStable } from '../../db/queries/audit-events';
import { chartsData } from '../../db/queries/charts';
import { DAY_MS, isoNow, startOfUtcDay, utcDaysBetween } from '../trust/dates';
import { quarantineWindow } from '../trust/lifecycle';
import type { AuditFilter } from './filters';
import { guardReason, textGuard, type Guard } from './redact';
import { actionableFindings, tierCounts } from './queries';
import type { MemoryRef, QuarantineItem, ReportData, ReportOptions } from './types';
import { recordSections } from './records';
import { syncRecordIndex } from '../service/records/read';

export const DEFAULT_LIMIT = 500;
export const DEFAULT_PERIOD_DAYS = 90;

const iso = (ms: number) => isoNow(new Date(ms));

function refOf(guard: Guard, source: string, relPath: string, filename: string, name: string | null): MemoryRef {
  const file = guard(relPath) ?? relPath;
  return { id: file === relPath ? `${source}:${filename}` : `${source}:${file}`, source, file, name: guard(name) };
}

export function reportFilters(o: ReportOptions, sinceMs: number): Record<string, string> {
  const out: Record<string, string> = { since: iso(sinceMs) };
  if (o.untilMs !== undefined) out.until = iso(o.untilMs);
  for (const k of ['source', 'type', 'action', 'actor', 'machine', 'memory'] as const) if (o[k]) out[k] = o[k]!;
  return out;
}

export function buildReport(ctx: ServiceContext, o: ReportOptions = {}): ReportData {
  const sqlite = ctx.handle.sqlite;
  const now = ctx.now();
  const limit = o.limit ?? DEFAULT_LIMIT;
  const sinceMs = o.sinceMs ?? startOfUtcDay(now).getTime() - DEFAULT_PERIOD_DAYS * DAY_MS;
  const guard = textGuard(ctx.owner());
  const mf = { source: o.source, type: o.type };
  const ef: AuditFilter = {
    ...mf,
    action: o.action,
    actor: o.actor,
    machine: o.machine,
    memory: o.memory,
    fromMs: sinceMs,
    toMs: o.untilMs,
    // Record roots' events are part of the trail (docs/records.md, "History and reports").
    scope: [...ctx.sources, ...ctx.recordSources].map((s) => s.id),
  };
  // Records count beside memories (docs/records.md, "History and reports"): their roots read first.
  const live = syncRecordIndex(ctx);
  // The stale and review lists hold records too (by key and place: a record's statement never reaches a report).
  const withRecords = (q: Parameters<typeof listMemories>[1]) =>
    listMemoriesAndRecords(sqlite, { ...mf, ...q, limit }, live, now);
  const counts = tierCounts(sqlite, mf, now, live);

  const stale = withRecords({ queue: 'stale', sort: 'verified', dir: 'asc' });
  const due = withRecords({ queue: 'due', sort: 'created', dir: 'asc' });
  // Quarantined records are listed too, by id and place, with no days or window: a record has no
  // quarantine clock (its layout decides what comes next).
  const quarantined = withRecords({ tier: 'quarantined', sort: 'age', dir: 'asc' });
  const nameOf = (m: ListRow) => (m.kind === 'record' ? null : m.name);
  const findings = actionableFindings(sqlite, mf, limit);
  const events = auditEventsStable(sqlite, ef, limit);
  const charts = chartsData(sqlite, ef, now);
  const roots = [...ctx.sources].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));

  return {
    report: 'memtrust',
    version: 1,
    generatedAt: isoNow(now),
    machine: ctx.machine,
    roots: roots.map((s) => ({ id: s.id, root: s.root, kind: s.kind, error: s.error })),
    filters: reportFilters(o, sinceMs),
    period: { from: iso(sinceMs), to: iso(o.untilMs ?? now.getTime()) },
    ...counts,
    stale: {
      total: stale.total,
      items: stale.items.map((m) => ({
        ...refOf(guard, m.source, m.relPath, m.filename, nameOf(m)),
        lastVerified: m.lastVerified,
        days: m.lastVerifiedMs === null ? null : utcDaysBetween(new Date(m.lastVerifiedMs), now),
      })),
    },
    review: {
      total: due.total,
      items: due.items.map((m) => ({
        ...refOf(guard, m.source, m.relPath, m.filename, nameOf(m)),
        createdAt: iso(m.createdMs),
        days: Math.max(0, Math.floor((now.getTime() - m.createdMs) / DAY_MS)),
        basis: m.createdAt ? ('created-at' as const) : ('mtime' as const),
      })),
    },
    quarantine: {
      total: quarantined.total,
      items: quarantined.items.map((m): QuarantineItem => {
        if (m.kind === 'record')
          return {
            ...refOf(guard, m.source, m.relPath, m.filename, null),
            since: null,
            days: null,
            window: 'layout',
            reason: null,
          };
        const since = m.quarantineSinceMs ?? m.createdMs;
        const days = Math.max(0, utcDaysBetween(new Date(since), now));
        return {
          ...refOf(guard, m.source, m.relPath, m.filename, m.name),
          since: iso(since),
          days,
          window: quarantineWindow(days),
          reason: guardReason(guard, m.quarantineReason),
        };
      }),
    },
    findings: {
      categories: charts.findings,
      list: {
        total: findings.total,
        items: findings.items.map((f) => {
          const filename = f.id.slice(f.source.length + 1);
          return {
            ...refOf(guard, f.source, f.relPath, filename, f.name),
            tier: f.tier,
            check: f.check,
            code: f.code,
            label: f.label,
            line: f.line,
            message: guard(f.message) ?? '',
            class: f.class ?? null,
          };
        }),
      },
    },
    transitions: {
      byAction: auditActionCounts(sqlite, ef),
      list: {
        total: events.total,
        items: events.items.map((e) => ({
          at: e.at,
          machine: guard(e.machine) ?? '',
          actor: e.actor,
          action: e.action,
          source: e.source,
          memory: guard(e.memory) ?? '',
          from: e.from,
          to: e.to,
          reason: guardReason(guard, e.reason),
          findings: e.findings.length,
          recovered: e.recovered,
          ...(e.layout ? { layout: e.layout, recordAction: e.recordAction ?? e.action } : {}),
        })),
      },
    },
    records: recordSections(ctx, ef, guard),
    charts,
    limit,
  };
}
