import Link from 'next/link';
import { ACTORS, AUDIT_ACTIONS } from '@/lib/audit/event';
import { MEMORY_TYPES } from '@/lib/trust/tiers';
import type { AuditParams } from '@/lib/report/filters';
import { AuditFilterForm } from '@/components/audit-filter-form';
import { clearedHref } from '@/lib/web/url-state';
import { FILTER_FIELD, FILTER_LABEL, FilterSelect } from '@/components/ui/filter-form';

/**
 * A plain GET form: works without JavaScript, every filter lands in the URL
 * (bookmarkable, survives reload), and applying it starts again at page 1.
 */
export function AuditFilters({
  base,
  params,
  machines,
  sources,
}: {
  base: string;
  params: AuditParams;
  machines: string[];
  sources: { id: string; root: string }[];
}) {
  return (
    <AuditFilterForm action={base}>
      <FilterSelect name="action" label="Action" value={params.action} options={AUDIT_ACTIONS} />
      <FilterSelect name="actor" label="Actor" value={params.actor} options={ACTORS} />
      <FilterSelect name="machine" label="Machine" value={params.machine} options={machines} />
      <label className={FILTER_LABEL}>
        Memory
        <input
          type="search"
          name="memory"
          defaultValue={params.memory ?? ''}
          placeholder="part of a file name or record key"
          className={`${FILTER_FIELD} w-48`}
        />
      </label>
      <label className={FILTER_LABEL}>
        From
        <input type="date" name="from" defaultValue={params.from ?? ''} className={FILTER_FIELD} />
      </label>
      <label className={FILTER_LABEL}>
        To
        <input type="date" name="to" defaultValue={params.to ?? ''} className={FILTER_FIELD} />
      </label>
      <FilterSelect name="type" label="Type" value={params.type} options={MEMORY_TYPES} />
      {sources.length > 1 ? (
        <FilterSelect
          name="source"
          label="Root"
          value={params.source}
          options={sources.map((s) => [s.id, s.root] as const)}
        />
      ) : null}
      {sources.length <= 1 && params.source ? <input type="hidden" name="source" value={params.source} /> : null}
      {params.project ? <input type="hidden" name="project" value={params.project} /> : null}
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Apply
      </button>
      <Link
        href={clearedHref(base, params.project)}
        className="px-2 py-1.5 text-sm text-slate-600 hover:underline dark:text-slate-300"
      >
        Clear
      </Link>
    </AuditFilterForm>
  );
}
