/**
 * The pieces of the GET filter forms (tier tables, records): a search box, a select
 * with "any" first, and Apply / Clear. Plain HTML so filtering works without
 * JavaScript and every choice lands in the URL.
 */
import Link from 'next/link';

// max-w-full: a select is as wide as its longest option (a finding code, a root's path); at
// 390 px it must shrink to the row instead of widening the page (docs/dashboard.md, "Layout at 390 px").
export const FILTER_FIELD =
  'max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900';
export const FILTER_LABEL =
  'flex max-w-full min-w-0 flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300';

/** Options as plain values (shown as they are) or `[value, label]` pairs. */
export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  options: readonly (string | readonly [string, string])[];
}) {
  return (
    <label className={FILTER_LABEL}>
      {label}
      <select name={name} aria-label={label} defaultValue={value ?? ''} className={FILTER_FIELD}>
        <option value="">any</option>
        {options.map((o) => {
          const [v, l] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={v} value={v}>
              {l}
            </option>
          );
        })}
      </select>
    </label>
  );
}

export function FilterSearch({ value, placeholder }: { value?: string; placeholder: string }) {
  return (
    <label className={FILTER_LABEL}>
      Search
      <input
        type="search"
        name="q"
        defaultValue={value ?? ''}
        placeholder={placeholder}
        className={`${FILTER_FIELD} w-64`}
      />
    </label>
  );
}

export function FilterButtons({ clearHref }: { clearHref: string }) {
  return (
    <>
      <button
        type="submit"
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
      >
        Apply
      </button>
      <Link href={clearHref} className="px-2 py-1.5 text-sm text-slate-600 hover:underline dark:text-slate-300">
        Clear
      </Link>
    </>
  );
}

/**
 * Finding class and Finding kind, the inbox's words and values (lib/web/queues.ts, one
 * vocabulary): the tier tabs and the records page show the same two selects.
 */
export function FindingFilters({
  cls,
  kind,
  kinds,
}: {
  cls?: string;
  kind?: string;
  /** The finding codes present, with how many rows hold each (findingKinds). */
  kinds: { code: string; memories: number }[];
}) {
  return (
    <>
      <FilterSelect
        name="cls"
        label="Finding class"
        value={cls}
        options={[
          ['credential', 'credential'],
          ['personal', 'personal data'],
        ]}
      />
      <FilterSelect
        name="kind"
        label="Finding kind"
        value={kind}
        options={kinds.map((k) => [k.code, `${k.code} (${k.memories.toLocaleString('en-US')})`] as const)}
      />
    </>
  );
}
