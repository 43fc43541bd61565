/**
 * Issue #3 item 7.2: every refusal leaves every byte of the root unchanged
 * (the whole tree hashed before and after, .memtrust/ aside), writes no audit
 * event, leaves no journal and no temp file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transition, type TransitionRequest } from './transition';
import { MEMORY_ACTIONS } from '../../trust/tiers';
import {
  journalFiles,
  memoryFile,
  openCtx,
  put,
  readAudit,
  tmpFiles,
  treeHash,
  sandboxPerTest,
  TEST_BODY,
  FAKE_TOKEN,
  testFields,
} from '../test-support';

const BODY = TEST_BODY;
const TOKEN = FAKE_TOKEN;

const fm = testFields;
const inferred = (created: string) =>
  memoryFile(
    fm([
      ['trust-level', 'inferred'],
      ['created-at', created],
    ]),
    BODY,
  );
const verified = (lv: string) =>
  memoryFile(
    fm([
      ['trust-level', 'verified'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', lv],
    ]),
    BODY,
  );
const quarantined = (at: string, body = BODY) =>
  memoryFile(
    fm([
      ['trust-level', 'quarantined'],
      ['created-at', '2026-01-01T00:00:00Z'],
      ['last-verified', at.slice(0, 10)],
      ['quarantined-at', at],
      ['quarantined-by', 'box'],
      ['quarantine-reason', 'doubtful'],
    ]),
    body,
  );

const sb = sandboxPerTest({ beforeEach, afterEach });

/** Runs `req` and proves it was refused with `code` and changed nothing. */
function refused(req: Omit<TransitionRequest, 'actor'>, code: string, message: RegExp) {
  const ctx = openCtx(sb);
  const before = treeHash(sb.root);
  const r = transition(ctx, { actor: 'user:cli', ...req });
  expect(r).toMatchObject({ ok: false, code });
  expect(r.ok ? '' : r.message).toMatch(message);
  expect(treeHash(sb.root)).toEqual(before);
  expect(readAudit(sb.root)).toEqual([]);
  expect(journalFiles(sb.root)).toEqual([]);
  expect(tmpFiles(sb.root)).toEqual([]);
  expect(ctx.handle.sqlite.prepare('SELECT count(*) AS n FROM audit_events').get()).toEqual({ n: 0 });
  return r;
}

