import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AuditShare, FirstHour } from '@/lib/service/index/first-hour';
import { FirstHourSteps } from './first-hour-steps';

const share = (i: number, quarantine: number, memories: number, project: string | null): AuditShare => ({
  source: `s${i}`,
  root: `/home/u/.claude/projects/-src-p${i}/memory`,
  project,
  memories,
  quarantine,
  heavy: quarantine * 4 > memories,
});

const hour = (audit: AuditShare[]): FirstHour => ({
  privateAddresses: 3,
  allowedNetworks: 0,
  backfill: 10,
  review: 0,
  credentials: 0,
  audit,
  auditHeavy: audit.some((a) => a.heavy),
  show: true,
});

/** The note's text, tags dropped. */
const note = (f: FirstHour) => {
  const html = renderToStaticMarkup(createElement(FirstHourSteps, { f }));
  const m = /<div role="note" data-testid="audit-heavy"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return m ? m[1]!.replace(/<li[^>]*>/g, '\n').replace(/<[^>]+>/g, '') : null;
};

describe('the first hour: why the audit is not the first step', () => {
  it('counts every memory it would quarantine, names the heaviest roots by project, largest first, and counts the rest', () => {
    const audit = [
      share(1, 26, 26, '/src/p1'),
      share(2, 206, 206, '/src/p2'),
      share(3, 1, 40, '/src/p3'), // not heavy: counted in the total, not listed
      share(4, 8, 8, null),
      share(5, 80, 130, '/src/p5'),
      share(6, 2, 2, '/src/p6'),
      share(7, 109, 109, '/src/p7'),
      share(8, 5, 5, '/src/p8'),
    ];
    const text = note(hour(audit))!;
    expect(text).toContain('Run audit would quarantine 437 memories, more than a quarter of 7 of 8 roots.');
    const lines = text.split('\n').slice(1);
    expect(lines).toEqual([
      '206 of 206 memories in project /src/p2',
      '109 of 109 memories in project /src/p7',
      '80 of 130 memories in project /src/p5',
      '26 of 26 memories in project /src/p1',
      '8 of 8 memories in /home/u/.claude/projects/-src-p4/memory',
      'and 2 more roots',
    ]);
    expect(text).not.toContain('-src-p2');
  });

  it('one root, and every root', () => {
    expect(note(hour([share(1, 10, 15, null)]))).toContain('more than a quarter of one root.');
    expect(note(hour([share(1, 10, 15, '/a'), share(2, 3, 3, '/b')]))).toContain(
      'more than a quarter of each of the 2 roots.',
    );
    expect(note(hour([share(1, 1, 15, '/a')]))).toBeNull();
  });
});

describe('the first hour: credentials in clear', () => {
  const step3 = (f: FirstHour) => {
    const html = renderToStaticMarkup(createElement(FirstHourSteps, { f }));
    const m = /data-testid="first-hour-step-3"[^>]*>([\s\S]*?)<\/li>/.exec(html);
    return m
      ? m[1]!
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
      : '';
  };
  const links = (f: FirstHour) =>
    [...renderToStaticMarkup(createElement(FirstHourSteps, { f })).matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

  it('names them in step 3 and links to them, before the inbox, which leaves out a memory still observed', () => {
    const f = { ...hour([]), credentials: 12, review: 0 };
    expect(step3(f)).toContain('12 memories hold a credential in clear: open each and remove the value.');
    expect(step3(f)).not.toContain('Nothing needs a decision now');
    expect(links(f)).toContain('/tiers/all?cls=credential');
    const both = { ...f, review: 3 };
    expect(step3(both)).toContain('3 memories need a decision now');
  });

  it('without any, step 3 is the inbox as before', () => {
    const f = hour([]);
    expect(step3(f)).toContain('Nothing needs a decision now.');
    expect(links(f)).not.toContain('/tiers/all?cls=credential');
  });
});
