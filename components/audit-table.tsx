import Link from 'next/link';
import type { AuditEventItem } from '@/db/queries/audit-events';
import { TierBadge } from '@/components/tier-badge';
import { memoryHref, shortBatch } from '@/components/format';
import { TEXT_WITHHELD } from '@/lib/report/redact';
import { recordHref } from '@/lib/web/record-url';
import { UndoBatchButton } from '@/components/undo-batch-button';
import { versionsHref } from '@/components/versions/version-format';

const ACTION_STYLE: Record<string, string> = {
  create: 'bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
  promote: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  reaffirm: 'bg-lime-50 text-lime-800 dark:bg-lime-950 dark:text-lime-200',
  demote: 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200',
  restore: 'bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  archive: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  backfill: 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  edit: 'bg-violet-50 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  undo: 'bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  // Changes made outside memtrust, and a kept version put back (docs/versions.md).
  deleted: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  rewritten: 'bg-orange-50 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
  added: 'bg-cyan-50 text-cyan-900 dark:bg-cyan-950 dark:text-cyan-200',
  recover: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
};

const Tier = ({ tier }: { tier: string | null }) =>
  tier ? <TierBadge tier={tier} /> : <span className="text-slate-400">—</span>;

/** One page of the merged timeline (all machines), newest first. Free text arrives already guarded. */
export function AuditTable({ items }: { items: AuditEventItem[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Audit events, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
          <tr>
            {[
              'When (UTC)',
              'Machine',
              'Actor',
              'Action',
              'Batch',
              'Memory or record',
              'From → to',
              'Reason',
              'Findings',
              'Recovered',
            ].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((e, i) => (
            <tr key={`${e.source}:${e.id}`} className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                <time dateTime={e.at}>{e.at.replace('T', ' ').replace(/:\d\dZ$/, '')}</time>
              </td>
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{e.machine}</td>
              <td className="px-3 py-2 whitespace-nowrap">{e.actor}</td>
              <td className="px-3 py-2">
                <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${ACTION_STYLE[e.action] ?? ''}`}>
                  {e.recordAction ?? e.action}
                </span>
              </td>
              <td className="px-3 py-2 text-xs whitespace-nowrap">
                {e.batch && e.actor === 'outside' ? (
                  // Another program's change is no memtrust batch: nothing to undo, its versions are kept.
                  <span className="font-mono text-slate-500" title={e.batch}>
                    {shortBatch(e.batch)}
                  </span>
                ) : e.batch ? (
                  <span className="flex flex-col items-start gap-1">
                    <Link
                      href={`/batches/${encodeURIComponent(e.batch)}`}
                      className="font-mono text-teal-800 hover:underline dark:text-teal-300"
                      title={e.batch}
                    >
                      {shortBatch(e.batch)}
                    </Link>
                    {/* One Undo per run of the same batch (docs/batches.md). */}
                    {items[i - 1]?.batch !== e.batch ? (
                      <UndoBatchButton batch={e.batch} compact label={e.action === 'undo' ? 'Redo batch' : undefined} />
                    ) : null}
                  </span>
                ) : null}
              </td>
              <td className="min-w-64 px-3 py-2 break-all">
                {e.memory === TEXT_WITHHELD ? (
                  <span className="italic text-slate-500">{e.memory}</span>
                ) : e.layout ? (
                  // A record event: the layout, then the key linking to the record's page.
                  <span className="flex flex-wrap items-center gap-1.5" data-record-event={e.layout}>
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                      {e.layout}
                    </span>
                    <Link
                      href={recordHref(`${e.source}:${e.memory}`)}
                      className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
                    >
                      {e.memory}
                    </Link>
                  </span>
                ) : (
                  <span className="flex flex-wrap items-center gap-1.5">
                    <Link
                      href={memoryHref(e.source, e.memory)}
                      className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
                    >
                      {e.memory}
                    </Link>
                    {e.actor === 'outside' ? (
                      <Link
                        href={versionsHref(`${e.source}:${e.memory}`)}
                        className="text-xs text-teal-800 hover:underline dark:text-teal-300"
                      >
                        versions
                      </Link>
                    ) : null}
                  </span>
                )}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                <Tier tier={e.from} />{' '}
                <span role="img" aria-label="to">
                  →
                </span>{' '}
                <Tier tier={e.to} />
              </td>
              <td className="min-w-48 max-w-xs px-3 py-2 text-slate-700 dark:text-slate-300">
                {e.reason ?? <span className="text-slate-400">—</span>}
              </td>
              <td className="max-w-sm px-3 py-2 text-xs">
                {e.findings.length === 0 ? (
                  <span className="text-slate-400">—</span>
                ) : (
                  <ul className="space-y-0.5">
                    {e.findings.map((f, i) => (
                      <li key={i}>
                        <span className="font-mono">{f.code}</span>
                        {f.line ? ` (line ${f.line})` : ''}: {f.message}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="px-3 py-2">
                {e.recovered ? (
                  <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                    recovered
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
