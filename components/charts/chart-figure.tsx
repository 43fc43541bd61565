import type { ChartSpec } from '@/lib/report/chart-model';

/** A chart with its title, a one-line explanation and the same numbers as a table (for screen readers and copying). */
export function ChartFigure({ spec, children }: { spec: ChartSpec; children: React.ReactNode }) {
  const titleId = `chart-${spec.id}-title`;
  // Horizontal bars grow with their categories; the others share one height.
  const height = spec.kind === 'hbars' ? Math.max(120, 26 * spec.x.length + 40) : 256;
  return (
    <figure
      aria-labelledby={titleId}
      data-chart={spec.id}
      // min-w-0: a grid item is as wide as its widest content by default; the table view scrolls
      // in its own frame instead of widening the page at 390 px (docs/dashboard.md, "Layout at 390 px").
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={titleId} className="font-semibold">
        {spec.title}
      </h2>
      <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">{spec.description}</p>
      {/* overflow-hidden: until the chart has measured its box it draws at its initial 600 px (spec-chart.tsx). */}
      <div style={{ height }} className="overflow-hidden text-slate-600 dark:text-slate-300">
        {children}
      </div>
      <details className="mt-2">
        <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:underline dark:text-slate-300">
          Table view
        </summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="w-full text-left text-xs">
            <caption className="sr-only">{spec.title}</caption>
            <thead className="text-slate-600 dark:text-slate-300">
              <tr>
                {spec.table.head.map((h) => (
                  <th
                    key={h}
                    scope="col"
                    className="border-b border-slate-200 px-2 py-1 font-medium dark:border-slate-700"
                  >
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {spec.table.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((c, j) =>
                    j === 0 ? (
                      <th
                        key={j}
                        scope="row"
                        className="border-b border-slate-100 px-2 py-1 font-normal dark:border-slate-800"
                      >
                        {c}
                      </th>
                    ) : (
                      <td
                        key={j}
                        className={`border-b border-slate-100 px-2 py-1 dark:border-slate-800 ${typeof c === 'number' ? 'text-right tabular-nums' : ''}`}
                      >
                        {c}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
