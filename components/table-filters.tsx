import Link from 'next/link';
import type { TableParams, TierParam } from '@/lib/url-state';
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

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';

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
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
        Search
        <input
          type="search"
          name="q"
          defaultValue={params.q ?? ''}
          placeholder="name, description, body"
          className={`${field} w-64`}
        />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
        Type
        <select name="type" defaultValue={params.type ?? ''} className={field}>
          <option value="">any</option>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
        Machine
        <select name="machine" defaultValue={params.machine ?? ''} className={field}>
          <option value="">any</option>
          {machines.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {sources.length > 1 ? (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
          Root
          <select name="source" defaultValue={params.source ?? ''} className={field}>
            <option value="">any</option>
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.root}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
        Finding
        <select name="finding" defaultValue={params.finding ?? ''} className={field}>
          <option value="">any</option>
          <option value="validate">format / structure</option>
          <option value="secret">secret</option>
          <option value="injection">injection</option>
        </select>
      </label>
      {STATUS[tier].length ? (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
          Status
          <select name="status" defaultValue={params.status ?? ''} className={field}>
            <option value="">any</option>
            {STATUS[tier].map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {params.verdict ? <input type="hidden" name="verdict" value={params.verdict} /> : null}
      {sources.length <= 1 && params.source ? <input type="hidden" name="source" value={params.source} /> : null}
      {params.sort ? <input type="hidden" name="sort" value={params.sort} /> : null}
      {params.dir ? <input type="hidden" name="dir" value={params.dir} /> : null}
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Apply
      </button>
      <Link href={base} className="px-2 py-1.5 text-sm text-slate-600 hover:underline dark:text-slate-300">
        Clear
      </Link>
    </form>
  );
}
