/**
 * A line diff between two kept versions (docs/versions.md, "Versions in the dashboard"). The
 * text is masked on the server: kept copies hold no credential value, personal values show as
 * masks, the marker stands where a credential was. Long lines wrap: no sideways scroll.
 */
import type { VersionDiff } from '@/lib/service/versions/version-view';
import { LineDiffList } from '@/components/line-diff-list';
import { MaskedText } from '@/components/records/masked-text';
import { shortSha, when } from './version-format';

export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const changed = diff.added + diff.removed;
  return (
    <div>
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
        From <span className="font-mono">{shortSha(diff.from.sha)}</span> ({when(diff.from.at)}) to{' '}
        <span className="font-mono">{shortSha(diff.to.sha)}</span> ({when(diff.to.at)}):{' '}
        {changed === 0 ? 'the same lines' : `${diff.removed} removed, ${diff.added} added`}
      </p>
      <LineDiffList rows={diff.rows} text={(t) => <MaskedText text={t} />} />
    </div>
  );
}
