import Link from 'next/link';
import { Fragment } from 'react';
import type { IndexFileView as View } from '@/lib/service/claude/index-file';
import { TierBadge } from './tier-badge';
import { FindingList } from './finding-list';
import { memoryHref } from './format';

const LOAD: Record<string, string> = {
  loaded: '',
  partial: 'bg-amber-50 dark:bg-amber-950/40',
  cut: 'bg-slate-100 text-slate-500 dark:bg-slate-800/60 dark:text-slate-400',
};

/** An index file: its lines, what each names, its findings by line, and the load-limit cut drawn in. */
export function IndexFileView({ view }: { view: View }) {
  const withFindings = view.lines.filter((l) => l.findings.length > 0);
  const cutAt = view.lines.findIndex((l) => l.load !== 'loaded');
  return (
    <div className="space-y-6">
      <div>
        <nav className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          <Link href={`/tiers/all?source=${encodeURIComponent(view.source)}`} className="hover:underline">
            {view.root.split('/').slice(-2).join('/')}
          </Link>{' '}
          / {view.file}
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight">{view.file}</h1>
        <p className="mt-1 font-mono text-xs text-slate-500 dark:text-slate-400">
          {view.root}/{view.file}
        </p>
        <p className="mt-2 text-sm">
          The index every session loads first. {view.totalLines.toLocaleString('en-US')} lines,{' '}
          {view.totalBytes.toLocaleString('en-US')} bytes; Claude Code loads at most {view.maxLines} lines and{' '}
          {view.maxBytes.toLocaleString('en-US')} bytes.
        </p>
        {view.truncated ? (
          <p
            role="alert"
            className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            Over the{' '}
            {view.by
              .map((b) => (b === 'lines' ? `${view.maxLines}-line` : `${view.maxBytes.toLocaleString('en-US')}-byte`))
              .join(' and ')}{' '}
            limit: only lines 1–{view.keptLines} ({view.keptBytes.toLocaleString('en-US')} bytes) reach the session; the
            memories named below the cut are not loaded.
          </p>
        ) : (
          <p className="mt-2 text-sm text-emerald-800 dark:text-emerald-300">
            Within the load limits: every line reaches the session.
          </p>
        )}
      </div>

      {withFindings.length ? (
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">Findings by line</h2>
          <FindingList findings={withFindings.flatMap((l) => l.findings)} />
        </section>
      ) : null}

      <section className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm" aria-label={`${view.file} lines`}>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
            <tr>
              <th scope="col" className="w-12 px-2 py-2 text-right font-medium">
                Line
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                Text
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                Names
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                Findings
              </th>
            </tr>
          </thead>
          <tbody>
            {view.lines.map((l, i) => (
              <Fragment key={l.n}>
                {i === cutAt ? (
                  <tr key={`cut-${l.n}`} aria-label="Load limit cut">
                    <td
                      colSpan={4}
                      className="border-y-2 border-dashed border-red-500 bg-red-50 px-2 py-1 text-center text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200"
                    >
                      ✂ load limit — {l.load === 'partial' ? `cut inside line ${l.n}` : `nothing from line ${l.n} on`}{' '}
                      reaches the session
                    </td>
                  </tr>
                ) : null}
                <tr className={`align-top ${LOAD[l.load]}`} data-load={l.load}>
                  <td className="px-2 py-0.5 text-right font-mono text-xs tabular-nums text-slate-500">{l.n}</td>
                  <td className="max-w-2xl px-2 py-0.5 font-mono text-xs break-words whitespace-pre-wrap">
                    {l.text || ' '}
                  </td>
                  <td className="px-2 py-0.5 text-xs">
                    {l.target ? (
                      l.target.exists ? (
                        <span className="flex items-center gap-1">
                          <Link
                            href={memoryHref(view.source, l.target.filename)}
                            className="text-teal-800 hover:underline dark:text-teal-300"
                          >
                            {l.target.name ?? l.target.filename}
                          </Link>
                          {l.target.tier ? <TierBadge tier={l.target.tier} /> : null}
                        </span>
                      ) : (
                        <span className="text-red-800 dark:text-red-300">{l.target.filename} (no such file)</span>
                      )
                    ) : null}
                  </td>
                  <td className="px-2 py-0.5 text-xs">
                    {l.findings.map((f, k) => (
                      <div
                        key={k}
                        className={
                          f.check === 'secret'
                            ? 'text-red-800 dark:text-red-300'
                            : 'text-violet-800 dark:text-violet-300'
                        }
                      >
                        {f.message}
                      </div>
                    ))}
                  </td>
                </tr>
              </Fragment>
            ))}
          </tbody>
        </table>
      </section>

      {view.unlisted.length ? (
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">
            Not named in {view.file} ({view.unlisted.length}): never loaded
          </h2>
          <ul className="grid gap-1 text-sm sm:grid-cols-2">
            {view.unlisted.map((u) => (
              <li key={u.filename}>
                <Link
                  href={memoryHref(view.source, u.filename)}
                  className="text-teal-800 hover:underline dark:text-teal-300"
                >
                  {u.name ?? u.filename}
                </Link>{' '}
                <span className="font-mono text-xs text-slate-500">{u.filename}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
