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
  { href: '/context', label: 'Context' },
  { href: '/settings', label: 'Settings' },
] as const;
