/**
 * "How many findings would this allowance clear?" — answered before the owner
 * saves `allowNetworks` / `allowHomeUsers` (docs/credentials.md).
 *
 * The index holds only masked messages (`10.x.x.x`), so the addresses are not
 * there to compare: the files are read again. When the new lists only add
 * entries, only files the index lists with a private-address or home-path
 * finding can change; otherwise every indexed memory is checked.
 */
import { FILE_ENTRY } from '../../../db/queries/entry-kind';
import fs from 'node:fs';
import type { ServiceContext } from '../context';
import { confine } from '../../core/paths';
import { secretCheck } from '../../validators/secrets';
import { FILE_CAP_BYTES, type OwnerIdentity } from '../../validators/types';

export interface AllowPreview {
  /** Personal findings that go away with the new lists. */
  cleared: number;
  /** Findings that come back (entries removed). */
  added: number;
  /** Memories with a secret finding today that would have none. */
  filesClean: number;
  /** Files read to answer. */
  checked: number;
}

const PERSONAL_SPARED = ['secret.private-ip', 'secret.home-path'];

export function previewAllowances(
  ctx: ServiceContext,
  next: { allowNetworks: string[]; allowHomeUsers: string[] },
): AllowPreview {
  const current = ctx.owner();
  const proposed: OwnerIdentity = {
    ...current,
    allowNetworks: next.allowNetworks,
    allowHomeUsers: next.allowHomeUsers,
  };
  const superset = (now: string[] | undefined, later: string[]) => (now ?? []).every((x) => later.includes(x));
  const onlyAdds =
    superset(current.allowNetworks, next.allowNetworks) && superset(current.allowHomeUsers, next.allowHomeUsers);
  const rows = (
    onlyAdds
      ? ctx.handle.sqlite
          .prepare(
            `SELECT DISTINCT m.source, m.rel_path AS rel FROM findings f JOIN entries m ON m.key = f.key
             WHERE f.code IN (${PERSONAL_SPARED.map(() => '?').join(',')}) AND m.error IS NULL`,
          )
          .all(...PERSONAL_SPARED)
      : ctx.handle.sqlite
          .prepare(`SELECT source, rel_path AS rel FROM entries WHERE error IS NULL AND ${FILE_ENTRY}`)
          .all()
  ) as { source: string; rel: string }[];
  const roots = new Map(ctx.sources.map((s) => [s.id, s.root]));
  const out: AllowPreview = { cleared: 0, added: 0, filesClean: 0, checked: 0 };
  for (const r of rows) {
    const root = roots.get(r.source);
    if (!root) continue;
    let bytes: Buffer;
    try {
      const abs = confine(root, r.rel);
      if (fs.statSync(abs).size > FILE_CAP_BYTES) continue;
      bytes = fs.readFileSync(abs);
    } catch {
      continue; // gone or refused since the last scan: nothing to preview
    }
    out.checked++;
    const before = secretCheck(bytes, current).findings.length;
    const after = secretCheck(bytes, proposed).findings.length;
    if (after < before) out.cleared += before - after;
    else out.added += after - before;
    if (before > 0 && after === 0) out.filesClean++;
  }
  return out;
}
