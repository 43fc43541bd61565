'use client';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { addRootAction, removeRootAction, saveOwnerAction } from '@/app/actions';

const input =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900';
const button =
  'rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50';

interface Props {
  roots: { root: string; kind: string; error: string | null }[];
  origin: string;
  savedRoots: string[];
  discovered: string[];
  owner: { emails: string; githubHandle: string; homeUser: string };
  envOverrides: boolean;
}

export function SettingsForms({ roots, origin, savedRoots, discovered, owner, envOverrides }: Props) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const [newRoot, setNewRoot] = useState('');
  const [o, setO] = useState(owner);
  const act = (fn: () => Promise<{ ok: boolean; message?: string }>, done: string) =>
    start(async () => {
      const r = await fn();
      setMsg(r.ok ? { ok: true, text: done } : { ok: false, text: r.message ?? 'failed' });
      router.refresh();
    });
  return (
    <div className="space-y-8">
      {msg ? (
        <p
          role={msg.ok ? 'status' : 'alert'}
          className={`rounded-md px-3 py-2 text-sm ${msg.ok ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-900'}`}
        >
          {msg.text}
        </p>
      ) : null}
      <section>
        <h2 className="text-lg font-semibold">Memory roots</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">In use: {origin}.</p>
        {envOverrides ? (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            MEMTRUST_ROOT is set, so saved roots take effect only without it.
          </p>
        ) : null}
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {roots.map((r) => (
            <li key={r.root} className="flex items-center justify-between gap-3 px-4 py-2">
              <span className="min-w-0">
                <span className="block truncate font-mono text-xs">{r.root}</span>
                <span className="text-xs text-slate-500">
                  {r.kind}
                  {r.error ? ` — ${r.error}` : ''}
                </span>
              </span>
              {savedRoots.includes(r.root) ? (
                <button
                  type="button"
                  disabled={pending}
                  onClick={() => act(() => removeRootAction({ root: r.root }), 'Root removed.')}
                  className="text-xs text-red-700 hover:underline"
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        <form
          className="mt-3 flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => addRootAction({ root: newRoot }), 'Root added.');
          }}
        >
          <label className="flex-1 text-sm font-medium">
            Add a root (absolute path)
            <input
              value={newRoot}
              onChange={(e) => setNewRoot(e.target.value)}
              placeholder="/home/you/.claude/claude-memory"
              className={input}
            />
          </label>
          <button type="submit" disabled={pending || !newRoot} className={button}>
            Add
          </button>
        </form>
        {discovered.length ? (
          <div className="mt-4">
            <h3 className="text-sm font-medium">Discovered under ~/.claude</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {discovered.map((d) => (
                <li key={d} className="flex items-center gap-3">
                  <code className="font-mono text-xs">{d}</code>
                  <button
                    type="button"
                    disabled={pending}
                    onClick={() => act(() => addRootAction({ root: d }), 'Root added.')}
                    className="text-xs text-teal-700 hover:underline"
                  >
                    Add
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <section>
        <h2 className="text-lg font-semibold">Owner identity</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The secret check never reports your own e-mail addresses, GitHub no-reply address or home folder.
        </p>
        <form
          className="mt-3 space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => saveOwnerAction(o), 'Owner identity saved.');
          }}
        >
          <label className="block text-sm font-medium">
            E-mail addresses (space separated)
            <input value={o.emails} onChange={(e) => setO({ ...o, emails: e.target.value })} className={input} />
          </label>
          <label className="block text-sm font-medium">
            GitHub handle
            <input
              value={o.githubHandle}
              onChange={(e) => setO({ ...o, githubHandle: e.target.value })}
              className={input}
            />
          </label>
          <label className="block text-sm font-medium">
            Home folder user name
            <input value={o.homeUser} onChange={(e) => setO({ ...o, homeUser: e.target.value })} className={input} />
          </label>
          <button type="submit" disabled={pending} className={button}>
            Save
          </button>
        </form>
      </section>
    </div>
  );
}
