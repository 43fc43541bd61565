import Link from 'next/link';
import { auditHref, type AuditParams } from '@/lib/report/filters';

const FORMATS = [
  { format: 'html', label: 'HTML' },
  { format: 'json', label: 'JSON' },
  { format: 'md', label: 'Markdown' },
] as const;

/** Report downloads carry the filters in force (the route handler answers with Content-Disposition). */
export function ReportLinks({ params }: { params: AuditParams }) {
  return (
    <span className="flex items-center gap-1" role="group" aria-label="Download report">
      <span className="text-slate-600 dark:text-slate-400">Report:</span>
      {FORMATS.map((f) => (
        <a
          key={f.format}
          href={auditHref(`/report/${f.format}`, { ...params, page: undefined })}
          download
          className="rounded-md bg-teal-700 px-2.5 py-1.5 font-medium text-white hover:bg-teal-800"
          aria-label={`Download the report as ${f.label}`}
        >
          {f.label}
        </a>
      ))}
    </span>
  );
}

export function AuditPager({ params, page, pages }: { params: AuditParams; page: number; pages: number }) {
  if (pages <= 1) return null;
  const link = 'rounded-md px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800';
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
      {page > 1 ? (
        <Link href={auditHref('/audit', params, { page: page - 1 })} className={link} rel="prev">
          ← Newer
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-600 dark:text-slate-400">
        Page {page.toLocaleString('en-US')} of {pages.toLocaleString('en-US')}
      </span>
      {page < pages ? (
        <Link href={auditHref('/audit', params, { page: page + 1 })} className={link} rel="next">
          Older →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
