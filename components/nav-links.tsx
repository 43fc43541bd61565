'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useLayoutEffect, useRef } from 'react';
import { NAV, navCurrent } from './nav';

/**
 * The header links, the page you are on marked (`aria-current="page"` and a filled style).
 * Below `md` the row scrolls sideways on its own, so the page never does (docs/dashboard.md
 * "Layout at 390 px"). When the row is narrower than its links, the marked link is scrolled
 * into the row's view before paint: the row's own scrollLeft only, so neither the page nor its
 * vertical position moves (`scrollIntoView` would scroll every scrolling ancestor).
 */
export function NavLinks() {
  const current = navCurrent(usePathname() ?? '/');
  const row = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const nav = row.current;
    const link = current ? nav?.querySelector<HTMLElement>(`a[href="${current}"]`) : null;
    if (!nav || !link || nav.scrollWidth <= nav.clientWidth) return;
    const left = link.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
    const right = left + link.offsetWidth;
    if (left < nav.scrollLeft || right > nav.scrollLeft + nav.clientWidth)
      nav.scrollLeft = Math.max(0, left - (nav.clientWidth - link.offsetWidth) / 2);
  }, [current]);
  return (
    <nav
      ref={row}
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
