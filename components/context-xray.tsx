/** The Context X-ray's per-root parts: MEMORY.md as loaded (the cut drawn) and the memory table. */
import Link from 'next/link';
import type { ContextRootPlan, ContextRow, RowState } from '@/lib/trust/context';
import type { IndexLineView } from '@/lib/trust/index-limits';
import { indexSummary, rowGesture, STATE_LABEL } from '@/lib/service/session/context-xray';
import { TierBadge } from '@/components/tier-badge';

const STATE_STYLE: Record<RowState, string> = {
  loaded: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  'over-budget': 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  cut: 'bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
  'not-indexed': 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  withheld: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  quarantined: 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200',
  archived: 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
  conflict: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  unreadable: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
};

export function StateBadge({ state }: { state: RowState }) {
  return (
    <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>
      {STATE_LABEL[state]}
    </span>
  );
}

/** Every MEMORY.md line, numbered, with the line where Claude Code stops loading drawn across. */
export function IndexAsLoaded({ root }: { root: ContextRootPlan }) {
  const view = root.index;
  const states = new Map(root.rows.filter((r) => r.indexLine !== null).map((r) => [r.indexLine!, r.state]));
  const credential = new Set(root.indexCredentialLines);
  // A long index opens a few lines above the cut, so the cut is in view; the lines before fold away.
  const fold = view && view.firstCutLine !== null && view.firstCutLine > 12 ? view.firstCutLine - 6 : 0;
  const limit = view?.limits.by[view.limits.by.length - 1] === 'bytes' ? 'the 25,000-byte limit' : 'the 200-line limit';
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="index-summary">
        {indexSummary(root)}
      </p>
      {view ? (
        <>
          {fold > 0 ? (
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer text-slate-600 dark:text-slate-400">
                Lines 1–{fold} (loaded; show them)
              </summary>
              <ol
                aria-label="MEMORY.md lines before the cut"
                className="mt-1 max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white font-mono dark:border-slate-800 dark:bg-slate-900"
              >
                {view.lines.slice(0, fold).map((l) => (
                  <IndexLine
                    key={l.n}
                    l={l}
                    cutAt={view.firstCutLine}
                    limit={limit}
                    states={states}
                    credential={credential}
                  />
                ))}
              </ol>
            </details>
          ) : null}
          <ol
            aria-label="MEMORY.md as loaded"
            start={fold + 1}
            className="mt-2 max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white font-mono text-xs dark:border-slate-800 dark:bg-slate-900"
          >
            {view.lines.slice(fold).map((l) => (
              <IndexLine
                key={l.n}
                l={l}
                cutAt={view.firstCutLine}
                limit={limit}
                states={states}
                credential={credential}
              />
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}

function IndexLine({
  l,
  cutAt,
  limit,
  states,
  credential,
}: {
  l: IndexLineView;
  cutAt: number | null;
  limit: string;
  states: Map<number, RowState>;
  credential: Set<number>;
}) {
  return (
    <li>
      {cutAt === l.n ? (
        <div
          role="separator"
          aria-label={`cut at line ${l.n}`}
          className="border-y-2 border-dashed border-red-500 bg-red-50 px-3 py-1 font-sans text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          ✂ Claude Code stops loading here (line {l.n}: {limit}) — everything below is not seen
        </div>
      ) : null}
      <div
        className={`flex gap-3 px-3 py-0.5 text-xs ${l.state === 'cut' ? 'bg-slate-50 text-slate-400 line-through decoration-slate-300 dark:bg-slate-950 dark:text-slate-600' : ''}`}
      >
        <span className="w-8 shrink-0 select-none text-right tabular-nums text-slate-400">{l.n}</span>
        <span className="min-w-0 flex-1 truncate" title={l.text}>
          {l.text || '\u00a0'}
        </span>
        {credential.has(l.n) ? <StateBadge state="withheld" /> : null}
        {l.state === 'partial' ? <span className="text-xs text-orange-700">partly loaded</span> : null}
        {states.get(l.n) ? <StateBadge state={states.get(l.n)!} /> : null}
      </div>
    </li>
  );
}

const ROW_LIMIT = 500;

/** `rows`: the root's rows in table order (orderedRows), computed once by the page with its plan. */
export function RootRows({ root, rows }: { root: ContextRootPlan; rows: ContextRow[] }) {
  if (rows.length === 0) return <p className="mt-3 text-sm text-slate-500">No memories.</p>;
  return (
    <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="min-w-full divide-y divide-slate-200 bg-white text-sm dark:divide-slate-800 dark:bg-slate-900">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500 dark:bg-slate-950 dark:text-slate-400">
          <tr>
            <th className="px-3 py-2">Memory</th>
            {root.layout === 'claude-code' ? (
              <th className="px-3 py-2">Line</th>
            ) : (
              <th className="px-3 py-2 text-right">Chars</th>
            )}
            <th className="px-3 py-2">State</th>
            <th className="px-3 py-2">Tier</th>
            <th className="px-3 py-2">Why</th>
            <th className="px-3 py-2">What would change it</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.slice(0, ROW_LIMIT).map((r) => {
            const g = rowGesture(r);
            return (
              <tr key={r.id + r.state} data-state={r.state}>
                <td className="px-3 py-1.5">
                  <Link
                    href={`/memories/${encodeURIComponent(r.id)}`}
                    className="font-mono text-xs text-teal-700 hover:underline dark:text-teal-300"
                  >
                    {r.filename}
                  </Link>
                  {r.flags.length ? <span className="ml-2 text-xs text-slate-500">{r.flags.join(' · ')}</span> : null}
                </td>
                {root.layout === 'claude-code' ? (
                  <td className="px-3 py-1.5 tabular-nums">{r.indexLine ?? '—'}</td>
                ) : (
                  <td className="px-3 py-1.5 text-right tabular-nums">
                    {r.chars ? r.chars.toLocaleString('en-US') : '—'}
                  </td>
                )}
                <td className="px-3 py-1.5">
                  <StateBadge state={r.state} />
                </td>
                <td className="px-3 py-1.5">
                  <TierBadge tier={r.tier} />
                </td>
                <td className="px-3 py-1.5 text-xs text-slate-600 dark:text-slate-400">{r.note}</td>
                <td className="px-3 py-1.5 text-xs">
                  {g ? (
                    g.href ? (
                      <Link href={g.href} className="text-teal-700 hover:underline dark:text-teal-300">
                        {g.label}
                      </Link>
                    ) : (
                      g.label
                    )
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                  {g?.cli ? <code className="ml-2 font-mono text-[11px] text-slate-500">{g.cli}</code> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > ROW_LIMIT ? (
        <p className="px-3 py-2 text-xs text-slate-500">
          … {rows.length - ROW_LIMIT} more rows: <code className="font-mono">npx memtrust context --explain</code>{' '}
          prints them all.
        </p>
      ) : null}
    </div>
  );
}
