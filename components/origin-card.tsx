/**
 * Where a memory came from (docs/origin.md): the session, the tool call that wrote it, the
 * user message of that turn (masked) and the flags, with a link to the turn in the
 * transcript view. Server component: every string is rendered as text, never as HTML.
 */
import Link from 'next/link';
import type { MemoryOrigin } from '@/lib/service/origin/origin';
import { untrustedSummary } from '@/lib/trust/origin';

export function OriginCard({ id, origin }: { id: string; origin: MemoryOrigin }) {
  if (origin.status === 'unknown' && origin.reading) {
    // Read in the background; the page refreshes when it is done (LiveRefresh).
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="origin-reading" aria-live="polite">
        Origin: reading the session transcript…
      </p>
    );
  }
  if (origin.status === 'unknown') {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="origin-unknown">
        Origin unknown: {origin.why}.
      </p>
    );
  }
  const { session, write } = origin;
  return (
    <div className="space-y-3 text-sm" data-testid="origin">
      {origin.untrustedOrigin ? (
        <p
          role="alert"
          data-testid="untrusted-origin"
          className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <span className="font-semibold">Untrusted origin.</span> Before writing this memory, the turn read{' '}
          {untrustedSummary(origin.untrustedOrigin, 10)}. It is never loaded as verified; promoting it asks you to
          confirm you have seen this.
        </p>
      ) : null}
      {origin.userRequested ? (
        <p className="text-xs text-emerald-800 dark:text-emerald-300" data-testid="user-requested">
          User-requested: the user&apos;s message asked for it.
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-xs text-slate-500 dark:text-slate-400">Session</dt>
        <dd className="break-all font-mono text-xs">{session.id}</dd>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Project</dt>
        <dd className="break-all font-mono text-xs">{session.cwd ?? session.project}</dd>
        {session.startedAt ? (
          <>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Started</dt>
            <dd className="text-xs">{session.startedAt.slice(0, 19).replace('T', ' ')} UTC</dd>
          </>
        ) : null}
        <dt className="text-xs text-slate-500 dark:text-slate-400">Written by</dt>
        <dd className="text-xs">
          {write.tool} <span className="font-mono">{write.toolUseId}</span>
          {write.at ? ` at ${write.at.slice(0, 19).replace('T', ' ')} UTC` : ''}
          {write.count > 1 ? ` (the last of ${write.count} writes in this session)` : ''}
        </dd>
      </dl>
      {origin.userMessage !== null ? (
        <blockquote className="border-l-2 border-slate-300 pl-3 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300">
          {origin.userMessage}
        </blockquote>
      ) : null}
      <Link
        href={`/memories/${encodeURIComponent(id)}/transcript?turn=${write.turn}`}
        className="inline-block text-teal-700 hover:underline dark:text-teal-300"
      >
        Open the turn in the transcript
      </Link>
    </div>
  );
}
