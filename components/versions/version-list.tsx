/**
 * A memory's kept versions (docs/versions.md, "Versions in the dashboard"): time, sha256,
 * size and who made each, oldest first. Two radio columns pick the versions to compare (a
 * GET form: the choice is in the URL); each kept version other than the file's bytes now
 * has Recover.
 */
import type { VersionRow } from '@/lib/service/versions/version-view';
import { RecoverButton } from './recover-button';
import { bytes, shortSha, when } from './version-format';

export function VersionList({
  id,
  versions,
  a,
  b,
  action,
}: {
  id: string;
  versions: VersionRow[];
  a?: string;
  b?: string;
  action: string;
}) {
  const kept = versions.filter((v) => v.kept && v.sha);
  return (
    <form method="get" action={action} aria-label="Pick two versions to compare">
      {kept.length >= 2 ? (
        <p aria-hidden className="flex w-14 text-[10px] uppercase text-slate-500">
          <span className="w-7 text-center">from</span>
          <span className="w-7 text-center">to</span>
        </p>
      ) : null}
      <ol className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {versions.map((v, i) => (
          <li key={`${v.at}-${i}`} data-testid="version" className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
            {v.deleted ? (
              <span className="w-14 shrink-0 text-center text-xs text-slate-400">—</span>
            ) : (
              <span className="flex w-14 shrink-0">
                <input
                  className="w-7"
                  type="radio"
                  name="a"
                  value={shortSha(v.sha)}
                  defaultChecked={a ? v.sha?.startsWith(a) : false}
                  disabled={!v.kept}
                  aria-label={`compare from ${when(v.at)}`}
                />
                <input
                  className="w-7"
                  type="radio"
                  name="b"
                  value={shortSha(v.sha)}
                  defaultChecked={b ? v.sha?.startsWith(b) : false}
                  disabled={!v.kept}
                  aria-label={`compare to ${when(v.at)}`}
                />
              </span>
            )}
            <span className="tabular-nums">{when(v.at)}</span>
            {v.deleted ? (
              <span className="font-medium text-red-800 dark:text-red-300">deleted</span>
            ) : (
              <>
                <span className="font-mono text-xs" title={v.sha ?? undefined}>
                  {shortSha(v.sha)}
                </span>
                <span className="tabular-nums text-xs text-slate-600 dark:text-slate-400">{bytes(v.size)}</span>
              </>
            )}
            <span className="text-xs text-slate-600 dark:text-slate-400">{v.who}</span>
            {v.current ? <span className="rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">now</span> : null}
            {v.redacted ? (
              <span className="text-xs text-amber-800 dark:text-amber-300">
                credential values removed from the copy
              </span>
            ) : null}
            {!v.deleted && v.kept && !v.current && v.sha ? (
              <span className="ml-auto">
                <RecoverButton id={id} sha={v.sha} label="Recover this version" name={when(v.at)} compact />
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {kept.length >= 2 ? (
        <button
          type="submit"
          className="mt-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Compare the two picked
        </button>
      ) : null}
    </form>
  );
}
