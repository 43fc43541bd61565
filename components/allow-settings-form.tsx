'use client';
/**
 * Owner-allowed networks and accounts (docs/credentials.md). Before saving, the
 * form asks the server how many findings the new lists would clear.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { previewAllowancesAction, saveAllowancesAction } from '@/app/allow-actions';
import type { AllowPreview } from '@/lib/service/settings/allow-preview';

const input =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm dark:border-slate-600 dark:bg-slate-900';
const button =
  'rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50';

export function AllowSettingsForm({
  allowNetworks,
  allowHomeUsers,
  envNetworks,
}: {
  allowNetworks: string;
  allowHomeUsers: string;
  envNetworks: string | null;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [v, setV] = useState({ allowNetworks, allowHomeUsers });
  const [preview, setPreview] = useState<{ ok: true; data: AllowPreview } | { ok: false; message: string } | null>(
    null,
  );
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const dirty = v.allowNetworks !== allowNetworks || v.allowHomeUsers !== allowHomeUsers;

  useEffect(() => {
    if (!dirty) {
      setPreview(null);
      return;
    }
    let live = true;
    const t = setTimeout(async () => {
      const r = await previewAllowancesAction(v);
      if (live) setPreview(r.ok ? { ok: true, data: r.data } : { ok: false, message: r.message });
    }, 300);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [v, dirty]);

  return (
    <section id="allow" className="scroll-mt-4">
      <h2 className="text-lg font-semibold">Allowed networks and accounts</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Private addresses inside these networks, and home folders of these service or container accounts, are not
        findings. Decide once for every memory.
      </p>
      {envNetworks !== null ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          MEMTRUST_ALLOW_NETWORKS is set ({envNetworks}), so it is used instead of the saved networks.
        </p>
      ) : null}
      <form
        className="mt-3 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            const r = await saveAllowancesAction(v);
            setMsg(
              r.ok
                ? { ok: true, text: 'Allowances saved; memories are checked again.' }
                : { ok: false, text: r.message },
            );
            router.refresh();
          });
        }}
      >
        <label className="block text-sm font-medium">
          Networks (CIDR, space separated)
          <input
            name="allowNetworks"
            value={v.allowNetworks}
            onChange={(e) => setV({ ...v, allowNetworks: e.target.value })}
            placeholder="10.0.0.0/8 192.168.1.0/24"
            className={input}
          />
        </label>
        <label className="block text-sm font-medium">
          Home-folder accounts (space separated)
          <input
            name="allowHomeUsers"
            value={v.allowHomeUsers}
            onChange={(e) => setV({ ...v, allowHomeUsers: e.target.value })}
            placeholder="deploy nonroot"
            className={input}
          />
        </label>
        <p data-testid="allow-preview" aria-live="polite" className="min-h-5 text-sm">
          {!dirty || preview === null ? null : preview.ok ? (
            <span className="text-slate-700 dark:text-slate-300">
              Saving would clear <strong>{preview.data.cleared}</strong> finding{preview.data.cleared === 1 ? '' : 's'}
              {preview.data.filesClean ? (
                <>
                  {' '}
                  ({preview.data.filesClean} memor{preview.data.filesClean === 1 ? 'y becomes' : 'ies become'} clean)
                </>
              ) : null}
              {preview.data.added ? <> and bring back {preview.data.added}</> : null}.
            </span>
          ) : (
            <span role="alert" className="text-red-800 dark:text-red-300">
              {preview.message}
            </span>
          )}
        </p>
        {msg ? (
          <p
            role={msg.ok ? 'status' : 'alert'}
            className={`rounded-md px-3 py-2 text-sm ${msg.ok ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-900'}`}
          >
            {msg.text}
          </p>
        ) : null}
        <button type="submit" disabled={pending || !dirty || (preview !== null && !preview.ok)} className={button}>
          Save allowances
        </button>
      </form>
    </section>
  );
}
