import { FilterButtons, FilterSearch, FilterSelect, FindingFilters } from '@/components/ui/filter-form';
import { clearedHref } from '@/lib/web/url-state';
import {
  RECORD_CATEGORIES,
  RECORD_LAYOUTS,
  RECORD_PAGE_QUEUES,
  RECORD_SHAPES,
  RECORD_TIERS,
  type RecordParams,
} from '@/lib/web/record-url';
import { queueOptions } from '@/lib/web/queues';

/**
 * A plain GET form like the tier tables' (components/table-filters.tsx): every filter lands in
 * the URL, in the inbox's words (Queue, Finding class, Finding kind; docs/dashboard.md "Words").
 */
export function RecordFilters({
  params,
  sources,
  kinds = [],
}: {
  params: RecordParams;
  sources: { id: string; root: string }[];
  /** The finding codes the records hold, with how many records hold each. */
  kinds?: { code: string; memories: number }[];
}) {
  return (
    <form action="/records" method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3">
      <FilterSearch value={params.q} placeholder="key, title, text" />
      <FilterSelect name="layout" label="Layout" value={params.layout} options={RECORD_LAYOUTS} />
      <FilterSelect name="tier" label="Tier" value={params.tier} options={RECORD_TIERS} />
      <FilterSelect name="queue" label="Queue" value={params.queue} options={queueOptions(RECORD_PAGE_QUEUES)} />
      <FindingFilters cls={params.cls} kind={params.kind} kinds={kinds} />
      <FilterSelect name="category" label="Category" value={params.category} options={RECORD_CATEGORIES} />
      <FilterSelect name="shape" label="Shape" value={params.shape} options={RECORD_SHAPES} />
      {sources.length > 1 ? (
        <FilterSelect
          name="source"
          label="Root"
          value={params.source}
          options={sources.map((s) => [s.id, s.root] as const)}
        />
      ) : params.source ? (
        <input type="hidden" name="source" value={params.source} />
      ) : null}
      {params.flag ? <input type="hidden" name="flag" value={params.flag} /> : null}
      {params.finding ? <input type="hidden" name="finding" value={params.finding} /> : null}
      {params.project ? <input type="hidden" name="project" value={params.project} /> : null}
      <FilterButtons clearHref={clearedHref('/records', params.project)} />
    </form>
  );
}
