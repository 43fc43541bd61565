/**
 * The tier tables as of a time (docs/versions.md, "As of"): `list --as-of`'s items
 * (as-of.ts), each read into the tier it had then by the same rule the index uses
 * (lib/trust/facts.ts `effectiveTier`: the folder, then `trust-level`).
 */
import type { ServiceContext } from '../context';
import type { EffectiveTier, Location } from '../../trust/tiers';
import { effectiveTier } from '../../trust/facts';
import { maskKept } from './version-view';
import { type AsOfItem, listAsOf } from './as-of';

export interface AsOfRow extends AsOfItem {
  tier: EffectiveTier;
}

function locationOf(rel: string): Location {
  const top = rel.split('/', 1)[0];
  return top === 'quarantine' || top === 'archive' ? top : 'memories';
}

/** The roots (`sources`, else every configured one) as they were at `at`, in `tier` ('all': every tier); null without a store. */
export function asOfRows(
  ctx: ServiceContext,
  at: Date,
  tier: EffectiveTier | 'all',
  sources?: readonly string[],
): AsOfRow[] | null {
  const items = listAsOf(ctx, at);
  if (!items) return null;
  const owner = ctx.owner();
  const out: AsOfRow[] = [];
  for (const i of items) {
    if (sources && !sources.includes(i.source)) continue;
    const t = effectiveTier({
      filename: i.relPath.split('/').at(-1)!,
      location: locationOf(i.relPath),
      trustLevel: i.trustLevel ?? undefined,
      mtime: new Date(i.seen),
    }).tier;
    if (tier !== 'all' && t !== tier) continue;
    // A name is shown on a page: masked like every value a page shows (docs/credentials.md).
    out.push({ ...i, name: i.name === null ? null : maskKept(i.name, owner), tier: t });
  }
  return out;
}
