/**
 * The project filter survives every link and form of the paged pages (#34; docs/roots.md
 * "The Claude Code home"): the audit pager, report downloads and filters, the tier tables'
 * filters, the review inbox's filters and pager links, the records' filters. The components
 * are rendered to HTML as the server renders them, then their links and forms are read.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuditPager, ReportLinks } from '@/components/audit-links';
import { AuditFilters } from '@/components/audit-filters';
import { TableFilters } from '@/components/table-filters';
import { InboxFilters } from '@/components/inbox/inbox-filters';
import { RecordFilters } from '@/components/records/record-filters';
import { parseAuditParams } from '@/lib/report/filters';
import { parseTableParams } from '@/lib/web/url-state';
import { inboxHref, parseInboxParams } from '@/lib/web/inbox-url';
import { parseRecordParams, recordsHref } from '@/lib/web/record-url';

const PROJECT = '/home/dev/my shop';
const enc = encodeURIComponent(PROJECT).replace(/%20/g, '+');

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const hiddenProject = (html: string) => html.includes(`<input type="hidden" name="project" value="${PROJECT}"/>`);

describe('the project filter is kept', () => {
  it('by the audit pager, the report downloads and the audit filters (Apply and Clear)', () => {
    const p = parseAuditParams({ project: PROJECT, action: 'promote', page: '2' });
    const pager = hrefs(renderToStaticMarkup(createElement(AuditPager, { params: p, page: 2, pages: 3 })));
    expect(pager).toEqual([
      `/audit?action=promote&project=${enc}&page=1`,
      `/audit?action=promote&project=${enc}&page=3`,
    ]);
    for (const h of hrefs(renderToStaticMarkup(createElement(ReportLinks, { params: p }))))
      expect(h).toMatch(new RegExp(`^/report/\\w+\\?action=promote&project=${enc.replace(/\+/g, '\\+')}$`));
    const form = renderToStaticMarkup(
      createElement(AuditFilters, { base: '/audit', params: p, machines: [], sources: [] }),
    );
    expect(hiddenProject(form)).toBe(true);
    expect(hrefs(form)).toEqual([`/audit?project=${enc}`]);
  });

  it('by the tier tables’ filters and the records’ filters', () => {
    const t = parseTableParams({ project: PROJECT, finding: 'secret' });
    const html = renderToStaticMarkup(
      createElement(TableFilters, { base: '/tiers/all', tier: 'all', params: t, machines: [], sources: [] }),
    );
    expect(hiddenProject(html)).toBe(true);
    expect(hrefs(html)).toEqual([`/tiers/all?project=${enc}`]);
    const r = parseRecordParams({ project: PROJECT });
    const rec = renderToStaticMarkup(createElement(RecordFilters, { params: r, sources: [] } as never));
    expect(hiddenProject(rec)).toBe(true);
    expect(hrefs(rec)).toEqual([`/records?project=${enc}`]);
    expect(recordsHref(r, { page: 2 })).toContain(`project=${enc}`);
  });

  it('by the review inbox’s filters and its page links', () => {
    const p = parseInboxParams({ project: PROJECT, cls: 'credential' });
    const html = renderToStaticMarkup(
      createElement(InboxFilters, {
        params: p,
        facets: { sources: [], kinds: [], classCodes: { credential: [], personal: [] } },
      } as never),
    );
    expect(hiddenProject(html)).toBe(true);
    expect(hrefs(html)).toEqual([`/review?project=${enc}`]);
    expect(inboxHref(p, { page: 2 })).toContain(`project=${enc}`);
  });

  it('and a page without a project links without one', () => {
    const p = parseAuditParams({ action: 'promote', page: '2' });
    expect(hrefs(renderToStaticMarkup(createElement(AuditPager, { params: p, page: 2, pages: 3 })))[0]).toBe(
      '/audit?action=promote&page=1',
    );
    const form = renderToStaticMarkup(
      createElement(AuditFilters, { base: '/audit', params: p, machines: [], sources: [] }),
    );
    expect(form).not.toContain('name="project"');
    expect(hrefs(form)).toEqual(['/audit']);
  });
});
