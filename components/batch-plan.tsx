'use client';
/**
 * The plan of a bulk operation, then its confirmation (docs/batches.md).
 * Driven by two server actions so any bulk action can
 * reuse it: `load` returns the plan, `apply` applies exactly the files shown
 * (`<id>@<sha256>`), with the typed count when the plan asks for confirmation.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/core/action-result';
import type { BatchPlan, PlanFile } from '@/lib/service/batches/batch-plan';
import { TierBadge } from '@/components/tier-badge';
import { memoryHref } from '@/components/format';

export interface BatchPlanProps {
  /** React Query key of this plan. */
  name: string;
  load: (input: Record<string, never>) => Promise<ActionResult<BatchPlan>>;
  apply: (input: {
    seen: string[];
    typedCount?: number;
    /** The record ids the plan showed (a bulk selection's records, lib/service/records/bulk.ts). */
    records?: string[];
  }) => Promise<ActionResult<{ batch: string | null; message: string; also?: string[] }>>;
  /** The verb on the button: "Demote", "Back-fill". */
  verb: string;
}

const n = (k: number, one: string, many: string) => `${k.toLocaleString('en-US')} ${k === 1 ? one : many}`;
const KIND_STYLE: Record<string, string> = {
  credential: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  personal: 'bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
  validate: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  advisory: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  hint: 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
};
const kindOf = (x: { class: string | null; check: string }) =>
  x.class ?? (x.check === 'injection' ? 'advisory' : x.check);

export function BatchPlanView({ name, load, apply, verb }: BatchPlanProps) {
  const q = useQuery({ queryKey: ['batch-plan', name], queryFn: async () => load({}), refetchOnWindowFocus: false });
  if (q.isPending)
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        Computing the plan…
      </p>
    );
  if (q.isError || !q.data)
    return (
      <p role="alert" className="text-sm text-red-700">
        The plan could not be computed: {String(q.error ?? 'unknown error')}
      </p>
    );
  if (!q.data.ok)
    return (
      <p role="alert" className="text-sm text-red-700">
        {q.data.message}
      </p>
    );
  return <PlanBody plan={q.data.data} apply={apply} verb={verb} reload={() => q.refetch()} />;
}

