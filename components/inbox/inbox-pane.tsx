import Link from 'next/link';
import type { InboxPane as Pane } from '@/lib/service/index/inbox';
import { TierBadge } from '../tier-badge';
import { FindingList } from '../finding-list';
import { MemoryBody } from '../memory-body';
import { TransitionControls } from '../transition/transition-controls';
import { memoryVerbs, recordVerbs } from '../transition/verbs';
import { memoryHref } from '../format';
import { recordHref } from '@/lib/web/record-url';
import { title } from '@/components/title';

/** The preview pane: what the memory says (masked as the index stores it), its findings, its actions. */
export function InboxPane({ pane }: { pane: Pane }) {
  const m = pane.item;
  const rec = pane.record;
  // A record's detail is its record page; its verbs go through the record actions (docs/review-inbox.md).
  const href = rec ? recordHref(m.id) : memoryHref(m.source, m.filename);
  return (
    <aside
      aria-label="Preview"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <TierBadge tier={m.tier} />
          {m.type ? <span className="text-xs text-slate-600 dark:text-slate-400">{m.type}</span> : null}
          {m.flagged ? (
            <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-900 dark:bg-red-950 dark:text-red-100">
              flagged
            </span>
          ) : null}
        </div>
        <h2 className="mt-1 min-w-0 text-lg font-semibold leading-snug [overflow-wrap:anywhere]">
          <Link href={href} className="hover:underline">
            {title(m.name) || m.filename}
          </Link>
        </h2>
        {m.description ? <p className="text-sm text-slate-700 dark:text-slate-300">{m.description}</p> : null}
        <p className="mt-1 break-all font-mono text-[11px] text-slate-500 dark:text-slate-400">{m.relPath}</p>
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-xs text-slate-600 dark:text-slate-400">
          {pane.lifecycle.map((l) => (
            <li key={l}>{l}</li>
          ))}
          {m.quarantineReason ? <li>quarantine reason: {m.quarantineReason}</li> : null}
        </ul>
      </div>
      {rec ? (
        <TransitionControls
          key={m.id}
          id={m.id}
          label={m.filename}
          engine="record"
          verbs={recordVerbs(rec.layoutActions, rec, rec.readOnly, (x) => x)}
          size="sm"
        />
      ) : (
        <TransitionControls
          key={m.id}
          id={m.id}
          label={m.name || m.filename}
          engine="memory"
          verbs={memoryVerbs(pane.actions, m.flagged)}
          repair={m.tier === 'quarantined'}
          size="sm"
        />
      )}
      <section>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Findings</h3>
        {/* A record's text gets the secret and injection checks only (docs/records.md "Reading"). */}
        <FindingList findings={pane.findings} {...(rec ? { passed: 'No secret or injection finding.' } : {})} />
      </section>
      <section>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Body</h3>
        <div className="max-h-[28rem] overflow-y-auto rounded-md border border-slate-100 p-2 dark:border-slate-800">
          {pane.binary ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">A binary file: its bytes are not shown.</p>
          ) : (
            <MemoryBody text={pane.body} />
          )}
        </div>
      </section>
    </aside>
  );
}
