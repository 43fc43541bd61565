/**
 * GET /report/html|json|md — the report as a download, with the audit page's
 * filters (source, type, action, actor, machine, memory, from → since, to → until).
 */
import type { NextRequest } from 'next/server';
import { freshContext } from '@/lib/server';
import { scopedContext } from '@/lib/service/project-filter';
import { pageProject } from '@/app/page-project';
import { makeReport, REPORT_FORMATS, REPORT_MIME, reportFilename, type ReportFormat } from '@/lib/report';
import { parseAuditParams, searchParamsRecord, toAuditFilter } from '@/lib/report/filters';

export const dynamic = 'force-dynamic';

export async function GET(req: NextRequest, { params }: { params: Promise<{ format: string }> }) {
  const { format } = await params;
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    return new Response(`Unknown report format. Use one of: ${REPORT_FORMATS.join(', ')}.\n`, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const p = parseAuditParams(searchParamsRecord(req.nextUrl.searchParams));
  const f = toAuditFilter(p);
  // The project filter, as on the audit page the download is made from (docs/roots.md "The Claude Code home").
  const { ctx } = scopedContext(freshContext(), await pageProject(p.project));
  const { data, text } = makeReport(ctx, format as ReportFormat, {
    source: p.source,
    type: p.type,
    action: p.action,
    actor: p.actor,
    machine: p.machine,
    memory: p.memory,
    sinceMs: f.fromMs,
    untilMs: f.toMs,
  });
  return new Response(text, {
    headers: {
      'Content-Type': REPORT_MIME[format as ReportFormat],
      'Content-Disposition': `attachment; filename="${reportFilename(data, format as ReportFormat)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
