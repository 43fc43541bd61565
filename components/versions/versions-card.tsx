/**
 * The last kept versions of a memory on its page (docs/versions.md, "Versions in the
 * dashboard"): time, sha256, size, who; the versions page has them all, the diff and Recover.
 */
import Link from 'next/link';
import type { VersionRow } from '@/lib/service/versions/version-view';
import { bytes, shortSha, versionsHref, when } from './version-format';

const SHOWN = 5;

export function VersionsSummary({ id, versions }: { id: string; versions: VersionRow[] }) {
  if (versions.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No version kept yet (docs/versions.md).</p>;
  const recent = versions.slice(-SHOWN).reverse();
  return (
    <div>
      <ul className="space-y-1.5 text-xs" aria-label="Recent versions">
        {recent.map((v, i) => (
          <li key={`${v.at}-${i}`} className="flex flex-wrap gap-x-2">
            <span className="tabular-nums">{when(v.at)}</span>
            {v.deleted ? (
              <span className="text-red-800 dark:text-red-300">deleted</span>
            ) : (
              <>
                <span className="font-mono">{shortSha(v.sha)}</span>
                <span className="tabular-nums text-slate-600 dark:text-slate-400">{bytes(v.size)}</span>
              </>
            )}
            <span className="text-slate-600 dark:text-slate-400">{v.who}</span>
            {v.current ? <span className="rounded bg-slate-100 px-1 dark:bg-slate-800">now</span> : null}
          </li>
        ))}
      </ul>
      <Link
        href={versionsHref(id)}
        className="mt-3 inline-block text-sm text-teal-700 hover:underline dark:text-teal-300"
      >
        {versions.length > SHOWN ? `All ${versions.length} versions` : 'Versions'}, diff and recover →
      </Link>
    </div>
  );
}
