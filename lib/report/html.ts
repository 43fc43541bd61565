/**
 * The HTML report: one self-contained file (inline CSS, inline SVG, no script,
 * no external request — a CSP meta tag forbids any), to open offline or mail.
 */
import { chartSpecs, type ChartSpec } from './chart-model';
import { filterLine, recordTables, reportTables, summaryRows, type Table } from './sections';
import { esc, renderSvg } from './svg';
import type { ReportData } from './types';

const CSS = `
:root{color-scheme:light dark;--fg:#0f172a;--muted:#475569;--bg:#f8fafc;--card:#fff;--line:#e2e8f0}
@media (prefers-color-scheme:dark){:root{--fg:#f1f5f9;--muted:#94a3b8;--bg:#020617;--card:#0f172a;--line:#1e293b}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{max-width:1080px;margin:0 auto;padding:32px 24px}h1{font-size:24px;margin:0}h2{font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:32px 0 8px}
h3{font-size:15px;margin:0 0 2px}.meta{color:var(--muted);margin:4px 0}.note{color:var(--muted);font-size:12px;margin:0 0 6px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:10px}
.card{background:var(--card);border:1px solid var(--line);border-left:4px solid #94a3b8;border-radius:8px;padding:10px 12px}
.card b{display:block;font-size:22px;font-variant-numeric:tabular-nums}.card span{color:var(--muted);font-size:12px}
.verified{border-left-color:#047857}.inferred{border-left-color:#b45309}.quarantined{border-left-color:#b91c1c}.archived{border-left-color:#475569}
.box{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:12.5px}th,td{text-align:left;padding:5px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}td.n{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
figure{margin:0 0 16px;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px}
figure p{color:var(--muted);font-size:12px;margin:0 0 8px}details{margin-top:8px}summary{cursor:pointer;color:var(--muted);font-size:12px}
.charts{display:grid;grid-template-columns:1fr;gap:0}@media (min-width:1000px){.charts{grid-template-columns:1fr 1fr;gap:0 16px}}
footer{color:var(--muted);font-size:12px;margin-top:32px}@media print{details{display:block}summary{display:none}}
`;

const isNum = (v: unknown) => typeof v === 'number';

function table(head: string[], rows: (string | number)[][]): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const tr = rows
    .map((r) => `<tr>${r.map((c) => `<td${isNum(c) ? ' class="n"' : ''}>${esc(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

function section(t: Table): string {
  const body = t.rows.length
    ? `<div class="box">${table(t.head, t.rows)}</div>`
    : `<p class="note">${esc(t.empty)}</p>`;
  return `<section id="${t.id}"><h2>${esc(t.title)}</h2><p class="note">${esc(t.note)}</p>${body}</section>`;
}

function chart(spec: ChartSpec): string {
  return `<figure id="chart-${spec.id}"><h3>${esc(spec.title)}</h3><p>${esc(spec.description)}</p>${renderSvg(spec)}
<details><summary>Table view</summary>${table(spec.table.head, spec.table.rows)}</details></figure>`;
}

export function renderHtml(d: ReportData): string {
  const cards = summaryRows(d)
    .slice(0, 5)
    .map(
      ([label, n]) =>
        `<div class="card ${label.toLowerCase()}"><span>${esc(label)}</span><b>${n.toLocaleString('en-US')}</b></div>`,
    )
    .join('');
  const roots = d.roots
    .map((r) => `<li><code>${esc(r.root)}</code> — ${esc(r.kind)}${r.error ? ` (${esc(r.error)})` : ''}</li>`)
    .join('');
  const byAction = Object.entries(d.transitions.byAction).map(([a, n]) => [a, n] as [string, number]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>memtrust report · ${esc(d.machine)} · ${esc(d.generatedAt.slice(0, 10))}</title><style>${CSS}</style></head>
<body><main>
<header><h1>memtrust report</h1>
<p class="meta">Generated ${esc(d.generatedAt)} on machine <b>${esc(d.machine)}</b> · period ${esc(d.period.from)} → ${esc(d.period.to)}</p>
<p class="meta">Filters: ${esc(filterLine(d))}</p>
<ul class="meta">${roots}</ul></header>
<section id="tiers"><h2>Tiers</h2><div class="cards">${cards}</div></section>
<section id="attention"><h2>Needs attention</h2><div class="box">${table(['', 'Memories'], summaryRows(d).slice(5))}</div></section>
${recordTables(d).map(section).join('\n')}
<section id="charts"><h2>Charts</h2><div class="charts">
${chartSpecs(d.charts).map(chart).join('\n')}
</div></section>
${reportTables(d).map(section).join('\n')}
<section id="actions"><h2>Events in the period by action</h2><div class="box">${table(['Action', 'Events'], byAction)}</div></section>
<footer>memtrust report v${d.version}. Memory bodies are never included; finding messages are masked and any free text that looks like a secret is withheld. Lists are capped at ${d.limit} rows.</footer>
</main></body></html>
`;
}
