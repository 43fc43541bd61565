/** The result of a record action, read back from the URL (`?done=<batch>`): what was done, the batch, and its Undo. */
import Link from 'next/link';
import { UndoBatchButton } from '@/components/undo-batch-button';
import { MaskedText } from './masked-text';

const BATCH = /^[A-Za-z0-9_-]{1,100}$/;

export function parseDone(
  sp: Record<string, string | string[] | undefined>,
): { batch: string; files: number; did: string } | null {
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k]![0] : (sp[k] as string | undefined));
  const batch = one('done');
  if (!batch || !BATCH.test(batch)) return null;
  const files = Number(one('files'));
  return { batch, files: Number.isInteger(files) && files > 0 ? files : 0, did: (one('did') ?? 'Done').slice(0, 300) };
}

export function DoneBanner({ done }: { done: { batch: string; files: number; did: string } }) {
  return (
    <div
      role="status"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <span>
        <MaskedText text={done.did} /> — batch{' '}
        <Link href={`/batches/${encodeURIComponent(done.batch)}`} className="font-mono underline">
          {done.batch}
        </Link>
        .
      </span>
      <UndoBatchButton batch={done.batch} files={done.files || undefined} compact />
    </div>
  );
}
