/** A contradiction side by side: both statements, evidence, confidence, dates and the conflict note; "keep this one" on either side. */
import Link from 'next/link';
import { TierBadge } from '@/components/tier-badge';
import { recordHref } from '@/lib/web/record-url';
import type { ConflictSide } from './conflicts';
import { NativeState } from './flag-badges';
import { MaskedText } from './masked-text';
import { KeepOneButton, PairKeep } from '@/components/transition/keep-one';
import { CopyCommand } from './copy-command';

function Side({ side, other, label }: { side: ConflictSide; other: ConflictSide; label: string }) {
  return (
    <article
      aria-label={`${label}: ${side.key}`}
      data-side={side.id}
      className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="mb-2 flex flex-wrap items-center gap-2">
        <Link
          href={recordHref(side.id)}
          className="font-mono text-sm font-medium text-teal-800 hover:underline dark:text-teal-300"
        >
          <MaskedText text={side.key} />
        </Link>
        <TierBadge tier={side.tier} />
        <NativeState native={side.native} />
      </header>
      <p className="mb-3 text-base" data-statement="">
        <MaskedText text={side.statement} />
      </p>
      <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-xs text-slate-500 dark:text-slate-400">Confidence</dt>
        <dd>{side.confidence}</dd>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Created</dt>
        <dd className="tabular-nums">{side.createdAt}</dd>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Where</dt>
        <dd className="break-all font-mono text-xs">{side.location}</dd>
      </dl>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        Evidence
      </h3>
      {side.evidence.length ? (
        <ul className="mb-3 list-disc space-y-0.5 pl-5 text-sm" aria-label={`Evidence of ${side.key}`}>
          {side.evidence.map((e, i) => (
            <li key={i} className="break-words">
              <MaskedText text={e} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">No evidence recorded.</p>
      )}
      <div className="mt-auto">
        {side.readOnly ? (
          side.commands.length ? (
            <div role="group" className="space-y-2" aria-label={`Commands for ${side.key}`}>
              {side.commands.map(([action, cmd]) => (
                <div key={action}>
                  <p className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-300">{action}</p>
                  <CopyCommand label={`${action} ${side.key}`} command={cmd} />
                </div>
              ))}
            </div>
          ) : (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              No command applies to this record in its state.
            </p>
          )
        ) : (
          <KeepOneButton
            keep={side.id}
            other={other.id}
            keepKey={side.key}
            otherKey={other.key}
            disabledReason={side.keepRefused}
          />
        )}
      </div>
    </article>
  );
}

export function ConflictPair({ a, b, returnTo }: { a: ConflictSide; b: ConflictSide; returnTo: string }) {
  const notes = [...new Set([a.conflictNote, b.conflictNote].filter(Boolean))];
  return (
    <section
      aria-label={`Contradiction between ${a.key} and ${b.key}`}
      data-pair={`${a.id} ${b.id}`}
      className="rounded-lg border border-red-200 bg-red-50/40 p-4 dark:border-red-900 dark:bg-red-950/20"
    >
      {notes.length ? (
        <div className="mb-3 text-sm">
          <span className="font-semibold">Conflict note: </span>
          {notes.map((n, i) => (
            <p key={i} className="inline" data-conflict-note="">
              <MaskedText text={n} />
              {i < notes.length - 1 ? ' / ' : ''}
            </p>
          ))}
        </div>
      ) : null}
      <PairKeep returnTo={returnTo}>
        <div className="grid gap-4 md:grid-cols-2">
          <Side side={a} other={b} label="First record" />
          <Side side={b} other={a} label="Second record" />
        </div>
      </PairKeep>
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
        {(a.readOnly ?? b.readOnly)
          ? `Read-only: ${a.readOnly ?? b.readOnly}. Resolve it with the commands above; this page refreshes when the store changes.`
          : 'Keeping one sets it active and expires the other, in one batch you can undo.'}
      </p>
    </section>
  );
}
