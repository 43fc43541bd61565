import type { Metadata } from 'next';
import Link from 'next/link';
import { NAV } from '@/components/nav';
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
          <div className="mx-auto flex max-w-screen-2xl items-center gap-6 px-6 py-3">
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
              {/* biome-ignore lint/performance/noImgElement: a 22-pixel SVG logo; next/image does not optimize SVG, so <Image> would only add a wrapper */}
              <img src="/icon.svg" alt="" width={22} height={22} />
              memtrust
            </Link>
            <nav aria-label="Main" className="flex flex-wrap gap-1 text-sm">
              {NAV.map((item) => (
                <Link
                  key={item.href}
                  href={item.href}
                  className="rounded-md px-2.5 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
                >
                  {item.label}
                </Link>
              ))}
            </nav>
            <ProjectNav />
            <DemoBadge />
          </div>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-screen-2xl px-6 py-8">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
