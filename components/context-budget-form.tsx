'use client';
/** Settings: contextBudget, the most characters `memtrust context` adds to a session (docs/session-context.md). */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { saveContextBudgetAction } from '@/app/actions';

const MIN = 1000;
const MAX = 10000;

export function ContextBudgetForm({ budget, isDefault }: { budget: number; isDefault: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [value, setValue] = useState(String(budget));
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const n = Number(value);
  const problem =
    !/^\d+$/.test(value.trim()) || n < MIN || n > MAX
      ? `A whole number from ${MIN.toLocaleString('en-US')} to ${MAX.toLocaleString('en-US')}.`
      : null;
  return (
    <section id="context-budget" aria-labelledby="context-budget-title">
      <h2 id="context-budget-title" className="text-lg font-semibold">
        Session context budget
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        The most characters memtrust adds to a session start ({isDefault ? 'default' : 'saved'}:{' '}
        {budget.toLocaleString('en-US')}). Claude Code replaces hook text over 10,000 characters with a short preview,
        so the budget stays at or below that. What does not fit is named as “not loaded: over budget”. See exactly what
        a session gets on the{' '}
        <Link href="/context" className="text-teal-700 underline dark:text-teal-300">
          Context X-ray
        </Link>
        .
      </p>
      <form
        className="mt-3 flex items-end gap-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problem) return setMsg({ ok: false, text: problem });
          start(async () => {
            const r = await saveContextBudgetAction({ budget: n });
            setMsg(
              r.ok
                ? { ok: true, text: `Budget saved: ${n.toLocaleString('en-US')} characters.` }
                : { ok: false, text: r.message },
            );
            router.refresh();
          });
        }}
      >
        <label className="text-sm font-medium">
          Characters (1,000–10,000)
          <input
            name="contextBudget"
            inputMode="numeric"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setMsg(null);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby="context-budget-msg"
            className="mt-1 block w-40 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm tabular-nums dark:border-slate-600 dark:bg-slate-900"
          />
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          Save
        </button>
      </form>
      <p
        id="context-budget-msg"
        role={msg ? (msg.ok ? 'status' : 'alert') : undefined}
        className={`mt-2 text-sm ${msg ? (msg.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300') : 'sr-only'}`}
      >
        {msg?.text ?? ''}
      </p>
    </section>
  );
}
