import Link from 'next/link';
import type { Metadata } from 'next';
import { freshContext } from '@/lib/server';
import { transcriptView } from '@/lib/service/origin/transcript-view';
import type { TurnEntry } from '@/lib/origin/turn-view';
import { EmptyState } from '@/components/ui/empty-state';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Transcript' };

/**
 * The turn that wrote a memory and its neighbours (docs/origin.md "The transcript view").
 * The URL names the memory, never a file: the service finds the transcript from it.
 */
export default async function TranscriptPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ turn?: string }>;
}) {
  const { id } = await params;
  const { turn } = await searchParams;
  const memoryId = decodeURIComponent(id);
  const n = turn !== undefined && /^\d{1,7}$/.test(turn) ? Number(turn) : undefined;
  const r = transcriptView(freshContext(), memoryId, n);
  const back = (
    <Link
      href={`/memories/${encodeURIComponent(memoryId)}`}
      className="text-teal-700 hover:underline dark:text-teal-300"
    >
      Back to the memory
    </Link>
  );
  if (!r.ok)
    return (
      <EmptyState title="No transcript to show">
        {r.message}. {back}
      </EmptyState>
    );
  const v = r.view;
  const page = (t: number) => `/memories/${encodeURIComponent(v.memoryId)}/transcript?turn=${t}`;
  return (
    <div className="space-y-4">
      <nav className="text-sm text-slate-600 dark:text-slate-400">{back}</nav>
      <h1 className="text-2xl font-semibold tracking-tight">Transcript: {v.filename}</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Session <span className="font-mono">{v.origin.session.id}</span>
        {v.origin.session.cwd ? ` in ${v.origin.session.cwd}` : ''} · turns {v.window.from}–{v.window.to} · the memory
        was written in turn {v.origin.write.turn} ({v.origin.write.tool}, transcript line {v.origin.write.line}).
        Secrets are masked; tool outputs are folded.
      </p>
      <div className="flex gap-4 text-sm">
        {v.window.from > 0 ? (
          <Link href={page(Math.max(0, v.turn - 3))} className="text-teal-700 hover:underline dark:text-teal-300">
            ← Earlier turns
          </Link>
        ) : null}
        {v.window.hasNext ? (
          <Link href={page(v.turn + 3)} className="text-teal-700 hover:underline dark:text-teal-300">
            Later turns →
          </Link>
        ) : null}
      </div>
      {v.window.truncated ? (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          These turns hold more entries than a page shows: the first {v.window.entries.length} are listed.
        </p>
      ) : null}
      <ol className="space-y-2" data-testid="transcript">
        {v.window.entries.map((e) => (
          <li key={`${e.line}-${entryKey(e)}`}>
            <Entry e={e} writeLine={v.origin.write.line} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function entryKey(e: TurnEntry): string {
  return e.kind === 'tool-use' ? `u${e.id}` : e.kind === 'tool-result' ? `r${e.toolUseId}` : e.kind;
}

const box = 'rounded-md border px-3 py-2 text-sm';

function Entry({ e, writeLine }: { e: TurnEntry; writeLine: number }) {
  const side = e.sidechain ? ' (subagent)' : '';
  const meta = (
    <span className="text-xs font-normal normal-case tracking-normal text-slate-500 dark:text-slate-400">
      line {e.line}
      {e.at ? ` · ${e.at.slice(11, 19)}` : ''}
      {side}
    </span>
  );
  switch (e.kind) {
    case 'user':
      return (
        <div className={`${box} border-teal-300 bg-teal-50 dark:border-teal-800 dark:bg-teal-950`}>
          <p className="mb-1 text-xs font-semibold uppercase tracking-wide">
            User · turn {e.turn} {meta}
          </p>
          <p className="whitespace-pre-wrap break-words">{e.text}</p>
        </div>
      );
    case 'assistant':
      return (
        <div className={`${box} border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900`}>
          <p className="mb-1 text-xs font-semibold uppercase tracking-wide">Assistant {meta}</p>
          <p className="whitespace-pre-wrap break-words">{e.text}</p>
        </div>
      );
    case 'tool-use':
      return (
        <div
          className={`${box} ${e.line === writeLine ? 'border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950' : 'border-slate-200 dark:border-slate-800'}`}
          data-testid={e.line === writeLine ? 'writing-call' : undefined}
        >
          <p className="mb-1 text-xs font-semibold">
            Tool call: <span className="font-mono">{e.name}</span> {meta}
            {e.line === writeLine ? ' · wrote the memory' : ''}
          </p>
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words font-mono text-xs">{e.input}</pre>
        </div>
      );
    case 'tool-result':
      return (
        <details className={`${box} border-slate-200 dark:border-slate-800`}>
          <summary className="cursor-pointer text-xs">
            Tool output{e.isError ? ' (error)' : ''} {meta}
          </summary>
          <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words font-mono text-xs">{e.text}</pre>
        </details>
      );
    case 'other':
      return (
        <p className="px-3 text-xs text-slate-500 dark:text-slate-400">
          {e.type}: {e.text || '—'} · line {e.line}
        </p>
      );
  }
}
