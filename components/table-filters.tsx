import { FilterButtons, FilterSearch, FilterSelect } from '@/components/ui/filter-form';
import { clearedHref, type TableParams, type TierParam } from '@/lib/web/url-state';
import { MEMORY_TYPES } from '@/lib/trust/tiers';

const STATUS: Record<TierParam, { value: string; label: string }[]> = {
  verified: [{ value: 'stale', label: 'Stale (> 90 days)' }],
  inferred: [
    { value: 'due', label: 'Awaiting review' },
    { value: 'observing', label: 'Still observing' },
    { value: 'backfill', label: 'No trust-level' },
  ],
  quarantined: [
    { value: 'passive', label: 'Passive (day 0–30)' },
    { value: 'quarantine-audit', label: 'Audit candidate (31–90)' },
    { value: 'archive-candidates', label: 'Archive candidate (91+)' },
    { value: 'conflicts', label: 'Conflicts' },
  ],
  archived: [],
  all: [
    { value: 'review', label: 'Review queue' },
    { value: 'conflicts', label: 'Conflicts' },
    { value: 'backfill', label: 'No trust-level' },
  ],
};

/** A plain GET form: works without JavaScript, and every filter lands in the URL. */
export function TableFilters({
  base,
  tier,
  params,
  machines,
  sources,
}: {
  base: string;
  tier: TierParam;
  params: TableParams;
  machines: string[];
  sources: { id: string; root: string }[];
}) {
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
      <FilterSelect
        name="finding"
        label="Finding"
        value={params.finding}
        options={[
          ['validate', 'format / structure'],
          ['secret', 'secret'],
          ['injection', 'injection'],
        ]}
      />
      <FilterSelect
        name="flag"
        label="Origin"
        value={params.flag}
        options={[
          ['untrusted-origin', 'untrusted origin'],
          ['user-requested', 'user-requested'],
        ]}
      />
      {STATUS[tier].length ? (
        <FilterSelect
          name="status"
          label="Status"
          value={params.status}
          options={STATUS[tier].map((s) => [s.value, s.label] as const)}
        />
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
