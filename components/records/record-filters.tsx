import Link from 'next/link';
import { RECORD_FLAGS } from '@/lib/sources/record';
import { RECORD_CATEGORIES, RECORD_LAYOUTS, RECORD_SHAPES, RECORD_TIERS, type RecordParams } from '@/lib/record-url';

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';
const label = 'flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300';

/** A plain GET form like the tier tables' (components/table-filters.tsx): every filter lands in the URL. */
export function RecordFilters({ params, sources }: { params: RecordParams; sources: { id: string; root: string }[] }) {
  return (
    <form action="/records" method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3">
      <label className={label}>
        Search
        <input
          type="search"
          name="q"
          defaultValue={params.q ?? ''}
          placeholder="key, title, text"
          className={`${field} w-64`}
        />
      </label>
      <label className={label}>
        Layout
        <select name="layout" defaultValue={params.layout ?? ''} className={field}>
          <option value="">any</option>
          {RECORD_LAYOUTS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Tier
        <select name="tier" defaultValue={params.tier ?? ''} className={field}>
          <option value="">any</option>
          {RECORD_TIERS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Flag
        <select name="flag" defaultValue={params.flag ?? ''} className={field}>
          <option value="">any</option>
          {RECORD_FLAGS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Category
        <select name="category" defaultValue={params.category ?? ''} className={field}>
          <option value="">any</option>
          {RECORD_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Shape
        <select name="shape" defaultValue={params.shape ?? ''} className={field}>
          <option value="">any</option>
          {RECORD_SHAPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {sources.length > 1 ? (
        <label className={label}>
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
      ) : params.source ? (
        <input type="hidden" name="source" value={params.source} />
      ) : null}
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Apply
      </button>
      <Link href="/records" className="px-2 py-1.5 text-sm text-slate-600 hover:underline dark:text-slate-300">
        Clear
      </Link>
    </form>
  );
}
