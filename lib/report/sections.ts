/** The report's list sections as plain tables, shared by the HTML and Markdown renderers. */
import { flagWord } from '../../db/queries/record-rows';
import type { Capped, ReportData } from './types';
import { classLabel } from '../validators/types';

export interface Table {
  id: string;
  title: string;
  /** "12 memories" or "showing the first 500 of 1,204". */
  note: string;
  empty: string;
  head: string[];
  rows: (string | number)[][];
}

const num = (n: number) => n.toLocaleString('en-US');
const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : v);

function note<T>(list: Capped<T>, noun: string): string {
  const shown = list.items.length;
  return list.total > shown
    ? `showing the first ${num(shown)} of ${num(list.total)} ${noun}`
    : `${num(list.total)} ${noun}`;
}

export function reportTables(d: ReportData): Table[] {
  return [
    {
      id: 'stale',
      title: 'Stale verified memories',
      note: note(d.stale, 'memories'),
      empty: 'No verified memory is stale.',
      head: ['Memory', 'Name', 'Last verified', 'Days'],
      rows: d.stale.items.map((m) => [m.id, dash(m.name), dash(m.lastVerified), m.days === null ? 'never' : m.days]),
    },
    {
      id: 'review',
      title: 'Review queue (inferred, observation over)',
      note: note(d.review, 'memories'),
      empty: 'Nothing awaits review.',
      head: ['Memory', 'Name', 'Created', 'Days observed'],
      rows: d.review.items.map((m) => [
        m.id,
        dash(m.name),
        `${m.createdAt}${m.basis === 'mtime' ? ' (file time)' : ''}`,
        m.days,
      ]),
    },
    {
      id: 'quarantine',
      title: 'Quarantine',
      note: note(d.quarantine, 'memories'),
      empty: 'Nothing is quarantined.',
      head: ['Memory', 'Name', 'Window', 'Days', 'Since', 'Reason'],
      rows: d.quarantine.items.map((m) => [
        m.id,
        dash(m.name),
        m.window === 'layout' ? "the layout's rule" : m.window,
        dash(m.days),
        dash(m.since),
        dash(m.reason),
      ]),
    },
    {
      id: 'findings',
      title: 'Validator findings (failures and flags)',
      note: note(d.findings.list, 'findings'),
      empty: 'No failures or flags.',
      head: ['Memory', 'Tier', 'Check', 'Code', 'Class', 'Severity', 'Line', 'Message (masked)'],
      rows: d.findings.list.items.map((f) => [
        f.id,
        f.tier,
        f.check,
        f.code,
        classLabel(f.class),
        f.label,
        dash(f.line),
        f.message,
      ]),
    },
    {
      id: 'transitions',
      title: 'Transitions in the period',
      note: note(d.transitions.list, 'events'),
      empty: 'No audit events in the period.',
      head: [
        'When (UTC)',
        'Machine',
        'Actor',
        'Action',
        'Memory or record',
        'From → to',
        'Reason',
        'Findings',
        'Recovered',
      ],
      rows: d.transitions.list.items.map((e) => [
        e.at,
        e.machine,
        e.actor,
        e.recordAction ?? e.action,
        e.layout ? `${e.layout} ${e.source}:${e.memory}` : `${e.source}:${e.memory}`,
        `${e.from ?? '—'} → ${e.to ?? '—'}`,
        dash(e.reason),
        e.findings,
        e.recovered ? 'yes' : '',
      ]),
    },
  ];
}

export function summaryRows(d: ReportData): [string, number][] {
  return [
    ['Verified', d.tiers.verified],
    ['Inferred', d.tiers.inferred],
    ['Quarantined', d.tiers.quarantined],
    ['Archived', d.tiers.archived],
    ['Total', d.tiers.total],
    ['Stale verified (> 90 days)', d.attention.stale],
    ['Inferred awaiting review', d.attention.dueForReview],
    ['Inferred still observing', d.attention.observing],
    ['Quarantine: passive (day 0–30)', d.attention.quarantine.passive],
    ['Quarantine: audit candidates (31–90)', d.attention.quarantine.audit],
    ['Quarantine: archive candidates (91+)', d.attention.quarantine.archive],
    ['Conflicts', d.attention.conflicts],
  ];
}

export function filterLine(d: ReportData): string {
  return Object.entries(d.filters)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
}

/** One table per record root: what it is and how its records stand (docs/records.md, "History and reports"). */
export function recordTables(d: ReportData): Table[] {
  return d.records.map((r) => ({
    id: `records-${r.id}`,
    title: `Records: ${r.label}${r.label.includes(r.layout) ? '' : ` (${r.layout})`}`,
    note: r.error ? 'not read' : `${num(r.total)} records`,
    empty: '',
    head: ['', 'Records'],
    rows: r.error
      ? [
          ['Root', r.root],
          ['Not read', r.error],
        ]
      : [
          ['Root', r.root],
          ['Layout', r.layout],
          ['Shape', r.shape],
          ['Records', r.total],
          ['Verified', r.tiers.verified],
          ['Inferred', r.tiers.inferred],
          ['Quarantined', r.tiers.quarantined],
          ['Archived', r.tiers.archived],
          // The queue words of the pages (docs/dashboard.md "Words"): the conflict flag is a contradiction.
          ...Object.entries(r.flags).map(([f, n]): [string, number] => [`Flagged ${flagWord(f)}`, n]),
          ['Read problems', r.problems],
          ['Contradictions', r.conflicts],
          ['Events in the period', r.events],
        ],
  }));
}