function PlanBody({
  plan,
  apply,
  verb,
  reload,
}: {
  plan: BatchPlan;
  apply: BatchPlanProps['apply'];
  verb: string;
  reload: () => void;
}) {
  const router = useRouter();
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const count = plan.files.length;
  const recs = plan.records?.items ?? [];
  const ready = !plan.confirm.needed || typed.trim() === String(plan.confirm.count);

  function run() {
    setError(null);
    start(async () => {
      const r = await apply({
        seen: plan.files.map((f) => `${f.id}@${f.sha256}`),
        typedCount: plan.confirm.needed ? Number(typed.trim()) : undefined,
        ...(plan.records ? { records: recs.map((r) => r.id) } : {}),
      });
      await qc.invalidateQueries();
      if (!r.ok) {
        setError(r.message);
        if (r.code === 'stale-plan') reload();
        return;
      }
      // Batches applied with it (the selection's records) are named on the result, each with its Undo.
      const also = r.data.also?.length ? `?also=${encodeURIComponent(r.data.also.join(','))}` : '';
      router.push(r.data.batch ? `/batches/${encodeURIComponent(r.data.batch)}${also}` : '/audit');
    });
  }

  if (count === 0 && recs.length === 0) {
    return (
      <section
        aria-label="Plan"
        className="rounded-lg border border-slate-200 bg-white p-6 text-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <p className="font-medium">Nothing to {verb.toLowerCase()}: the plan is empty.</p>
        {plan.skipped.length ? <Skipped plan={plan} /> : null}
        {plan.records ? <RecordsPart plan={plan} /> : null}
      </section>
    );
  }
  return (
    <section aria-label="Plan" className="space-y-6">
      {count > 0 ? (
        <>
          <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <p className="text-lg font-semibold" data-testid="plan-summary">
              {verb} {n(count, 'file', 'files')}: {plan.destinations.map((d) => `${d.files} → ${d.to}`).join(', ')}
            </p>
            <ul className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {plan.roots.map((r) => (
                <li key={r.source} className="break-words" title={r.root}>
                  {/* By its project where it has one: an encoded Claude Code folder path says little. */}
                  {r.project ? (
                    <>
                      project <span className="font-mono text-xs">{r.project}</span>
                    </>
                  ) : (
                    <span className="font-mono text-xs">{r.root}</span>
                  )}
                  :{' '}
                  {r.moving
                    ? `${r.moving} of ${n(r.memories, 'memory', 'memories')} would move`
                    : `${n(plan.files.filter((f) => f.source === r.source).length, 'file', 'files')} rewritten in place`}
                </li>
              ))}
            </ul>
          </div>

          {plan.groups.length ? (
            <div>
              <h2 className="mb-2 text-base font-semibold">Findings by kind</h2>
              <div className="max-w-3xl overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
                    <tr>
                      <th className="py-1 pr-3">Class</th>
                      <th className="py-1 pr-3">Kind</th>
                      <th className="py-1 pr-3 text-right">Findings</th>
                      <th className="py-1 text-right">Files</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                    {plan.groups.map((g) => (
                      <tr key={`${g.check}:${g.code}`}>
                        <td className="py-1 pr-3">
                          <span className={`rounded px-1.5 py-0.5 text-xs ${KIND_STYLE[kindOf(g)] ?? ''}`}>
                            {kindOf(g)}
                          </span>
                        </td>
                        <td className="py-1 pr-3 font-mono text-xs break-all">{g.code}</td>
                        <td className="py-1 pr-3 text-right tabular-nums">{g.findings}</td>
                        <td className="py-1 text-right tabular-nums">{g.files}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ) : null}

          <div>
            <h2 className="mb-2 text-base font-semibold">Files</h2>
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-300">
                  <tr>
                    <th className="px-3 py-2">File</th>
                    <th className="px-3 py-2 whitespace-nowrap">From → to</th>
                    <th className="px-3 py-2 whitespace-nowrap">Goes to</th>
                    <th className="px-3 py-2">Findings (masked)</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {plan.files.map((f) => (
                    <FileRow key={f.id} f={f} />
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </>
      ) : null}
      {plan.skipped.length ? <Skipped plan={plan} /> : null}
      {plan.records ? <RecordsPart plan={plan} /> : null}

      <form
        className={`rounded-lg border p-4 ${plan.confirm.needed ? 'border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950/40' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) run();
        }}
      >
        <p className="text-sm">
          Applied as one batch: every file and the MEMORY.md index are saved first, so <strong>Undo</strong> on the
          result puts them back byte for byte.
          {recs.length
            ? ' The records are a record batch of their own (one per record root), shown on the same result with its own Undo.'
            : ''}
        </p>
        {plan.confirm.needed ? (
          <label className="mt-3 block text-sm font-medium">
            This needs confirmation: {plan.confirm.reason}. Type {plan.confirm.count} to confirm.
            <input
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              inputMode="numeric"
              autoComplete="off"
              aria-label={`Type ${plan.confirm.count} to confirm`}
              className="mt-1 block w-32 rounded-md border border-slate-300 bg-white px-2 py-1 font-mono dark:border-slate-600 dark:bg-slate-800"
            />
          </label>
        ) : null}
        <button
          type="submit"
          disabled={!ready || pending}
          className="mt-3 rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {pending
            ? 'Applying…'
            : `${verb} ${[count || !recs.length ? n(count, 'file', 'files') : '', recs.length ? n(recs.length, 'record', 'records') : ''].filter(Boolean).join(' and ')}`}
        </button>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function FileRow({ f }: { f: PlanFile }) {
  return (
    <tr className="align-top">
      <td className="px-3 py-2 break-all">
        {/* A name that looks like it holds a secret arrives withheld, with an opaque id (app/batch-actions.ts). */}
        {f.id.includes(':withheld-') ? (
          <span className="italic text-slate-500">{f.memory}</span>
        ) : (
          <a
            href={memoryHref(f.source, f.memory)}
            className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
          >
            {f.file}
          </a>
        )}
        {f.held ? (
          <div
            data-testid="held-inferred"
            className="mt-1 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            stays inferred: flagged
          </div>
        ) : null}
        {f.note ? <div className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{f.note}</div> : null}
      </td>
      <td className="px-3 py-2 whitespace-nowrap">
        {f.from ? <TierBadge tier={f.from} /> : <span className="text-slate-500 dark:text-slate-400">none</span>}{' '}
        <span role="img" aria-label="to">
          →
        </span>{' '}
        <TierBadge tier={f.to} />
      </td>
      <td className="px-3 py-2 font-mono text-xs break-all">{f.moves ? f.destination : 'stays'}</td>
      <td className="px-3 py-2 text-xs">
        {f.findings.length === 0 ? (
          <span className="text-slate-500 dark:text-slate-400">—</span>
        ) : (
          <ul className="space-y-0.5">
            {f.findings.map((x, i) => (
              <li key={i}>
                <span className={`mr-1 rounded px-1 py-0.5 ${KIND_STYLE[kindOf(x)] ?? ''}`}>{kindOf(x)}</span>
                {x.line ? <span className="text-slate-500">line {x.line}: </span> : null}
                {x.message}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

function Skipped({ plan }: { plan: BatchPlan }) {
  return (
    <div>
      <h2 className="mb-1 text-base font-semibold">Left out ({plan.skipped.length})</h2>
      <ul className="list-disc pl-5 text-sm text-slate-700 dark:text-slate-300">
        {plan.skipped.map((s) => (
          <li key={s.file} className="break-words">
            <span className="font-mono text-xs break-all">{s.file}</span>: {s.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A bulk plan's records: each with its tier change and the layout's summary, and those left out with the reason. */
function RecordsPart({ plan }: { plan: BatchPlan }) {
  const r = plan.records!;
  return (
    <div data-testid="plan-records">
      <h2 className="mb-1 text-base font-semibold">Records ({r.items.length})</h2>
      {r.items.length ? (
        <ul className="list-disc pl-5 text-sm text-slate-700 dark:text-slate-300">
          {r.items.map((x) => (
            <li key={x.id}>
              <span className="font-mono text-xs">{x.key}</span>: {x.from} → {x.to} — {x.summary}
            </li>
          ))}
        </ul>
      ) : null}
      {r.leftOut.length ? (
        <>
          <h3 className="mt-2 mb-1 text-sm font-semibold">Records left out ({r.leftOut.length})</h3>
          <ul className="list-disc pl-5 text-sm text-slate-700 dark:text-slate-300">
            {r.leftOut.map((x) => (
              <li key={x.id}>
                <span className="font-mono text-xs">{x.id}</span>: {x.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
