/**
 * The report's record-root sections (docs/records.md, "History and reports"): per record
 * root its layout, shape, records per tier, flag counts, read problems, conflicts and
 * events in the period. Counts only — no record text ever reaches a report; the root's
 * read error passes the same secret guard as every free text.
 */
import { auditWhere } from '../../db/queries/audit-events';
import { RECORD_ENTRY } from '../../db/queries/entry-kind';
import type { ServiceContext } from '../service/context';
import { recordSourceSummaries } from '../service/records/read';
import type { AuditFilter } from './filters';
import type { Guard } from './redact';
import type { RecordRootSection } from './types';

const TIERS = ['verified', 'inferred', 'quarantined', 'archived'] as const;

export function recordSections(ctx: ServiceContext, ef: AuditFilter, guard: Guard): RecordRootSection[] {
  const sqlite = ctx.handle.sqlite;
  const tierRows = sqlite.prepare(
    `SELECT tier, count(*) AS n FROM entries WHERE ${RECORD_ENTRY} AND source = ? GROUP BY tier`,
  );
  const flagRows = sqlite.prepare(
    `SELECT j.value AS flag, count(*) AS n FROM entries r, json_each(r.flags) j WHERE r.${RECORD_ENTRY} AND r.source = ? GROUP BY j.value ORDER BY j.value`,
  );
  return recordSourceSummaries(ctx)
    .filter((s) => !ef.source || s.source === ef.source)
    .sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0))
    .map((s) => {
      const tiers = { verified: 0, inferred: 0, quarantined: 0, archived: 0 };
      for (const r of tierRows.all(s.source) as { tier: string; n: number }[])
        if ((TIERS as readonly string[]).includes(r.tier)) tiers[r.tier as keyof typeof tiers] = r.n;
      const flags = Object.fromEntries(
        (flagRows.all(s.source) as { flag: string; n: number }[]).map((r) => [r.flag, r.n]),
      );
      const w = auditWhere({ ...ef, source: s.source });
      const events = (
        sqlite.prepare(`SELECT count(*) AS n FROM audit_events e ${w.sql}`).get(w.params) as { n: number }
      ).n;
      return {
        id: s.source,
        root: s.root,
        label: s.label,
        layout: s.layout,
        shape: s.shape,
        total: s.error ? 0 : s.count,
        tiers,
        flags,
        problems: s.problems,
        conflicts: flags.conflict ?? 0,
        events,
        error: s.error === null ? null : (guard(s.error) ?? null),
      };
    });
}
