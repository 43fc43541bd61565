import { FilterButtons, FilterSearch, FilterSelect, FindingFilters } from '@/components/ui/filter-form';
import { clearedHref, type TableParams, type TierParam } from '@/lib/web/url-state';
import { MEMORY_TYPES } from '@/lib/trust/tiers';
import { queueOptions } from '@/lib/web/queues';
import { RECORD_QUEUES } from '@/db/queries/record-rows';

/** The queues each tab offers (their words: lib/web/queues.ts); record-only ones when record roots are configured. */
const STATUS: Record<TierParam, string[]> = {
  verified: ['stale'],
  inferred: ['due', 'observing', 'backfill'],
  quarantined: ['passive', 'quarantine-audit', 'archive-candidates', 'conflicts'],
  archived: [],
  all: ['review', 'conflicts', 'backfill'],
};
const RECORD_STATUS: Record<TierParam, string[]> = {
  verified: ['contradictions', 'suspect'],
  inferred: ['contradictions', 'suspect', 'candidate', 'pending-human', 'write-rule'],
  quarantined: ['contradictions', 'write-rule'],
  archived: ['expired'],
  all: [...RECORD_QUEUES],
};

/** A plain GET form: works without JavaScript, and every filter lands in the URL. */
export function TableFilters({
  base,
  tier,
  params,
  machines,
  sources,
  records = false,
  kinds = [],
}: {
  base: string;
  tier: TierParam;
  params: TableParams;
  machines: string[];
  sources: { id: string; root: string }[];
  /** Record roots are configured: their record-only queues are offered too. */
  records?: boolean;
  /** The finding codes memories and records hold, with how many rows hold each (findingKinds). */
  kinds?: { code: string; memories: number }[];
}) {
  const queues = [...STATUS[tier], ...(records ? RECORD_STATUS[tier] : [])];
  return (
    <form action={base} method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3">
      <FilterSearch value={params.q} placeholder="name, description, body" />
      <FilterSelect name="type" label="Type" value={params.type} options={MEMORY_TYPES} />
      <FilterSelect name="machine" label="Machine" value={params.machine} options={machines} />
      {sources.length > 1 ? (
        <FilterSelect
          name="source"
          label="Root"
          value={params.source}
          options={sources.map((s) => [s.id, s.root] as const)}
        />
      ) : null}
      <FindingFilters cls={params.cls} kind={params.kind} kinds={kinds} />
      {/* The check of older links and the overview's cards (?finding=secret) keeps filtering. */}
      {params.finding ? <input type="hidden" name="finding" value={params.finding} /> : null}
      <FilterSelect
        name="flag"
        label="Origin"
        value={params.flag}
        options={[
          ['untrusted-origin', 'untrusted origin'],
          ['user-requested', 'user-requested'],
        ]}
      />
      {queues.length ? (
        <FilterSelect name="status" label="Queue" value={params.status} options={queueOptions(queues)} />
      ) : null}
      {params.verdict ? <input type="hidden" name="verdict" value={params.verdict} /> : null}
      {sources.length <= 1 && params.source ? <input type="hidden" name="source" value={params.source} /> : null}
      {params.sort ? <input type="hidden" name="sort" value={params.sort} /> : null}
      {params.dir ? <input type="hidden" name="dir" value={params.dir} /> : null}
      {params.project ? <input type="hidden" name="project" value={params.project} /> : null}
      <FilterButtons clearHref={clearedHref(base, params.project)} />
    </form>
  );
}
