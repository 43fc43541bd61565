/**
 * The result of a transition (docs/transition-ui.md): what was done, its batch and
 * the batch's Undo; a refusal is an alert. Shown by the component itself, or by the
 * page from the URL (`?done=<batch>`) when the result must survive the refresh that
 * removes the subject from the page (a resolved contradiction).
 */
import Link from 'next/link';
import { UndoBatchButton } from '@/components/undo-batch-button';
import { MaskedText } from '@/components/records/masked-text';

export interface TransitionResult {
  ok: boolean;
  message: string;
  batch?: string | null;
  files?: number;
}

const BATCH = /^[A-Za-z0-9_-]{1,100}$/;

/** The result a transition left in the URL, or null. */
export function parseDone(sp: Record<string, string | string[] | undefined>): TransitionResult | null {
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k]![0] : (sp[k] as string | undefined));
  const batch = one('done');
  if (!batch || !BATCH.test(batch)) return null;
  const files = Number(one('files'));
  return {
    ok: true,
    batch,
    files: Number.isInteger(files) && files > 0 ? files : 0,
    message: (one('did') ?? 'Done').slice(0, 300),
  };
}

/** `returnTo` with the result in its query, for parseDone on the page it lands on. */
export function doneHref(returnTo: string, batch: string, files: number, did: string): string {
  const url = new URL(returnTo, 'http://x');
  url.searchParams.set('done', batch);
  url.searchParams.set('files', String(files));
  url.searchParams.set('did', did.slice(0, 300));
  return `${url.pathname}${url.search}`;
}

export function ResultBanner({ result, className = 'mt-3' }: { result: TransitionResult; className?: string }) {
  if (!result.ok)
    return (
      <p
        role="alert"
        className={`${className} rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100`}
      >
        {result.message}
      </p>
    );
  return (
    <div
      role="status"
      className={`${className} flex flex-wrap items-center gap-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100`}
    >
      <span>
        <MaskedText text={result.message} />
        {result.batch ? (
          <>
            {' '}
            — batch{' '}
            <Link href={`/batches/${encodeURIComponent(result.batch)}`} className="font-mono underline">
              {result.batch}
            </Link>
            .
          </>
        ) : null}
      </span>
      {result.batch ? <UndoBatchButton batch={result.batch} files={result.files || undefined} compact /> : null}
    </div>
  );
}
