/**
 * Charts as inline SVG strings for the self-contained HTML report: no script,
 * no fonts, no external request. Hover text comes from SVG <title> elements
 * (the browser's own tooltip), so exact values show without JavaScript.
 */
import type { ChartSpec } from './chart-model';

export const esc = (s: string | number): string =>
  String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const W = 720;
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A round axis maximum and its tick step (1-2-5 series). */
export function niceScale(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 4, step: 1 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const s = Math.max(1, step);
  return { top: Math.ceil(max / s) * s, step: s };
}

function legend(spec: ChartSpec, y: number): string {
  if (spec.series.length < 2) return '';
  let x = 48;
  return spec.series
    .map((s) => {
      const out = `<rect x="${x}" y="${y - 9}" width="10" height="10" rx="2" fill="${s.color}"/><text x="${x + 14}" y="${y}" font-size="11">${esc(s.label)}</text>`;
      x += 24 + s.label.length * 6.5;
      return out;
    })
    .join('');
}

function verticalChart(spec: ChartSpec): string {
  const H = 260;
  const m = { l: 48, r: 12, t: spec.series.length > 1 ? 28 : 14, b: 40 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const n = Math.max(spec.x.length, 1);
  const band = pw / n;
  const totals = spec.x.map((_, i) =>
    spec.kind === 'stacked'
      ? spec.values.reduce((a, v) => a + (v[i] ?? 0), 0)
      : Math.max(0, ...spec.values.map((v) => v[i] ?? 0)),
  );
  const { top, step } = niceScale(Math.max(0, ...totals));
  const y = (v: number) => m.t + ph - (v / top) * ph;
  const parts: string[] = [legend(spec, 16)];
  for (let t = 0; t <= top; t += step) {
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#94a3b8" stroke-opacity="0.35"/>`,
    );
    parts.push(`<text x="${m.l - 6}" y="${(y(t) + 4).toFixed(1)}" font-size="11" text-anchor="end">${fmt(t)}</text>`);
  }
  const every = Math.ceil(n / Math.floor(pw / 78));
  spec.x.forEach((label, i) => {
    if (i % every !== 0) return;
    parts.push(
      `<text x="${(m.l + band * (i + 0.5)).toFixed(1)}" y="${H - m.b + 16}" font-size="11" text-anchor="middle">${esc(label)}</text>`,
    );
  });
  if (spec.kind === 'lines') {
    spec.series.forEach((s, si) => {
      const pts = spec.x.map(
        (_, i) => `${(m.l + band * (i + 0.5)).toFixed(1)},${y(spec.values[si]?.[i] ?? 0).toFixed(1)}`,
      );
      parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.join(' ')}"/>`);
      spec.x.forEach((label, i) => {
        const v = spec.values[si]?.[i] ?? 0;
        parts.push(
          `<circle cx="${(m.l + band * (i + 0.5)).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${label} · ${s.label}: ${v}`)}</title></circle>`,
        );
      });
    });
  } else {
    const bw = Math.max(2, band * 0.7);
    spec.x.forEach((label, i) => {
      let base = 0;
      spec.series.forEach((s, si) => {
        const v = spec.values[si]?.[i] ?? 0;
        if (v <= 0) return;
        const fill = spec.barColors?.[i] ?? s.color;
        const y0 = y(base + v);
        parts.push(
          `<rect x="${(m.l + band * i + (band - bw) / 2).toFixed(1)}" y="${y0.toFixed(1)}" width="${bw.toFixed(1)}" height="${(y(base) - y0).toFixed(1)}" fill="${fill}"><title>${esc(`${label} · ${s.label}: ${v}`)}</title></rect>`,
        );
        if (spec.kind === 'stacked') base += v;
      });
    });
  }
  for (const r of spec.refs ?? []) {
    const i = spec.x.indexOf(r.at);
    if (i < 0) continue;
    const x = (m.l + band * i).toFixed(1);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${m.t}" y2="${m.t + ph}" stroke="#0f172a" stroke-dasharray="4 3" stroke-width="1.5"/>`,
    );
    parts.push(
      `<text x="${x}" y="${m.t - 3}" font-size="11" text-anchor="middle" font-weight="600">${esc(r.label)}</text>`,
    );
  }
  parts.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${m.t + ph}" y2="${m.t + ph}" stroke="#64748b"/>`);
  return frame(spec, H, parts);
}

function horizontalChart(spec: ChartSpec): string {
  const row = 22;
  const m = { l: 250, r: 48, t: 8, b: 8 };
  const H = Math.max(60, m.t + m.b + row * spec.x.length);
  const pw = W - m.l - m.r;
  const vals = spec.values[0] ?? [];
  const max = Math.max(1, ...vals);
  const parts: string[] = [];
  if (spec.x.length === 0)
    parts.push(`<text x="${W / 2}" y="34" font-size="12" text-anchor="middle">No findings</text>`);
  spec.x.forEach((label, i) => {
    const v = vals[i] ?? 0;
    const yy = m.t + row * i;
    const w = (v / max) * pw;
    parts.push(`<text x="${m.l - 8}" y="${yy + 15}" font-size="11" text-anchor="end">${esc(label)}</text>`);
    parts.push(
      `<rect x="${m.l}" y="${yy + 4}" width="${Math.max(1, w).toFixed(1)}" height="${row - 8}" fill="${spec.barColors?.[i] ?? '#475569'}"><title>${esc(`${label}: ${v}`)}</title></rect>`,
    );
    parts.push(`<text x="${(m.l + w + 6).toFixed(1)}" y="${yy + 15}" font-size="11">${v}</text>`);
  });
  return frame(spec, H, parts);
}

function frame(spec: ChartSpec, h: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-labelledby="c-${spec.id}-t" fill="currentColor" font-family="system-ui, sans-serif"><title id="c-${spec.id}-t">${esc(`${spec.title}. ${spec.description}`)}</title>${parts.join('')}</svg>`;
}

export function renderSvg(spec: ChartSpec): string {
  return spec.kind === 'hbars' ? horizontalChart(spec) : verticalChart(spec);
}
