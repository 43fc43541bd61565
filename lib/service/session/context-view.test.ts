/**
 * The X-ray's view (docs/session-context.md, "Made before it is asked for"): a view made
 * ahead of the page is the very object the page then gets, and after a change and a rescan
 * the next view is new and equals a plan made from scratch. Real files, a real scan, real SQLite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextView } from './context-view';
import { buildSessionContext } from './session-context';
import { DEFAULT_CONTEXT_BUDGET } from '../../trust/context';
import { scan } from '../index/scan-service';
import { memoryFile, openCtx, removeSandbox, sandbox, type Sandbox } from '../test-support';
import type { ServiceContext } from '../context';

let sb: Sandbox;
let ctx: ServiceContext;
beforeEach(() => {
  sb = sandbox('memtrust-view-');
  const put = (name: string, level: string, body: string) => {
    const file = path.join(sb.root, 'memories', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      memoryFile(
        [
          ['name', name.replace(/\.md$/, '')],
          ['description', 'a note'],
          ['type', 'feedback'],
          ['trust-level', level],
          ['created-at', '2026-11-01T09:00:00Z'],
          ...(level === 'verified' ? ([['last-verified', '2026-11-20']] as [string, string][]) : []),
        ],
        body,
      ),
    );
  };
  put('feedback_tests.md', 'verified', '\nRun the tests before pushing.\n');
  put('feedback_style.md', 'inferred', '\nPrefers small modules.\n');
  put('feedback_deploy.md', 'verified', '\nDeploys go out on Thursdays.\n');
  ctx = openCtx(sb);
});
afterEach(() => removeSandbox(sb));

const fromScratch = () => {
  const now = ctx.now();
  return buildSessionContext({
    roots: ctx.config.roots,
    now,
    owner: ctx.owner(),
    budget: DEFAULT_CONTEXT_BUDGET,
    cache: null,
  });
};

describe('contextView', () => {
  it('hands the page the view made ahead of it, until the index moves', () => {
    const ahead = contextView(ctx, sb.env);
    const page = contextView(ctx, sb.env);
    expect(page).toBe(ahead);
    expect(page.plan.text).toBe(fromScratch().text);
    expect(
      [...page.rows.values()]
        .flat()
        .map((r) => r.filename)
        .sort(),
    ).toEqual(['feedback_deploy.md', 'feedback_style.md', 'feedback_tests.md']);

    fs.appendFileSync(path.join(sb.root, 'memories', 'feedback_deploy.md'), 'And never on Fridays.\n');
    scan(ctx);
    const after = contextView(ctx, sb.env);
    expect(after).not.toBe(ahead);
    expect(after.plan.text).toContain('And never on Fridays.');
    expect(after.plan.text).toBe(fromScratch().text);
    expect(contextView(ctx, sb.env)).toBe(after);
  });
});
