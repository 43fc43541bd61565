import Link from 'next/link';
import type { Sort } from '@/db/queries/memories';
import { ageBaseMs, flagWord, type ListRow } from '@/db/queries/record-rows';
import { recordHref } from '@/lib/web/record-url';
import { TierBadge, FindingBadges } from './tier-badge';
import { day, daysSince, memoryHref } from './format';
import { withParams, type TableParams } from '@/lib/web/url-state';
import { title } from '@/components/title';

const COLUMNS: { sort: Sort; label: string }[] = [
  { sort: 'name', label: 'Name' },
  { sort: 'type', label: 'Type' },
  { sort: 'machine', label: 'Machine' },
  { sort: 'created', label: 'Created' },
  { sort: 'verified', label: 'Last verified' },
  { sort: 'age', label: 'Age (days)' },
  { sort: 'findings', label: 'Findings' },
];

/** Server-rendered page of rows; header links toggle the sort, kept in the URL. */
export function MemoryTable({
  items,
  base,
  params,
  now,
  showTier,
  projects,
}: {
  /** Memories and records (db/queries/record-rows.ts): a record links to its record page. */
  items: ListRow[];
  base: string;
  params: TableParams;
  now: Date;
  showTier: boolean;
  /** Each root's project (source id → project path), given when the table mixes projects: one line under the name. */
  projects?: ReadonlyMap<string, string>;
}) {
  const sort = params.sort ?? 'name';
  const dir = params.dir ?? 'asc';
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
          <tr>
            {COLUMNS.map((c) => {
              const active = sort === c.sort;
              const next = active && dir === 'asc' ? 'desc' : 'asc';
              return (
                <th
                  key={c.sort}
                  scope="col"
                  className="px-3 py-2 font-medium"
                  aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <Link
                    href={withParams(base, params, { sort: c.sort, dir: next, page: undefined })}
                    className="hover:underline"
                  >
                    {c.label}
                    {active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </Link>
                </th>
              );
            })}
            {showTier ? (
              <th scope="col" className="px-3 py-2 font-medium">
                Tier
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((m) => {
            return (
              <tr key={m.key} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                <td className="max-w-md px-3 py-2">
                  <Link
                    href={m.kind === 'record' ? recordHref(m.id) : memoryHref(m.source, m.filename)}
                    className="font-medium text-teal-800 [overflow-wrap:anywhere] hover:underline dark:text-teal-300"
                  >
                    {title(m.name) || m.filename}
                  </Link>
                  <div className="truncate font-mono text-xs text-slate-500 dark:text-slate-400">
                    {m.kind === 'record' ? `${m.layout} · ` : ''}
                    {m.relPath}
                  </div>
                  {projects?.has(m.source) ? (
                    <div data-testid="row-project" className="truncate text-xs text-slate-500 dark:text-slate-400">
                      project <span className="font-mono">{projects.get(m.source)}</span>
                    </div>
                  ) : null}
                  {m.kind === 'record' && m.recordFlags?.length ? (
                    <div className="text-xs text-amber-800 dark:text-amber-300">
                      {m.recordFlags.map(flagWord).join(' · ')}
                    </div>
                  ) : null}
                  {m.conflict && m.kind !== 'record' ? (
                    <div className="text-xs font-medium text-red-700 dark:text-red-300">
                      conflict: also in another folder
                    </div>
                  ) : null}
                  {m.indexed === false ? (
                    <div className="text-xs text-amber-800 dark:text-amber-300">not named in MEMORY.md: not loaded</div>
                  ) : null}
                  {m.error ? <div className="text-xs text-red-700 dark:text-red-300">{m.error}</div> : null}
                </td>
                <td className="px-3 py-2">{m.type ?? '—'}</td>
                <td className="px-3 py-2">{m.sourceMachine ?? '—'}</td>
                <td className="px-3 py-2 tabular-nums">
                  {m.kind === 'record' && !m.createdAt ? '—' : day(m.createdMs)}
                </td>
                <td className="px-3 py-2 tabular-nums">{day(m.lastVerifiedMs)}</td>
                <td className="px-3 py-2 tabular-nums">{daysSince(ageBaseMs(m), now) ?? '—'}</td>
                <td className="px-3 py-2">
                  <FindingBadges checks={m.findingChecks} />
                </td>
                {showTier ? (
                  <td className="px-3 py-2">
                    <TierBadge tier={m.tier} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
