/**
 * The report's data, shared by the three renderers. Every field is plain JSON,
 * every list is sorted deterministically and capped (with its true total), and
 * every free-text value has passed the secret guard (lib/report/redact.ts).
 * Memory bodies are never part of it.
 */
import type { ChartsData } from '../../db/queries/charts';

export const REPORT_FORMATS = ['html', 'json', 'md'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportOptions {
  source?: string;
  type?: string;
  action?: string;
  actor?: string;
  machine?: string;
  memory?: string;
  /** Start of the period (inclusive); default: 90 days before today (UTC midnight). */
  sinceMs?: number;
  /** End of the period (exclusive); default: now. */
  untilMs?: number;
  /** Longest list kept in each section. */
  limit?: number;
}

export interface Capped<T> {
  total: number;
  items: T[];
}

export interface MemoryRef {
  id: string;
  source: string;
  file: string;
  name: string | null;
}

export interface StaleItem extends MemoryRef {
  lastVerified: string | null;
  /** Whole UTC days since last-verified; null = never verified. */
  days: number | null;
}

export interface ReviewItem extends MemoryRef {
  createdAt: string;
  /** Elapsed days in observation. */
  days: number;
  basis: 'created-at' | 'mtime';
}

export interface QuarantineItem extends MemoryRef {
  /** Null for a record: it has no quarantine clock of memtrust's (docs/records.md "History and reports"). */
  since: string | null;
  days: number | null;
  /** `layout` for a record: what happens to it next is its layout's rule, not memtrust's windows. */
  window: 'passive' | 'audit' | 'archive' | 'layout';
  reason: string | null;
}

export interface FindingItem extends MemoryRef {
  tier: string;
  check: string;
  code: string;
  label: string;
  line: number | null;
  message: string;
  /** Secret findings: `credential` or `personal`; null for the other checks. */
  class: string | null;
}

export interface TransitionItem {
  at: string;
  machine: string;
  actor: string;
  action: string;
  source: string;
  memory: string;
  from: string | null;
  to: string | null;
  reason: string | null;
  findings: number;
  recovered: boolean;
  /** A record event only: its layout and the layout's own verb; `memory` is the record's key. */
  layout?: string;
  recordAction?: string;
}

/** One record root's section (docs/records.md, "History and reports"). */
export interface RecordRootSection {
  id: string;
  root: string;
  label: string;
  layout: string;
  shape: string;
  /** Records now, and per tier. */
  total: number;
  tiers: { verified: number; inferred: number; quarantined: number; archived: number };
  /** Records carrying each flag, by flag name (sorted). */
  flags: Record<string, number>;
  /** Entries the read could not turn into a record. */
  problems: number;
  /** Records flagged `conflict`. */
  conflicts: number;
  /** Events of this root in the period (the report's event filters applied). */
  events: number;
  error: string | null;
}

export interface ReportData {
  report: 'memtrust';
  version: 1;
  generatedAt: string;
  machine: string;
  roots: { id: string; root: string; kind: string; error: string | null }[];
  filters: Record<string, string>;
  period: { from: string; to: string };
  tiers: { total: number; verified: number; inferred: number; quarantined: number; archived: number };
  attention: {
    stale: number;
    dueForReview: number;
    observing: number;
    conflicts: number;
    quarantine: { passive: number; audit: number; archive: number };
  };
  stale: Capped<StaleItem>;
  review: Capped<ReviewItem>;
  quarantine: Capped<QuarantineItem>;
  findings: { categories: ChartsData['findings']; list: Capped<FindingItem> };
  transitions: { byAction: Record<string, number>; list: Capped<TransitionItem> };
  /** One section per record root (canonical, governed, consolidation…); empty when none is configured. */
  records: RecordRootSection[];
  charts: ChartsData;
  limit: number;
}
