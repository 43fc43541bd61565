/**
 * The overview's first hour on a new root (docs/transition-ui.md "First hour"): the order
 * that works as numbered steps — allow your networks, preview the back-fill, review — and
 * the header's actions, where "Run audit…" is primary only while the audit would not
 * quarantine more than a quarter of any root. Data: lib/service/index/first-hour.ts.
 */
import Link from 'next/link';
import type { FirstHour } from '@/lib/service/index/first-hour';

const PRIMARY = 'rounded-md bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800';
const SECONDARY =
  'rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

const many = (n: number, one: string, more: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : more}`;

interface Step {
  title: string;
  href: string;
  action: string;
  text: string;
  done: boolean;
}

function stepsOf(f: FirstHour): Step[] {
  return [
    {
      title: 'Allow your networks',
      href: '/settings#allow',
      action: 'Allow networks…',
      text: f.privateAddresses
        ? `${many(f.privateAddresses, 'memory holds', 'memories hold')} private addresses. Allow your home and office networks once: an address inside them is no finding, and the audit does not quarantine it.`
        : f.allowedNetworks
          ? `${many(f.allowedNetworks, 'network', 'networks')} allowed; no private address outside them.`
          : 'No memory holds a private address.',
      done: f.privateAddresses === 0,
    },
    {
      title: 'Preview the back-fill',
      href: '/run/backfill',
      action: 'Preview back-fill…',
      text: f.backfill
        ? `${many(f.backfill, 'memory has', 'memories have')} no trust-level. The preview shows the tier each gets (a flagged memory stays inferred) and which need their frontmatter fixed by hand first; applied as one batch with Undo.`
        : 'Every memory has a trust-level.',
      done: f.backfill === 0,
    },
    {
      title: 'Review',
      // A credential in clear first: the inbox does not list a memory still in its observation.
      href: f.credentials ? '/tiers/all?cls=credential' : '/review',
      action: f.credentials ? 'Show them…' : 'Review…',
      text: [
        f.credentials
          ? `${many(f.credentials, 'memory holds', 'memories hold')} a credential in clear: open each and remove the value.`
          : '',
        f.review
          ? `${many(f.review, 'memory needs', 'memories need')} a decision now: promote, demote or repair. The count shrinks as you decide.`
          : f.credentials
            ? ''
            : 'Nothing needs a decision now.',
      ]
        .filter(Boolean)
        .join(' '),
      done: f.review === 0 && f.credentials === 0,
    },
  ];
}

/** The header's buttons: the first open step (or the audit, when it is safe) is the primary one. */
export function OverviewActions({ f }: { f: FirstHour }) {
  const auditPrimary = !f.show && !f.auditHeavy;
  const next = f.show ? stepsOf(f).find((s) => !s.done) : undefined;
  return (
    <div className="flex flex-wrap gap-2 text-sm">
      {next ? (
        <Link href={next.href} className={PRIMARY} data-primary="">
          {next.action}
        </Link>
      ) : null}
      <Link
        href="/run/audit"
        className={auditPrimary ? PRIMARY : SECONDARY}
        data-primary={auditPrimary ? '' : undefined}
      >
        Run audit…
      </Link>
      {next?.href === '/run/backfill' ? null : (
        <Link href="/run/backfill" className={SECONDARY}>
          Back-fill…
        </Link>
      )}
    </div>
  );
}

export function FirstHourSteps({ f }: { f: FirstHour }) {
  if (!f.show) return null;
  const steps = stepsOf(f);
  const current = steps.findIndex((s) => !s.done);
  const heavy = f.audit.filter((a) => a.heavy);
  return (
    <section
      aria-labelledby="first-hour-title"
      data-testid="first-hour-steps"
      className="mt-4 rounded-lg border border-teal-200 bg-teal-50/60 p-4 dark:border-teal-900 dark:bg-teal-950/30"
    >
      <h2 id="first-hour-title" className="text-base font-semibold">
        A safe first hour
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        These roots have not been reviewed yet. In this order:
      </p>
      <ol className="mt-3 grid gap-3 md:grid-cols-3">
        {steps.map((s, i) => (
          <li
            key={s.title}
            data-testid={`first-hour-step-${i + 1}`}
            aria-current={i === current ? 'step' : undefined}
            className={`rounded-md border bg-white p-3 text-sm dark:bg-slate-900 ${i === current ? 'border-teal-600 ring-1 ring-teal-600' : 'border-slate-200 dark:border-slate-800'}`}
          >
            <div className="flex items-baseline gap-2">
              <span
                aria-hidden="true"
                className={`inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${s.done ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-teal-700 text-white'}`}
              >
                {s.done ? '✓' : i + 1}
              </span>
              <span className="font-medium">
                <span className="sr-only">Step {i + 1}: </span>
                {s.title}
                {s.done ? <span className="sr-only"> (done)</span> : null}
              </span>
            </div>
            <p className="mt-1 text-slate-700 dark:text-slate-300">{s.text}</p>
            {s.done ? null : (
              <Link
                href={s.href}
                className="mt-2 inline-block font-medium text-teal-700 hover:underline dark:text-teal-300"
              >
                {s.action}
              </Link>
            )}
          </li>
        ))}
      </ol>
      {heavy.length ? <AuditHeavy f={f} heavy={heavy} /> : null}
    </section>
  );
}

/** Roots named in the note at most; the rest are counted (a home has hundreds). */
const HEAVY_SHOWN = 5;

/**
 * Why the audit is not the first step: how many it would quarantine, and the roots it would
 * empty most, each named by its project where it has one (an encoded Claude Code folder path
 * says little), largest first.
 */
function AuditHeavy({ f, heavy }: { f: FirstHour; heavy: FirstHour['audit'] }) {
  const total = f.audit.reduce((n, a) => n + a.quarantine, 0);
  const shown = [...heavy].sort((a, b) => b.quarantine - a.quarantine || a.root.localeCompare(b.root));
  const rest = shown.length - HEAVY_SHOWN;
  return (
    <div role="note" data-testid="audit-heavy" className="mt-3 text-sm text-amber-900 dark:text-amber-200">
      <p>
        Run audit would quarantine {many(total, 'memory', 'memories')}, more than a quarter of{' '}
        {heavy.length === f.audit.length && heavy.length > 1
          ? `each of the ${heavy.length} roots`
          : heavy.length === 1
            ? 'one root'
            : `${heavy.length} of ${f.audit.length} roots`}
        . Do the steps first; the audit stays available.
      </p>
      <ul className="mt-1 space-y-0.5">
        {shown.slice(0, HEAVY_SHOWN).map((a) => (
          <li key={a.source} className="break-words">
            {a.quarantine} of {many(a.memories, 'memory', 'memories')} in{' '}
            {a.project ? (
              <>
                project <span className="font-mono">{a.project}</span>
              </>
            ) : (
              <span className="font-mono">{a.root}</span>
            )}
          </li>
        ))}
        {rest > 0 ? <li>and {many(rest, 'more root', 'more roots')}</li> : null}
      </ul>
    </div>
  );
}
