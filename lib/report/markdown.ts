/** The Markdown report, for pasting into an issue: tables only, charts as their table views. */
import { chartSpecs } from './chart-model';
import { filterLine, recordTables, reportTables, summaryRows } from './sections';
import type { ReportData } from './types';

/** One table cell: no line breaks, no pipes, no HTML that a renderer would interpret. */
export function mdCell(v: string | number): string {
  return (
    String(v)
      .replace(/[\r\n]+/g, ' ')
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/`/g, '\\`')
      // No links, images or emphasis from file text (names, reasons) in a pasted issue.
      .replace(/[[\]*]/g, (c) => `\\${c}`)
  );
}

function mdTable(head: string[], rows: (string | number)[][]): string[] {
  return [
    `| ${head.map(mdCell).join(' | ')} |`,
    `|${head.map(() => ' --- ').join('|')}|`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ];
}

export function renderMarkdown(d: ReportData): string {
  const out: string[] = [
    '# memtrust report',
    '',
    `Generated ${d.generatedAt} on machine \`${mdCell(d.machine)}\` · period ${d.period.from} → ${d.period.to}`,
    '',
    `Filters: ${mdCell(filterLine(d))}`,
    '',
    'Roots:',
    ...d.roots.map((r) => `- \`${mdCell(r.root)}\` (${r.kind}${r.error ? `, ${mdCell(r.error)}` : ''})`),
    '',
    '## Tiers and attention',
    '',
    ...mdTable(['', 'Memories'], summaryRows(d)),
  ];
  for (const t of [...recordTables(d), ...reportTables(d)]) {
    out.push('', `## ${t.title}`, '', `_${t.note}_`, '');
    if (t.rows.length) out.push(...mdTable(t.head, t.rows));
    else out.push(t.empty);
  }
  out.push(
    '',
    '## Events in the period by action',
    '',
    ...mdTable(['Action', 'Events'], Object.entries(d.transitions.byAction)),
  );
  out.push('', '## Charts');
  for (const c of chartSpecs(d.charts))
    out.push('', `### ${c.title}`, '', `_${c.description}_`, '', ...mdTable(c.table.head, c.table.rows));
  out.push(
    '',
    `<sub>memtrust report v${d.version}: no memory bodies; finding messages masked; free text that looks like a secret withheld; lists capped at ${d.limit} rows.</sub>`,
    '',
  );
  return out.join('\n');
}
