/** Skeleton shown while a page's data loads (server components stream behind it). */
export default function Loading() {
  return (
    <div role="progressbar" aria-busy="true" aria-label="Loading" className="space-y-4">
      <div className="h-8 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-24 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
        ))}
      </div>
      <div className="h-64 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
