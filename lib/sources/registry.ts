/**
 * Every layout memtrust reads (docs/layouts.md), in the order detection tries them: the
 * two file layouts (read file by file: their adapters have `files`), then the layouts read
 * as records. Adding a layout: a folder under lib/sources/<layout>/ exporting a
 * LayoutAdapter, and one line here.
 */
import { canonicalLayout } from './canonical/adapter';
import { claudeCodeLayout } from './claude-code';
import { consolidationAdapter } from './consolidation';
import { governedLayout } from './governed/adapter';
import type { LayoutAdapter } from './layout-adapter';
import type { LayoutName } from './record';
import { TEST_LAYOUT_ADAPTERS } from './test-layout';
import { trustRootLayout } from './trust-root';

export const LAYOUT_ADAPTERS: readonly LayoutAdapter[] = [
  trustRootLayout,
  claudeCodeLayout,
  canonicalLayout,
  governedLayout,
  consolidationAdapter,
];

/**
 * Tests only (docs/records.md, "Test layout"): adapters put in front of LAYOUT_ADAPTERS
 * by `registerForTests`, or by MEMTRUST_TEST_LAYOUT=1 for the CLI and the server the
 * tests start as child processes. Never set in use; LAYOUT_ADAPTERS stays the one list.
 */
const testAdapters: LayoutAdapter[] = process.env.MEMTRUST_TEST_LAYOUT === '1' ? [...TEST_LAYOUT_ADAPTERS] : [];

/** Registers an adapter for the current test; returns the function that removes it again. */
export function registerForTests(adapter: LayoutAdapter): () => void {
  testAdapters.unshift(adapter);
  return () => {
    const i = testAdapters.indexOf(adapter);
    if (i >= 0) testAdapters.splice(i, 1);
  };
}

function adapters(): readonly LayoutAdapter[] {
  return testAdapters.length ? [...testAdapters, ...LAYOUT_ADAPTERS] : LAYOUT_ADAPTERS;
}

export function layoutAdapter(layout: LayoutName | string): LayoutAdapter | null {
  return adapters().find((a) => a.layout === layout) ?? null;
}

/** The first adapter whose store `dir` holds, with the shape it found. */
export function detectLayoutAdapter(dir: string): { adapter: LayoutAdapter; shape: string } | null {
  for (const adapter of adapters()) {
    const d = adapter.detect(dir);
    if (d) return { adapter, shape: d.shape };
  }
  return null;
}

/** The layout names of the registered adapters (for `--layout` checks and filters); `files`: the file layouts' only, or the others'. */
export function layoutNames(files?: boolean): string[] {
  // The file layouts first (test adapters are tried before them, but never listed before them).
  const all = adapters();
  return [...all.filter((a) => a.files), ...all.filter((a) => !a.files)]
    .filter((a) => files === undefined || !!a.files === files)
    .map((a) => a.layout);
}
