import type { HistoryItem } from '@/db/queries/history';
import Link from 'next/link';
import { TierBadge } from './tier-badge';
import { UndoBatchButton } from './undo-batch-button';
import { shortBatch } from './format';
import { versionsHref } from './versions/version-format';

/** Audit events for one memory or record, plus the last external edit seen on disk; a record event shows the layout's own verb. */
export function HistoryTimeline({ events, externalEdit }: { events: HistoryItem[]; externalEdit: string | null }) {
  if (events.length === 0 && !externalEdit)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No recorded history yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5 dark:border-slate-700">
      {externalEdit ? (
        <li className="text-sm">
          <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full bg-slate-400" aria-hidden />
          <div className="font-medium">Edited outside memtrust</div>
          <div className="text-xs text-slate-600 dark:text-slate-400">{externalEdit}</div>
        </li>
      ) : null}
      {events.map((e) => (
        <li key={`${e.source}:${e.id}`} className="text-sm">
          <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full bg-teal-600" aria-hidden />
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium capitalize">{e.recordAction ?? e.action}</span>
            {e.actor === 'outside' ? (
              <span className="rounded bg-red-50 px-1.5 text-xs text-red-900 dark:bg-red-950 dark:text-red-100">
                outside memtrust
              </span>
            ) : null}
            {e.from ? <TierBadge tier={e.from} /> : null}
            {e.from || e.to ? <span aria-hidden>→</span> : null}
            {e.to ? <TierBadge tier={e.to} /> : null}
            {e.recovered ? (
              <span className="text-xs text-amber-700 dark:text-amber-300">(completed after an interruption)</span>
            ) : null}
          </div>
          <div className="text-xs text-slate-600 dark:text-slate-400">
            {e.at.replace('T', ' ').replace('Z', ' UTC')} · {e.machine} · {e.actor}
            {e.batch && e.actor === 'outside' ? (
              <>
                {' · '}
                <Link
                  href={versionsHref(`${e.source}:${e.memory}`)}
                  className="text-teal-700 underline dark:text-teal-300"
                >
                  versions and diff
                </Link>
              </>
            ) : e.batch ? (
              <>
                {' · '}
                <Link
                  href={`/batches/${encodeURIComponent(e.batch)}`}
                  className="font-mono text-teal-700 hover:underline dark:text-teal-300"
                >
                  batch {shortBatch(e.batch)}
                </Link>
              </>
            ) : null}
          </div>
          {/* Another program's change is no memtrust batch: Recover, not Undo, puts it back. */}
          {e.batch && e.actor !== 'outside' ? (
            <div className="mt-1">
              <UndoBatchButton batch={e.batch} compact label={e.action === 'undo' ? 'Redo batch' : undefined} />
            </div>
          ) : null}
          {e.reason ? <div className="mt-0.5">“{e.reason}”</div> : null}
          {e.findings.length ? (
            <ul className="mt-0.5 list-disc pl-5 text-xs">
              {e.findings.map((f, i) => (
                <li key={i}>
                  {f.message}
                  {f.line ? ` (line ${f.line})` : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