describe('refusals change nothing', () => {
  it('promote before day 7 of observation', () => {
    put(sb.root, 'memories/feedback_tests.md', inferred('2026-11-18T12:00:00Z'));
    refused(
      { ref: 'feedback_tests.md', action: 'promote' },
      'observation-not-over',
      /observation period ends 2026-11-25, in 3 days/,
    );
  });

  it('reaffirm when not stale', () => {
    put(sb.root, 'memories/feedback_tests.md', verified('2026-10-01'));
    refused({ ref: 'feedback_tests.md', action: 'reaffirm' }, 'not-stale', /last verified 2026-10-01, 52 days ago/);
  });

  it('demote without a reason (absent, blank, or only control characters)', () => {
    put(sb.root, 'memories/feedback_tests.md', verified('2026-10-01'));
    for (const reason of [undefined, '', '   ', '\n\t\u200b']) {
      refused({ ref: 'feedback_tests.md', action: 'demote', reason }, 'reason-required', /give a one-line reason/);
    }
  });

  it('restore with a secret still inside, and the message never shows it', () => {
    put(
      sb.root,
      'quarantine/feedback_tests.md',
      quarantined('2026-11-01T00:00:00Z', `${BODY}\nThe bot token is ${TOKEN} for now.\n`),
    );
    const r = refused(
      { ref: 'feedback_tests.md', action: 'restore' },
      'validators-fail',
      /1 finding blocks it — line \d+ \(secret-check\): .* → remove the value \(repair leaves an empty <redacted><\/redacted>\); edit the file in quarantine\/ by hand, then restore/,
    );
    expect(JSON.stringify(r)).not.toContain(TOKEN.slice(4));
  });

  it('archive before day 91 in quarantine', () => {
    put(sb.root, 'quarantine/feedback_tests.md', quarantined('2026-10-01T10:00:00Z'));
    refused(
      { ref: 'feedback_tests.md', action: 'archive' },
      'not-archive-due',
      /day 52 in quarantine; archiving is allowed from day 91 \(2026-12-31\)/,
    );
  });

  it('promote a quarantined memory (quarantined → verified is restore only)', () => {
    put(sb.root, 'quarantine/feedback_tests.md', quarantined('2026-11-01T00:00:00Z'));
    refused({ ref: 'feedback_tests.md', action: 'promote' }, 'wrong-tier', /is quarantined.*use restore/);
  });

  it('reaffirm an inferred memory (there is no inferred → verified by reaffirm)', () => {
    put(sb.root, 'memories/feedback_tests.md', inferred('2026-01-01T00:00:00Z'));
    refused(
      { ref: 'feedback_tests.md', action: 'reaffirm' },
      'wrong-tier',
      /is inferred; only verified memories are re-affirmed/,
    );
  });

  it('restore / demote an archived memory: no transition leaves the archive', () => {
    put(sb.root, 'archive/2026-01/feedback_tests.md', quarantined('2026-01-05T00:00:00Z'));
    refused({ ref: 'feedback_tests.md', action: 'restore' }, 'wrong-tier', /no transition leaves the archive/);
    refused(
      { ref: 'feedback_tests.md', action: 'demote', reason: 'x' },
      'wrong-tier',
      /no transition leaves the archive/,
    );
  });

  it('every action on a conflicted memory (same filename in memories/ and quarantine/) names both paths', () => {
    put(sb.root, 'memories/feedback_tests.md', verified('2026-01-01'));
    put(sb.root, 'quarantine/feedback_tests.md', quarantined('2026-01-05T00:00:00Z'));
    for (const action of MEMORY_ACTIONS) {
      const r = refused(
        { ref: 'feedback_tests.md', action, reason: 'why not' },
        'conflict',
        /exists in both memories\/feedback_tests.md and quarantine\/feedback_tests.md/,
      );
      expect(r.ok ? [] : r.paths).toEqual([
        path.join(sb.root, 'memories/feedback_tests.md'),
        path.join(sb.root, 'quarantine/feedback_tests.md'),
      ]);
    }
    const ctx = openCtx(sb);
    expect(ctx.handle.sqlite.prepare('SELECT rel_path, conflict FROM entries ORDER BY rel_path').all()).toEqual([
      { rel_path: 'memories/feedback_tests.md', conflict: 1 },
      { rel_path: 'quarantine/feedback_tests.md', conflict: 1 },
    ]);
  });

  it('destination already exists: archive refused as a conflict naming both paths', () => {
    put(sb.root, 'quarantine/feedback_tests.md', quarantined('2026-07-01T10:00:00Z'));
    put(sb.root, 'archive/2026-07/feedback_tests.md', 'an older archived copy, different bytes\n');
    const r = refused(
      { ref: 'feedback_tests.md', action: 'archive' },
      'conflict',
      /already exists in archive\/2026-07: nothing was moved/,
    );
    expect(r.ok ? [] : r.paths).toEqual([
      path.join(sb.root, 'quarantine/feedback_tests.md'),
      path.join(sb.root, 'archive/2026-07/feedback_tests.md'),
    ]);
  });

  it('a file that is not a memory, a missing one, a bad operation id', () => {
    put(sb.root, 'memories/feedback_tests.md', verified('2026-01-01'));
    put(sb.root, 'memories/MEMORY.md', '- [x](feedback_tests.md)\n');
    refused({ ref: 'MEMORY.md', action: 'demote', reason: 'x' }, 'not-a-memory', /does not name a memory file/);
    refused(
      { ref: 'feedback_nope.md', action: 'demote', reason: 'x' },
      'not-found',
      /no memory named feedback_nope.md/,
    );
    refused({ ref: 'feedback_tests.md', action: 'demote', reason: 'x', opId: '../../etc' }, 'bad-op', /operation id/);
    expect(fs.readdirSync(path.join(sb.root, 'memories')).sort()).toEqual(['MEMORY.md', 'feedback_tests.md']);
  });
});

describe('symlinked memory files', () => {
  it('are refused with a one-line reason, and nothing they point to is touched', async () => {
    const { sandbox: mk, removeSandbox: rm } = await import('../test-support');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { loadConfig } = await import('../../core/config');
    const { createContext } = await import('../context');
    const { transition } = await import('./transition');
    const sb = mk('memtrust-symlink-');
    try {
      fs.mkdirSync(path.join(sb.root, 'memories'), { recursive: true });
      const outside = path.join(sb.tmp, 'outside.md');
      fs.writeFileSync(
        outside,
        '---\nname: x\ndescription: d\ntype: user\ntrust-level: verified\n---\n\nA body that is long enough to pass.\n',
      );
      fs.symlinkSync(outside, path.join(sb.root, 'memories', 'user_link.md'));
      const before = fs.readFileSync(outside);
      const ctx = createContext(loadConfig({ env: sb.env }), sb.env);
      const r = transition(ctx, { ref: 'user_link.md', action: 'demote', reason: 'test', actor: 'user:cli' });
      expect(r).toMatchObject({ ok: false });
      expect(!r.ok && r.message).toMatch(/symlink/);
      expect(fs.readFileSync(outside).equals(before)).toBe(true);
    } finally {
      rm(sb);
    }
  });
});
