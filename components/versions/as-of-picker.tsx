/**
 * The "as of" picker of the tier tables (docs/versions.md, "As of"): a GET form, so the time
 * is in the URL (`?asOf=`) and a reload keeps the past view. Times are UTC.
 */
import Link from 'next/link';
import { asOfField } from '@/lib/web/as-of-param';

export function AsOfPicker({ base, at, source }: { base: string; at: Date | null; source?: string }) {
  return (
    <form method="get" action={base} aria-label="Show as of a time" className="flex flex-wrap items-end gap-2 text-sm">
      {source ? <input type="hidden" name="source" value={source} /> : null}
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
        As of (UTC)
        <input
          type="datetime-local"
          name="asOf"
          required
          defaultValue={at ? asOfField(at) : ''}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
      </label>
      <button
        type="submit"
        className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        Show as of
      </button>
      {at ? (
        <Link href={base} className="px-2 py-1.5 text-teal-700 hover:underline dark:text-teal-300">
          Back to now
        </Link>
      ) : null}
    </form>
  );
}
