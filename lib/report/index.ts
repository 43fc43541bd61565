/** `memtrust report` and the dashboard's download: build the data once, render one format. */
import type { ServiceContext } from '../service/context';
import { buildReport } from './build';
import { renderHtml } from './html';
import { renderMarkdown } from './markdown';
import type { ReportData, ReportFormat, ReportOptions } from './types';

export { buildReport, DEFAULT_LIMIT, DEFAULT_PERIOD_DAYS } from './build';
export { REPORT_FORMATS, type ReportData, type ReportFormat, type ReportOptions } from './types';

/** Stable bytes: key order is fixed by construction, so equal data gives equal JSON. */
export function renderJson(d: ReportData): string {
  return `${JSON.stringify(d, null, 2)}\n`;
}

export function renderReport(d: ReportData, format: ReportFormat): string {
  return format === 'html' ? renderHtml(d) : format === 'md' ? renderMarkdown(d) : renderJson(d);
}

export const REPORT_MIME: Record<ReportFormat, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

export function reportFilename(d: ReportData, format: ReportFormat): string {
  const safe = d.machine.replace(/[^A-Za-z0-9_-]/g, '-');
  return `memtrust-report-${safe}-${d.generatedAt.slice(0, 10)}.${format}`;
}

export function makeReport(
  ctx: ServiceContext,
  format: ReportFormat,
  opts: ReportOptions = {},
): { data: ReportData; text: string } {
  const data = buildReport(ctx, opts);
  return { data, text: renderReport(data, format) };
}
