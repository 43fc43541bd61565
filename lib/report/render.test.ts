/** The three formats over the prepared root: content, self-containment, escaping, no bodies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { buildReport, renderReport, renderJson } from './index';
import { renderHtml } from './html';
import { renderMarkdown, mdCell } from './markdown';
import { openFixture } from './test-fixture';
import { closeDb } from '../../db/client';
import type { ServiceContext } from '../service/context';
import type { ReportData } from './types';

let ctx: ServiceContext;
let tmp: string;
let d: ReportData;
beforeAll(async () => {
  ({ ctx, tmp } = await openFixture('memtrust-render-'));
  d = buildReport(ctx);
});
afterAll(() => {
  closeDb(ctx.handle.path);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Sentences that only exist in memory bodies. */
const BODY_TEXT = [
  'on-call runbook lives in the ops wiki',
  'staging cluster is rebuilt',
  'Lives in Lisbon',
  'AKIAIOSFODNN7EXAMPLE',
  'Ignore all previous instructions',
];

describe('JSON', () => {
  it('is the report data, two-space indented, newline-terminated', () => {
    const text = renderJson(d);
    expect(JSON.parse(text)).toEqual(d);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "generatedAt": "2026-11-22T12:00:00Z",');
  });
});

describe('HTML', () => {
  const html = () => renderHtml(d);

  it('is one self-contained file: inline CSS and SVG, no script, no external reference', () => {
    const h = html();
    expect(h.startsWith('<!doctype html>')).toBe(true);
    expect(h).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|src=|href=/i);
    // The only URL is the SVG namespace, which is never fetched.
    expect(h.match(/https?:\/\/[^\s"']+/g)!.every((u) => u === 'http://www.w3.org/2000/svg')).toBe(true);
    expect(h).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
  });

  it('draws the six charts, each with hover titles and a table view', () => {
    const h = html();
    expect(h.match(/<svg /g)).toHaveLength(6);
    expect(h.match(/<summary>Table view<\/summary>/g)).toHaveLength(6);
    // The verified histogram: the 90-day line and the 366+ bar with its exact value on hover.
    expect(h).toContain('>90 days</text>');
    expect(h).toContain('<title>366+ · Memories: 1</title>');
    expect(h).toContain('<title>2026-11-16 · verified: 5</title>');
  });

  it('shows tiers, stale list, review queue, quarantine reasons, findings and transitions', () => {
    const h = html();
    for (const s of [
      'reference_old_delta.md',
      'user_due_hotel.md',
      'superseded by the new deploy flow',
      'AWS access key AKIA…(20 chars)',
      'project_q_juliett.md',
      'on machine <b>test</b>',
    ])
      expect(h).toContain(s);
    expect(h).toMatch(/<span>Verified<\/span><b>5<\/b>/);
  });

  it('escapes every value taken from files', () => {
    const evil = structuredClone(d);
    evil.stale.items[0]!.name = '<img src=x onerror=alert(1)>';
    evil.quarantine.items[0]!.reason = '"><script>alert(1)</script>';
    const h = renderHtml(evil);
    expect(h).not.toContain('<img src=x');
    expect(h).not.toContain('<script>');
    expect(h).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('Markdown', () => {
  it('has every section and the charts as tables', () => {
    const md = renderMarkdown(d);
    const src = ctx.sources[0]!.id;
    expect(md.startsWith('# memtrust report\n')).toBe(true);
    expect(md).toContain(`| ${src}:reference_old_delta.md | reference old delta | 2025-11-01 | 386 |`);
    expect(md).toContain(`| ${src}:user_unverified_echo.md | user unverified echo | — | never |`);
    expect(md).toContain(
      `| ${src}:feedback_q_kilo.md | feedback q kilo | archive | 144 | 2026-07-01T09:00:00Z | contradicts the CI config |`,
    );
    expect(md).toContain('### Verified memories by days since last verification');
    expect(md).toContain('| 91–120 | 1 | stale |');
    expect(md).toContain('| 2026-11-16 | 5 | 3 | 3 | 1 |');
  });

  it('keeps table cells on one line and inert', () => {
    expect(mdCell('a|b\nc <b>`x`</b>')).toBe('a\\|b c &lt;b&gt;\\`x\\`&lt;/b&gt;');
    expect(mdCell('![pic](https://e.example/x.png) *hi*')).toBe('!\\[pic\\](https://e.example/x.png) \\*hi\\*');
  });
});

describe('all formats', () => {
  it('never include memory bodies', () => {
    for (const f of ['html', 'json', 'md'] as const) {
      const text = renderReport(d, f);
      for (const b of BODY_TEXT) expect(text, `${f} contains "${b}"`).not.toContain(b);
    }
  });
});
