'use client';
/**
 * "Keep this one" of a contradiction (docs/records-pages.md): restore one side and
 * expire the other as one batch, through the same preview dialog as every transition
 * (docs/transition-ui.md). PairKeep holds the choice: the two sides (server-rendered)
 * inside, the dialog below them at full width.
 */
import { createContext, useContext, useState } from 'react';
import { TransitionDialog } from './transition-dialog';

interface KeepChoice {
  keep: string;
  other: string;
  keepKey: string;
  otherKey: string;
}

const PairContext = createContext<{ choice: KeepChoice | null; choose: (c: KeepChoice) => void } | null>(null);

export function PairKeep({ returnTo, children }: { returnTo: string; children: React.ReactNode }) {
  const [choice, setChoice] = useState<KeepChoice | null>(null);
  return (
    <PairContext.Provider value={{ choice, choose: setChoice }}>
      {children}
      {choice ? (
        <TransitionDialog
          key={choice.keep}
          engine="record"
          steps={[
            { id: choice.keep, action: 'restore' },
            { id: choice.other, action: 'archive' },
          ]}
          label="Keep"
          title={`Keep ${choice.keepKey}, expire ${choice.otherKey}`}
          did={`Kept ${choice.keepKey} and expired ${choice.otherKey}`}
          askReason={false}
          returnTo={returnTo}
          onClose={() => setChoice(null)}
        />
      ) : null}
    </PairContext.Provider>
  );
}

/** One side's "Keep this one" button (inside a PairKeep). */
export function KeepOneButton({
  keep,
  other,
  keepKey,
  otherKey,
  disabledReason,
}: KeepChoice & { disabledReason?: string | null }) {
  const pair = useContext(PairContext);
  const chosen = pair?.choice?.keep === keep;
  return (
    <div>
      <button
        type="button"
        disabled={!pair || !!pair.choice || !!disabledReason}
        aria-pressed={chosen}
        onClick={() => pair?.choose({ keep, other, keepKey, otherKey })}
        className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-teal-800 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {chosen ? 'Keeping this one…' : 'Keep this one'}
      </button>
      {disabledReason ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{disabledReason}</p> : null}
    </div>
  );
}
