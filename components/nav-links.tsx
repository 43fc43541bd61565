'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { NAV, navCurrent } from './nav';

/**
 * The header links, the page you are on marked (`aria-current="page"` and a filled style).
 * Below `md` the row scrolls sideways on its own, so the page never does (docs/dashboard.md
 * "Layout at 390 px").
 */
export function NavLinks() {
  const current = navCurrent(usePathname() ?? '/');
  return (
    <nav
      aria-label="Main"
      className="order-last -mx-2 flex w-full gap-1 overflow-x-auto whitespace-nowrap text-sm md:order-none md:mx-0 md:w-auto md:flex-wrap md:overflow-visible"
    >
      {NAV.map((item) => {
        const here = item.href === current;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={here ? 'page' : undefined}
            className={
              here
                ? 'rounded-md bg-slate-900 px-2.5 py-1.5 font-medium text-white dark:bg-slate-100 dark:text-slate-900'
                : 'rounded-md px-2.5 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
            }
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
