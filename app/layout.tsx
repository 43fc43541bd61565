import type { Metadata } from 'next';
import Link from 'next/link';
import { NavLinks } from '@/components/nav-links';
import { Providers } from './providers';
import { DemoBadge } from '@/components/demo-badge';
import { ProjectNav } from '@/components/project-nav';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'memtrust', template: '%s · memtrust' },
  description: 'Trust tiers for AI assistant memories',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 md:flex-nowrap md:px-6">
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
              {/* biome-ignore lint/performance/noImgElement: a 22-pixel SVG logo; next/image does not optimize SVG, so <Image> would only add a wrapper */}
              <img src="/icon.svg" alt="" width={22} height={22} />
              memtrust
            </Link>
            <NavLinks />
            <ProjectNav />
            <DemoBadge />
          </div>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-screen-2xl px-4 py-6 md:px-6 md:py-8">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
