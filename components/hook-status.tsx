/**
 * Settings: are memtrust's Claude Code hooks installed (docs/hooks.md)? Each entry's
 * state in the user's ~/.claude/settings.json, the exact block to paste, and the
 * command that merges it. Read-only: installing is the CLI's `--apply` (it makes a backup).
 */
import type { HookStatus } from '@/lib/service/session/hook-install';
import { hooksBlock } from '@/lib/hooks/install-entries';

const STATE: Record<string, { label: string; cls: string }> = {
  installed: { label: 'installed', cls: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' },
  outdated: {
    label: 'installed with another path — re-run install',
    cls: 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  },
  missing: { label: 'not installed', cls: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200' },
};

const WHAT: Record<string, string> = {
  SessionStart: 'adds the trust context to each session',
  PreToolUse: 'guards what the assistant writes into memory roots',
  PostToolUse: 'stamps new memories inferred and flags edited verified ones',
};

export function HookStatusSection({ status, installCommand }: { status: HookStatus; installCommand: string }) {
  const block = JSON.stringify({ hooks: hooksBlock(status.entries) }, null, 2);
  return (
    <section aria-labelledby="hooks-heading">
      <h2 id="hooks-heading" className="text-lg font-semibold">
        Claude Code hooks
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        In <code className="font-mono text-xs">{status.file}</code>
        {status.problem ? (
          <span className="text-red-800 dark:text-red-300"> — could not be read: {status.problem}</span>
        ) : null}
      </p>
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {status.entries.map((e) => (
          <li key={e.event} className="flex items-center justify-between gap-3 px-4 py-2" data-hook={e.event}>
            <span className="min-w-0">
              <span className="font-medium">{e.event}</span>
              {e.matcher ? (
                <span className="ml-1 font-mono text-xs text-slate-500 dark:text-slate-400">{e.matcher}</span>
              ) : null}
              <span className="block text-xs text-slate-600 dark:text-slate-400">{WHAT[e.event]}</span>
            </span>
            <span className={`shrink-0 rounded px-2 py-0.5 text-xs font-medium ${STATE[e.state]!.cls}`}>
              {STATE[e.state]!.label}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">Install (keeps every other setting and makes a backup):</p>
      <pre className="mt-1 overflow-x-auto rounded-md bg-slate-100 px-3 py-2 font-mono text-xs dark:bg-slate-800">
        {installCommand}
      </pre>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer">Entries to paste by hand</summary>
        <pre
          className="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs dark:bg-slate-800"
          data-testid="hook-entries"
        >
          {block}
        </pre>
      </details>
    </section>
  );
}
