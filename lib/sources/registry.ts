/**
 * The layouts memtrust reads as records (docs/records.md), in the order detection
 * tries them. Adding a layout: a folder under lib/sources/<layout>/ exporting a
 * LayoutAdapter, and one line here.
 */
import type { LayoutAdapter } from './layout-adapter';
import type { LayoutName } from './record';

export const RECORD_ADAPTERS: readonly LayoutAdapter[] = [
];

export function recordAdapter(layout: LayoutName | string): LayoutAdapter | null {
  return RECORD_ADAPTERS.find((a) => a.layout === layout) ?? null;
}

/** The first adapter whose store `dir` holds, with the shape it found. */
export function detectRecordLayout(dir: string): { adapter: LayoutAdapter; shape: string } | null {
  for (const adapter of RECORD_ADAPTERS) {
    const d = adapter.detect(dir);
    if (d) return { adapter, shape: d.shape };
  }
  return null;
}
