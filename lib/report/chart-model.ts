/**
 * One description of each chart (series, colours, threshold lines and the table
 * view), shared by the dashboard's recharts component, the report's SVG and the
 * Markdown tables, so the page and every report show the same numbers.
 * Pure and client-safe: type imports only.
 */
import type { Bucket, ChartsData } from '../../db/queries/charts';

export interface Series {
  key: string;
  label: string;
  color: string;
}

export interface ChartSpec {
  id: string;
  title: string;
  description: string;
  kind: 'stacked' | 'lines' | 'bars' | 'hbars';
  x: string[];
  series: Series[];
  /** values[series][x] */
  values: number[][];
  /** Per-bar colours for single-series bar charts (zones). */
  barColors?: string[];
  /** Threshold lines drawn at the start of the category `at`. */
  refs?: { at: string; label: string }[];
  table: { head: string[]; rows: (string | number)[][] };
}

export const ACTION_COLORS: Record<string, string> = {
  create: '#0369a1',
  promote: '#047857',
  reaffirm: '#84cc16',
  demote: '#b91c1c',
  restore: '#c026d3',
  archive: '#475569',
  backfill: '#b45309',
  edit: '#7c3aed',
};
export const TIER_COLORS = {
  verified: '#047857',
  inferred: '#b45309',
  quarantined: '#b91c1c',
  archived: '#475569',
} as const;
const ZONE: Record<Bucket['zone'], { color: string; label: string }> = {
  ok: { color: '#047857', label: 'fresh' },
  stale: { color: '#b91c1c', label: 'stale' },
  observing: { color: '#64748b', label: 'observing' },
  due: { color: '#b45309', label: 'awaiting review' },
  passive: { color: '#64748b', label: 'passive (day 0–30)' },
  audit: { color: '#b45309', label: 'audit candidate (31–90)' },
  archive: { color: '#b91c1c', label: 'archive candidate (91+)' },
};
const CHECK_COLORS: Record<string, string> = { validate: '#475569', secret: '#b91c1c', injection: '#7c3aed' };

export function categoryLabel(check: string, code: string): string {
  return code.startsWith(`${check}.`) ? code : `${check}.${code}`;
}

function histogram(
  id: string,
  title: string,
  description: string,
  buckets: Bucket[],
  unit: string,
  refs: ChartSpec['refs'],
): ChartSpec {
  return {
    id,
    title,
    description,
    kind: 'bars',
    refs,
    x: buckets.map((b) => b.label),
    series: [{ key: 'count', label: 'Memories', color: '#475569' }],
    values: [buckets.map((b) => b.count)],
    barColors: buckets.map((b) => ZONE[b.zone].color),
    table: { head: [unit, 'Memories', 'Status'], rows: buckets.map((b) => [b.label, b.count, ZONE[b.zone].label]) },
  };
}

export function chartSpecs(c: ChartsData): ChartSpec[] {
  const actions = c.actions.length ? c.actions : ['create', 'promote', 'demote'];
  const tiers = Object.keys(TIER_COLORS) as (keyof typeof TIER_COLORS)[];
  return [
    {
      id: 'transitions',
      kind: 'stacked',
      title: 'Transitions per week',
      description: `Audit events per week (Monday, UTC) by action, ${c.weeks} weeks from ${c.from}.`,
      x: c.transitions.map((w) => w.week),
      series: actions.map((a) => ({ key: a, label: a, color: ACTION_COLORS[a] ?? '#64748b' })),
      values: actions.map((a) => c.transitions.map((w) => Number(w[a] ?? 0))),
      table: {
        head: ['Week of', ...actions, 'Total'],
        rows: c.transitions.map((w) => [w.week, ...actions.map((a) => Number(w[a] ?? 0)), w.total]),
      },
    },
    {
      id: 'tiers',
      kind: 'lines',
      title: 'Tier counts over time',
      description:
        'Memories per tier at the end of each week, reconstructed by undoing later audit events from today’s counts.',
      x: c.tiers.map((p) => p.week),
      series: tiers.map((t) => ({ key: t, label: t, color: TIER_COLORS[t] })),
      values: tiers.map((t) => c.tiers.map((p) => p[t])),
      table: { head: ['Week of', ...tiers], rows: c.tiers.map((p) => [p.week, ...tiers.map((t) => p[t])]) },
    },
    histogram(
      'verified',
      'Verified memories by days since last verification',
      'Stale after 90 days (day 91 on); “never” = no last-verified.',
      c.verified,
      'Days since verified',
      [{ at: '91–120', label: '90 days' }],
    ),
    histogram(
      'inferred',
      'Inferred memories by days in observation',
      'Ready for review once 7 days have passed since created-at.',
      c.inferred,
      'Days observed',
      [{ at: '7–13', label: '7 days' }],
    ),
    histogram(
      'quarantine',
      'Quarantined memories by age',
      'Day 0–30 passive, 31–90 audit candidate, 91+ archive candidate.',
      c.quarantine,
      'Days in quarantine',
      [
        { at: '31–45', label: '30 days' },
        { at: '91–120', label: '90 days' },
      ],
    ),
    {
      id: 'findings',
      kind: 'hbars',
      title: 'Validator findings by category',
      description: 'Findings of validate, secret-check and injection-check in the current files (messages masked).',
      x: c.findings.map((f) => categoryLabel(f.check, f.code)),
      series: [{ key: 'findings', label: 'Findings', color: '#475569' }],
      values: [c.findings.map((f) => f.findings)],
      barColors: c.findings.map((f) => CHECK_COLORS[f.check] ?? '#475569'),
      table: {
        head: ['Category', 'Severity', 'Findings', 'Memories'],
        rows: c.findings.map((f) => [categoryLabel(f.check, f.code), f.label, f.findings, f.memories]),
      },
    },
  ];
}
