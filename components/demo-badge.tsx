import { loadConfig } from '@/lib/core/config';
import { context } from '@/lib/server';

/**
 * A "demo" mark in the header of every page while the dashboard shows the generated demo
 * root (docs/configuration.md; docs/roots.md). Reads only the configuration.
 */
export function DemoBadge() {
  let demo = false;
  let root = '';
  try {
    // The server's configuration when it has one: loading it again would walk the Claude Code
    // home's folders on every page (docs/roots.md "The Claude Code home").
    let config: ReturnType<typeof loadConfig>;
    try {
      config = context().config;
    } catch {
      config = loadConfig();
    }
    demo = config.demo;
    root = config.roots[0] ?? '';
  } catch {
    return null;
  }
  if (!demo) return null;
  return (
    <span
      role="note"
      title={`No memory root is configured: this is generated demo data in ${root}`}
      className="ml-auto rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      Demo data — not your memories
    </span>
  );
}
