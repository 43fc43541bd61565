import { FilterButtons, FilterSearch, FilterSelect } from '@/components/ui/filter-form';
import { clearedHref } from '@/lib/web/url-state';
import {
  RECORD_CATEGORIES,
  RECORD_FINDINGS,
  RECORD_LAYOUTS,
  RECORD_SHAPES,
  RECORD_TIERS,
  type RecordParams,
} from '@/lib/web/record-url';
import { RECORD_FLAGS } from '@/lib/sources/record';

/** A plain GET form like the tier tables' (components/table-filters.tsx): every filter lands in the URL. */
export function RecordFilters({ params, sources }: { params: RecordParams; sources: { id: string; root: string }[] }) {
  return (
    <form action="/records" method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3">
      <FilterSearch value={params.q} placeholder="key, title, text" />
      <FilterSelect name="layout" label="Layout" value={params.layout} options={RECORD_LAYOUTS} />
      <FilterSelect name="tier" label="Tier" value={params.tier} options={RECORD_TIERS} />
      <FilterSelect name="flag" label="Flag" value={params.flag} options={RECORD_FLAGS} />
      <FilterSelect name="finding" label="Finding" value={params.finding} options={RECORD_FINDINGS} />
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
      {params.project ? <input type="hidden" name="project" value={params.project} /> : null}
      <FilterButtons clearHref={clearedHref('/records', params.project)} />
    </form>
  );
}
