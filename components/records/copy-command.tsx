'use client';
/** A command line the user runs themselves (codeclone's own verbs): shown in full, with a copy button. */
import { useState } from 'react';

export function CopyCommand({ label, command }: { label: string; command: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <div className="flex items-start gap-2">
      <code
        data-command={label}
        className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 font-mono text-xs dark:bg-slate-800"
      >
        {command}
      </code>
      <button
        type="button"
        aria-label={`Copy the ${label} command`}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(command);
            setCopied('yes');
          } catch {
            setCopied('no');
          }
        }}
        className="shrink-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700"
      >
        {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      <span className="sr-only" aria-live="polite">
        {copied === 'yes'
          ? 'Copied to the clipboard'
          : copied === 'no'
            ? 'Copy failed: select the command and copy it by hand'
            : ''}
      </span>
    </div>
  );
}
