/** Site navigation as data (one list feeds the header and tests). */
export const NAV = [
  { href: '/', label: 'Overview' },
  { href: '/tiers/verified', label: 'Verified' },
  { href: '/tiers/inferred', label: 'Inferred' },
  { href: '/tiers/quarantined', label: 'Quarantined' },
  { href: '/tiers/archived', label: 'Archived' },
  { href: '/review', label: 'Review' },
  { href: '/records', label: 'Records' },
  { href: '/audit', label: 'Audit' },
  { href: '/batches', label: 'Batches' },
  { href: '/context', label: 'Context' },
  { href: '/settings', label: 'Settings' },
] as const;

/**
 * The nav entry a path belongs to, or null: the longest entry that is the path or a parent of
 * it (`/audit/charts` is Audit, `/records/r1` is Records); the overview only for `/` itself,
 * since every path starts with it. A memory page belongs to no entry: it is reached from many.
 */
export function navCurrent(pathname: string): string | null {
  let best: string | null = null;
  for (const { href } of NAV) {
    const hit = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
    if (hit && (best === null || href.length > best.length)) best = href;
  }
  return best;
}
