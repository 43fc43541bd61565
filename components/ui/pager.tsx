import Link from 'next/link';

const STEP = 'rounded-md px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800';

/**
 * Previous / where you are / Next under a paged table (`nav` "Pages"); nothing when there is
 * one page. With `total` and `size` it says which rows these are ("51–100 of 412 · page 2 of 9").
 * `href` gives each page's URL, so the page number stays in the URL with the table's other state.
 */
export function Pager({
  page,
  pages,
  href,
  total,
  size,
  className = 'mt-4',
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  total?: number;
  size?: number;
  className?: string;
}) {
  if (pages <= 1) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    <nav aria-label="Pages" className={`${className} flex items-center justify-between text-sm`}>
      {page > 1 ? (
        <Link href={href(page - 1)} className={STEP}>
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-600 dark:text-slate-400">
        {total !== undefined && size
          ? `${n((page - 1) * size + 1)}–${n(Math.min(total, page * size))} of ${n(total)} · page ${page} of ${n(pages)}`
          : `Page ${page} of ${n(pages)}`}
      </span>
      {page < pages ? (
        <Link href={href(page + 1)} className={STEP}>
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
