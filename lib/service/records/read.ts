// TEMPORARY (recpages): replaced by recsvc/recwrite at merge
/**
 * Stand-in for recsvc's record reads with the signatures of the agreed API: reads
 * every record root through its adapter, uncached, and filters in memory. Only the
 * pages of recpages use it until the real module merges.
 */
import type { LayoutRecord, ReadProblem } from '../../sources/record';
import type { Finding } from '../../validators/types';
import type { SourceInfo } from '../../sources';
import type { ServiceContext } from '../context';
import { secretCheck } from '../../validators/secrets';
import { injectionCheck } from '../../validators/injection';

export interface RecordView extends LayoutRecord {
  source: string;
  findings: Finding[];
}

export interface RecordFilter {
  source?: string;
  layout?: string;
  tier?: string;
  flag?: string;
  q?: string;
  offset?: number;
  limit?: number;
}

export function readSourceRecords(ctx: ServiceContext, source: SourceInfo): { records: RecordView[]; problems: ReadProblem[]; warnings: string[]; error: string | null } {
  if (!source.records) return { records: [], problems: [], warnings: [], error: 'not a record root' };
  if (source.error) return { records: [], problems: [], warnings: [], error: source.error };
  const r = source.records.read(source.root, { sourceId: source.id, now: ctx.now() });
  const owner = ctx.owner();
  const records = r.records.map((rec) => {
    const bytes = Buffer.from(rec.text, 'utf8');
    const findings = [...secretCheck(bytes, owner).findings, ...injectionCheck(bytes).findings];
    return { ...rec, source: source.id, findings };
  });
  return { records, problems: r.problems, warnings: r.warnings, error: null };
}

export function listRecords(
  ctx: ServiceContext,
  filter: RecordFilter = {},
): { items: RecordView[]; total: number; problems: (ReadProblem & { source: string })[]; warnings: { source: string; warning: string }[] } {
  const all: RecordView[] = [];
  const problems: (ReadProblem & { source: string })[] = [];
  const warnings: { source: string; warning: string }[] = [];
  for (const s of ctx.recordSources) {
    if (filter.source && s.id !== filter.source) continue;
    const r = readSourceRecords(ctx, s);
    all.push(...r.records);
    problems.push(...r.problems.map((p) => ({ ...p, source: s.id })));
    warnings.push(...r.warnings.map((w) => ({ source: s.id, warning: w })));
    if (r.error) warnings.push({ source: s.id, warning: r.error });
  }
  const q = filter.q?.toLowerCase();
  const hit = all.filter(
    (r) =>
      (!filter.layout || r.layout === filter.layout) &&
      (!filter.tier || r.tier === filter.tier) &&
      (!filter.flag || r.flags.includes(filter.flag as never)) &&
      (!q || r.key.toLowerCase().includes(q) || r.title.toLowerCase().includes(q) || r.text.toLowerCase().includes(q)),
  );
  const offset = filter.offset ?? 0;
  return { items: hit.slice(offset, offset + (filter.limit ?? 50)), total: hit.length, problems, warnings };
}

export function findRecord(ctx: ServiceContext, idOrKey: string): { ok: true; source: SourceInfo; record: RecordView } | { ok: false; code: 'not-found' | 'ambiguous'; message: string } {
  const found: { source: SourceInfo; record: RecordView }[] = [];
  for (const s of ctx.recordSources) {
    for (const record of readSourceRecords(ctx, s).records) if (record.id === idOrKey || record.key === idOrKey) found.push({ source: s, record });
  }
  if (found.length === 0) return { ok: false, code: 'not-found', message: `${idOrKey}: no such record` };
  const exact = found.filter((f) => f.record.id === idOrKey);
  if (exact.length === 1) return { ok: true, ...exact[0]! };
  if (found.length > 1) return { ok: false, code: 'ambiguous', message: `${idOrKey}: ${found.length} records have this key; use the full id` };
  return { ok: true, ...found[0]! };
}
