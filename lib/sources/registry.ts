/**
 * The layouts memtrust reads as records (docs/records.md), in the order detection
 * tries them. Adding a layout: a folder under lib/sources/<layout>/ exporting a
 * LayoutAdapter, and one line here.
 */
import { canonicalLayout } from './canonical/adapter';
import { consolidationAdapter } from './consolidation';
import { governedLayout } from './governed/adapter';
import type { LayoutAdapter } from './layout-adapter';
import type { LayoutName } from './record';
import { TEST_LAYOUT_ADAPTERS } from './test-layout';

export const RECORD_ADAPTERS: readonly LayoutAdapter[] = [canonicalLayout, governedLayout, consolidationAdapter];

/**
 * Tests only (docs/records.md, "Test layout"): adapters put in front of RECORD_ADAPTERS
 * by `registerForTests`, or by MEMTRUST_TEST_LAYOUT=1 for the CLI and the server the
 * tests start as child processes. Never set in use; RECORD_ADAPTERS stays the one list.
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
  return testAdapters.length ? [...testAdapters, ...RECORD_ADAPTERS] : RECORD_ADAPTERS;
}

export function recordAdapter(layout: LayoutName | string): LayoutAdapter | null {
  return adapters().find((a) => a.layout === layout) ?? null;
}

/** The first adapter whose store `dir` holds, with the shape it found. */
export function detectRecordLayout(dir: string): { adapter: LayoutAdapter; shape: string } | null {
  for (const adapter of adapters()) {
    const d = adapter.detect(dir);
    if (d) return { adapter, shape: d.shape };
  }
  return null;
}

/** The layout names of the registered adapters (for `--layout` checks and filters). */
export function recordLayoutNames(): string[] {
  return adapters().map((a) => a.layout);
}
