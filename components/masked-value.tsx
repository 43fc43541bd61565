'use client';
/**
 * A masked credential or personal value inside a memory body. The page source
 * holds only the mask (class, number, length); the value is fetched through a
 * server action when the owner clicks "reveal", and dropped again on "hide".
 */
import { useState } from 'react';
import { revealValueAction } from '@/app/reveal-actions';

export interface RevealTarget {
  id: string;
  sha: string;
}

export function MaskedValue({
  cls,
  n,
  length,
  target,
}: {
  cls: 'credential' | 'personal';
  n: number;
  length: number;
  target?: RevealTarget;
}) {
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = cls === 'credential' ? 'credential' : 'personal data';
  const tone =
    cls === 'credential'
      ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
      : 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100';
  const reveal = async () => {
    if (!target) return;
    setBusy(true);
    setError(null);
    const r = await revealValueAction({ id: target.id, n, sha: target.sha });
    setBusy(false);
    if (r.ok) setValue(r.data);
    else setError(r.message);
  };
  return (
    <span
      data-mask={cls}
      data-mask-n={n}
      className={`inline-flex items-center gap-1 rounded border px-1 font-mono text-xs ${tone}`}
    >
      {value !== null ? (
        <span data-revealed="">{value}</span>
      ) : (
        <span role="img" aria-label={`masked ${label}, ${length} characters`}>
          {label} · {length} chars
        </span>
      )}
      {target ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => (value !== null ? setValue(null) : void reveal())}
          className="rounded px-1 font-sans text-[11px] underline decoration-dotted hover:bg-white/60 disabled:opacity-50 dark:hover:bg-black/30"
        >
          {value !== null ? 'hide' : busy ? '…' : 'reveal'}
        </button>
      ) : null}
      {error ? (
        <span role="alert" className="font-sans text-[11px]">
          {error}
        </span>
      ) : null}
    </span>
  );
}
