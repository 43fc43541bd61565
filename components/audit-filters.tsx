import Link from 'next/link';
import { ACTORS, AUDIT_ACTIONS } from '@/lib/audit/event';
import { MEMORY_TYPES } from '@/lib/trust/tiers';
import type { AuditParams } from '@/lib/report/filters';
import { AuditFilterForm } from '@/components/audit-filter-form';
import { clearedHref } from '@/lib/web/url-state';

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';
const label = 'flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300';

function Select({
  name,
  title,
  value,
  options,
}: {
  name: string;
  title: string;
  value?: string;
  options: { value: string; label: string }[];
}) {
  return (
    <label className={label}>
      {title}
      <select name={name} defaultValue={value ?? ''} className={field}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const opts = (list: readonly string[]) => list.map((v) => ({ value: v, label: v }));

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
      <Select name="action" title="Action" value={params.action} options={opts(AUDIT_ACTIONS)} />
      <Select name="actor" title="Actor" value={params.actor} options={opts(ACTORS)} />
      <Select name="machine" title="Machine" value={params.machine} options={opts(machines)} />
      <label className={label}>
        Memory
        <input
          type="search"
          name="memory"
          defaultValue={params.memory ?? ''}
          placeholder="part of a file name or record key"
          className={`${field} w-48`}
        />
      </label>
      <label className={label}>
        From
        <input type="date" name="from" defaultValue={params.from ?? ''} className={field} />
      </label>
      <label className={label}>
        To
        <input type="date" name="to" defaultValue={params.to ?? ''} className={field} />
      </label>
      <Select name="type" title="Type" value={params.type} options={opts(MEMORY_TYPES)} />
      {sources.length > 1 ? (
        <Select
          name="source"
          title="Root"
          value={params.source}
          options={sources.map((s) => ({ value: s.id, label: s.root }))}
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
