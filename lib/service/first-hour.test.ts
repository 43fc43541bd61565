/**
 * A new Claude Code folder in real shapes (made-up text), through the service and the CLI
 * (issue 34 points 3–4): no warning about a field Claude Code does not define, the density
 * heuristic as a hint, the first-hour counts (the audit's dry run from the index agrees
 * with the real plan), a flagged file kept inferred by back-fill, and a back-fill of more
 * than 10 files confirmed by count. The drop-in CLI keeps the reference's rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { overview } from '../../db/queries/overview';
import { planAudit } from './batches/batch-plan';
import { firstHour } from './index/first-hour';
import { closeCtx, openCtx, put, removeSandbox, runCli, sandbox, treeHash, type Sandbox } from './test-support';

const OLD = new Date('2026-08-01T10:00:00Z');
const HOW = '\n\n**Why:** it broke once.\n\n**How to apply:** every session.\n';
const nested = (name: string, type: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} notes\nmetadata:\n  node_type: memory\n  type: ${type}\n  originSessionId: 00000000-0000-4000-8000-000000000001\n---\n\n${body}${HOW}`;
const flat = (name: string, type: string, body: string, eol = '\n') =>
  `---\nname: ${name}\ndescription: ${name} notes\ntype: ${type}\n---\n\n${body}${HOW}`.replace(/\n/g, eol);
/** Built at run time: no secret-shaped literal in the repository. */
const FAKE_KEY = ['sk', 'FAKEfake0042NOTAREALKEY0123456789'].join('-');

const FILES: Record<string, string> = {
  'feedback-ci.md': nested('CI rules', 'feedback', 'Always run the tests. Never push to main. Never skip review.'),
  'project_x.md': flat('Project X', 'project', 'Project X ships the billing service on Thursdays.', '\r\n'),
  'user_role.md': nested('Role', 'user', 'The user runs a small homelab and prefers terse answers.'),
  'Reference Notes.md': nested('Build graph', 'reference', 'The build graph lives in out/graph.json, made by tools.'),
  'feedback_api.md': flat('API', 'feedback', `The staging API key is ${FAKE_KEY} for the deploy bot.`),
};
for (let i = 1; i <= 9; i++)
  FILES[`project-host-${i}.md`] = nested(`Host ${i}`, 'project', `Host ${i} answers on 192.168.1.${10 + i} over SSH.`);

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-firsthour-');
  const index = ['# Memory', ...Object.keys(FILES).map((f) => `- [${f}](${f}) — notes`), ''].join('\n');
  for (const [name, text] of Object.entries(FILES)) put(sb.root, name, text, OLD);
  put(sb.root, 'MEMORY.md', index, OLD);
});
afterEach(() => removeSandbox(sb));

const cli = (...args: string[]) => runCli(args, sb.env);

describe('a new Claude Code folder', () => {
  it('no file carries a warning about a field or filename Claude Code does not define; density is a hint', () => {
    const ctx = openCtx(sb);
    const db = ctx.handle.sqlite;
    const codes = db.prepare('SELECT DISTINCT code FROM findings').all() as { code: string }[];
    expect(codes.map((c) => c.code)).not.toContain('missing-recommended-field');
    expect(codes.map((c) => c.code)).not.toContain('filename-convention');
    const row = (f: string) =>
      db
        .prepare('SELECT validate_exit AS v, injection_exit AS i, finding_checks AS c FROM entries WHERE filename = ?')
        .get(f) as { v: number; i: number; c: string };
    for (const f of ['feedback-ci.md', 'project_x.md', 'user_role.md', 'Reference Notes.md'])
      expect(row(f).v, f).toBe(0);
    expect(row('feedback-ci.md')).toMatchObject({ i: 0, c: 'hint' });
    const o = overview(db, ctx.now());
    expect(o.verdicts.validate.PASS).toBe(Object.keys(FILES).length);
    expect(o.verdicts.validate['WARN-SEMANTIC']).toBe(0);
    expect(o.verdicts.injection.FLAGGED).toBe(0);
    closeCtx(sb);
  });

  it('first hour: the audit dry run from the index matches the real plan and is heavy', () => {
    const ctx = openCtx(sb);
    const f = firstHour(ctx);
    const plan = planAudit(ctx);
    expect(f.audit).toHaveLength(1);
    expect(f.audit[0]!.quarantine).toBe(plan.files.length);
    expect(f.audit[0]!).toMatchObject({
      memories: Object.keys(FILES).length,
      quarantine: 10,
      heavy: true,
      project: null,
    });
    expect(f).toMatchObject({
      show: true,
      auditHeavy: true,
      backfill: 14,
      privateAddresses: 9,
      review: 14,
      credentials: 1,
    });
    closeCtx(sb);
  });

  it('with the network allowed, the audit is no longer heavy and step 1 is done', () => {
    const ctx = openCtx({ ...sb, env: { ...sb.env, MEMTRUST_ALLOW_NETWORKS: '192.168.1.0/24' } });
    const f = firstHour(ctx);
    expect(f).toMatchObject({ privateAddresses: 0, allowedNetworks: 1, auditHeavy: false });
    expect(f.audit[0]!.quarantine).toBe(planAudit(ctx).files.length);
    closeCtx(sb);
  });

  it('back-fill keeps the flagged file inferred, and asks for the count above 10 files (CLI --yes)', () => {
    const dry = JSON.parse(cli('backfill', '--json').stdout) as {
      plan: {
        files: { file: string; to: string; held?: string | null }[];
        confirm: { needed: boolean; count: number };
      };
    };
    const to = (f: string) => dry.plan.files.find((x) => x.file === f);
    expect(to('feedback_api.md')).toMatchObject({ to: 'inferred', held: expect.stringContaining('a credential') });
    expect(to('feedback-ci.md')).toMatchObject({ to: 'verified', held: null });
    expect(dry.plan.confirm).toMatchObject({ needed: true, count: 14 });
    expect(cli('backfill').stdout).toContain(
      'Re-run with --apply --yes (and --tier FILE=TIER to override) to apply it as one batch (confirmation needed: it would rewrite 14 files (more than 10)).',
    );
    const before = treeHash(sb.root);
    const refused = cli('backfill', '--apply');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('rewrite 14 files');
    expect(treeHash(sb.root)).toEqual(before);
    const applied = cli('backfill', '--apply', '--yes');
    expect(applied.status, applied.stderr).toBe(0);
    const api = fs.readFileSync(path.join(sb.root, 'feedback_api.md'), 'utf8');
    expect(api).toContain('trust-level: inferred');
    expect(api).not.toContain('last-verified');
    expect(fs.readFileSync(path.join(sb.root, 'feedback-ci.md'), 'utf8')).toContain('trust-level: verified');
  });

  it('the drop-in CLI keeps the reference rules: seed 000 warnings, density flagged', () => {
    const v = cli('validate', path.join(sb.root, 'feedback-ci.md'));
    expect(v.status).toBe(3);
    expect(v.stdout).toContain('missing recommended field: trust-level');
    expect(v.stdout).toContain('filename does not follow the convention');
    const i = cli('injection-check', path.join(sb.root, 'feedback-ci.md'));
    expect(i.status).toBe(3);
  });
});
