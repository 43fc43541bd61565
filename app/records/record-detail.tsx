import Link from 'next/link';
import { freshContext } from '@/lib/server';
import { findRecord } from '@/lib/service/records/read';
import { recordHref, recordsHref } from '@/lib/web/record-url';
import { TierBadge } from '@/components/tier-badge';
import { FindingList } from '@/components/finding-list';
import { EmptyState } from '@/components/ui/empty-state';
import { FlagBadges, NativeState } from '@/components/records/flag-badges';
import { MaskedText } from '@/components/records/masked-text';
import { LayoutDetail } from '@/components/records/layout-detail';
import { TransitionControls } from '@/components/transition/transition-controls';
import { recordVerbs } from '@/components/transition/verbs';
import { RecordsLiveRefresh } from '@/components/records/records-live-refresh';
import { ConflictPair } from '@/components/records/conflict-pair';
import { conflictPartners, conflictSide } from '@/components/records/conflicts';
import { ResultBanner, type parseDone } from '@/components/transition/result-banner';
import { locationText, masker } from '@/components/records/record-view';
import { recordRootsToken } from './token';
import { HistoryTimeline } from '@/components/history-timeline';
import { recordHistory } from '@/lib/service/records/history';
import { guardEvent, textGuard } from '@/lib/report/redact';
import { title } from '@/components/title';

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section
      aria-label={title}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{title}</h2>
      {children}
    </section>
  );
}

/**
 * A record's detail (docs/records-pages.md): the one page a record has, at `/records/<id>`
 * and at `/memories/<id>` (any handle works wherever an id does; docs/dashboard.md).
 */
export function RecordDetail({ id, done }: { id: string; done: ReturnType<typeof parseDone> }) {
  const ctx = freshContext();
  const token = recordRootsToken(ctx);
  const found = findRecord(ctx, id);
  if (!found.ok) {
    return (
      <div>
        <RecordsLiveRefresh since={token} />
        <EmptyState title={found.code === 'ambiguous' ? 'More than one record has this key' : 'Record not found'}>
          {found.message}{' '}
          <Link href="/records" className="text-teal-700 hover:underline dark:text-teal-300">
            Browse all records
          </Link>
        </EmptyState>
      </div>
    );
  }
  const { source, record: r } = found;
  const mask = masker(ctx.owner());
  const reasons = Object.fromEntries(Object.entries(r.flagReasons).map(([k, v]) => [k, mask(v ?? '')]));
  const readOnly = source.adapter.readOnly ?? null;
  const verbs = recordVerbs(source.adapter.actions, r, readOnly, mask);
  const partners = r.flags.includes('conflict') ? conflictPartners(ctx, r) : [];
  const returnTo = recordHref(r.id);
  const heading = title(mask(r.title), 120) || mask(r.key);
  // A JSON Lines record holds every field on its one line: the location says it once.
  const oneLine = r.fields.every((f) => f.line === r.location.line);
  // The same query as `memtrust history ID` (docs/records.md, "History and reports"); free text guarded like the audit page.
  const guard = textGuard(ctx.owner());
  const events = recordHistory(ctx, source.id, r.key, 200).map((e) => guardEvent(guard, e));
  return (
    <div className="space-y-6">
      <RecordsLiveRefresh since={token} />
      <div>
        <nav className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          <Link href="/records" className="hover:underline">
            Records
          </Link>{' '}
          /{' '}
          <Link href={recordsHref({ layout: r.layout as never })} className="hover:underline">
            {r.layout}
          </Link>{' '}
          / <MaskedText text={mask(r.key)} />
        </nav>
        {done ? <ResultBanner result={done} className="mb-4" /> : null}
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">
            <MaskedText text={heading} />
          </h1>
          <TierBadge tier={r.tier} />
          <NativeState native={r.native} />
          {r.flags.length ? <FlagBadges flags={r.flags} reasons={reasons} /> : null}
        </div>
        <p className="mt-1 break-all font-mono text-xs text-slate-500 dark:text-slate-400" data-location="">
          {source.root}/{locationText(r)}
        </p>
      </div>

      {partners.length ? (
        <section aria-label="Contradiction" className="space-y-3">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-red-800 dark:text-red-300">
            Contradicts {partners.length === 1 ? 'another record' : `${partners.length} records`}
          </h2>
          {partners.map((o) => (
            <ConflictPair
              key={o.id}
              a={conflictSide(ctx, r, o, mask, locationText(r))}
              b={conflictSide(ctx, o, r, mask, locationText(o))}
              returnTo={returnTo}
            />
          ))}
        </section>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Actions">
            {readOnly ? (
              <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
                Read-only: {readOnly}. The commands to copy are below.
              </p>
            ) : null}
            <TransitionControls id={r.id} label={mask(r.key)} engine="record" verbs={verbs} returnTo={returnTo} />
          </Card>
          <Card title={source.adapter.label}>
            <LayoutDetail record={r} mask={mask} />
          </Card>
          <Card title="History">
            <HistoryTimeline events={events} externalEdit={null} />
          </Card>
          <Card title="Validator findings">
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
              secret-check and injection-check on the record&apos;s text
            </p>
            <FindingList findings={r.findings} passed="The secret and injection checks find nothing." />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Trust">
            <dl className="space-y-2 text-sm">
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Tier</dt>
                <dd>
                  <TierBadge tier={r.tier} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Native state (as the store writes it)</dt>
                <dd>
                  <NativeState native={r.native} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Flags</dt>
                <dd>
                  {r.flags.length === 0 ? (
                    'none'
                  ) : (
                    <ul className="space-y-1" aria-label="Flags">
                      {r.flags.map((f) => (
                        <li key={f} data-flag-reason={f}>
                          <span className="font-medium">{f}</span>: <MaskedText text={reasons[f] ?? ''} />
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Origin</dt>
                <dd>
                  <MaskedText text={mask(r.origin || 'none')} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Created · last verified</dt>
                <dd className="tabular-nums">
                  {r.createdAt ?? '—'} · {r.verifiedAt ?? '—'}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500 dark:text-slate-400">Location</dt>
                <dd className="break-all font-mono text-xs">{locationText(r)}</dd>
              </div>
            </dl>
            <Link
              href={`/audit?${new URLSearchParams({ memory: r.key, source: r.source }).toString()}`}
              className="mt-3 inline-block text-sm text-teal-700 hover:underline dark:text-teal-300"
            >
              Audit events of this record
            </Link>
          </Card>
          <Card title="Fields as stored">
            {r.fields.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">No fields.</p>
            ) : (
              <dl className="space-y-2 text-sm" aria-label="Fields as stored">
                {r.fields.map((f, i) => (
                  <div key={`${f.name}-${i}`}>
                    <dt className="font-mono text-xs text-slate-500 dark:text-slate-400">
                      {f.name}
                      {f.line && !oneLine ? (
                        <span className="ml-1 text-slate-500 dark:text-slate-400">line {f.line}</span>
                      ) : null}
                    </dt>
                    <dd className="break-words font-mono text-xs">
                      <MaskedText text={mask(f.value)} />
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
