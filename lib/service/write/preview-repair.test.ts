/**
 * The diff preview writes nothing and matches what the transition then writes; the
 * repair dialog's edits are validated as a dry run and applied as one restore event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewTransition, vouchingRefused } from './preview';
import { checkRepair, repairAndRestore, repairModel } from './repair';
import { modesFor } from './repair-modes';
import { inspect } from '../index/inspect';
import { transition } from './transition';
import {
  memoryFile,
  openCtx,
  put,
  readAudit,
  sha,
  treeHash,
  sandboxPerTest,
  TEST_BODY,
  FAKE_TOKEN,
  testFields,
} from '../test-support';

const BODY = TEST_BODY;
const TOKEN = FAKE_TOKEN;
const fm = testFields;
const Q: [string, string][] = [
  ['trust-level', 'quarantined'],
  ['created-at', '2026-01-01T00:00:00Z'],
  ['last-verified', '2026-11-10'],
  ['quarantined-at', '2026-11-10T09:00:00Z'],
  ['quarantined-by', 'box'],
  ['quarantine-reason', 'doubtful'],
];

const sb = sandboxPerTest({ beforeEach, afterEach });

describe('previewTransition', () => {
  it('shows the frontmatter lines that change and the move, and writes nothing', () => {
    put(
      sb.root,
      'memories/feedback_tests.md',
      memoryFile(
        fm([
          ['trust-level', 'verified'],
          ['created-at', '2026-01-01T00:00:00Z'],
          ['last-verified', '2026-11-01'],
        ]),
        BODY,
      ),
    );
    const ctx = openCtx(sb);
    const before = treeHash(sb.root);
    const r = previewTransition(
      ctx,
      { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' },
      'demote',
      'outdated',
    );
    expect(treeHash(sb.root)).toEqual(before);
    if (!r.ok) throw new Error(r.message);
    expect(r.preview.move).toEqual({ from: 'memories', to: 'quarantine' });
    const byKey = Object.fromEntries(r.preview.changes.map((c) => [c.key, c]));
    expect(byKey['trust-level']).toEqual({
      key: 'trust-level',
      before: 'trust-level: verified',
      after: 'trust-level: quarantined',
    });
    expect(byKey['quarantine-reason']?.after).toBe('quarantine-reason: outdated');
    expect(byKey['last-verified']).toEqual({
      key: 'last-verified',
      before: 'last-verified: 2026-11-01',
      after: 'last-verified: 2026-11-22',
    });
    // The transition then writes exactly the previewed lines.
    const t = transition(ctx, {
      ref: 'feedback_tests.md',
      action: 'demote',
      reason: 'outdated',
      actor: 'user:cli',
      expectSha: r.preview.sha256,
    });
    expect(t.ok).toBe(true);
    const text = fs.readFileSync(path.join(sb.root, 'quarantine/feedback_tests.md'), 'utf8');
    for (const c of r.preview.changes) if (c.after && c.key !== 'quarantined-at') expect(text).toContain(c.after);
  });

  it('refuses promote for a memory with a credential finding, in the preview and at the web guard', () => {
    put(
      sb.root,
      'memories/feedback_tests.md',
      memoryFile(
        fm([
          ['trust-level', 'inferred'],
          ['created-at', '2026-11-01T00:00:00Z'],
        ]),
        `${BODY}\nDeploy with ${TOKEN}.\n`,
      ),
    );
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const r = previewTransition(ctx, ref, 'promote');
    expect(r).toMatchObject({ ok: false, code: 'flagged' });
    expect(vouchingRefused(ctx, ref, 'promote')).toMatch(/credential finding/);
    expect(vouchingRefused(ctx, ref, 'demote')).toBeNull();
  });

  it('names the MEMORY.md line a demote removes, masked when it holds a secret', () => {
    put(sb.root, 'MEMORY.md', '- [Tests](feedback_tests.md) — run them\n');
    put(
      sb.root,
      'feedback_tests.md',
      memoryFile(
        fm([
          ['trust-level', 'verified'],
          ['created-at', '2026-01-01T00:00:00Z'],
          ['last-verified', '2026-11-01'],
        ]),
        BODY,
      ),
    );
    const ctx = openCtx(sb);
    const r = previewTransition(ctx, { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' }, 'demote', 'x');
    if (!r.ok) throw new Error(r.message);
    expect(r.preview.index).toEqual({
      file: 'MEMORY.md',
      kind: 'remove',
      line: '- [Tests](feedback_tests.md) — run them',
    });
    expect(r.preview.move).toEqual({ from: '', to: 'quarantine' });
  });
});

describe('repair and restore', () => {
  it('redacts flagged values without sending them, validates live, and restores in one event with both sha256', () => {
    const bytes = memoryFile(fm(Q), `${BODY}\nThe deploy token is ${TOKEN} on host 10.1.2.3.\n`);
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    expect(m.model.values.map((v) => v.code).sort()).toEqual(['secret.github-token', 'secret.private-ip']);
    expect(JSON.stringify(m.model)).not.toContain(TOKEN);
    expect(JSON.stringify(m.model)).not.toContain('10.1.2.3');
    const [tok, ip] = [
      m.model.values.find((v) => v.code === 'secret.github-token')!,
      m.model.values.find((v) => v.code === 'secret.private-ip')!,
    ];
    // Only one of two redacted: still blocked.
    const half = checkRepair(ctx, ref, { redactions: { [tok.key]: 'remove' } });
    expect(half.ok && half.check.passes).toBe(false);
    const full = checkRepair(ctx, ref, { redactions: { [tok.key]: 'remove', [ip.key]: 'redact' } });
    expect(full.ok && full.check.passes).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'quarantine/feedback_tests.md')).equals(bytes)).toBe(true);
    const r = repairAndRestore(ctx, ref, { redactions: { [tok.key]: 'remove', [ip.key]: 'redact' } }, m.model.sha256);
    expect(r).toMatchObject({ ok: true, from: 'quarantined', to: 'verified' });
    expect(fs.existsSync(path.join(sb.root, 'quarantine/feedback_tests.md'))).toBe(false);
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('<redacted></redacted>');
    expect(text).toContain('<redacted>10.1.2.3</redacted>');
    // Kept inside <redacted>, never shown in clear afterwards: the page and the index show it hidden.
    const shown = inspect(
      Buffer.from(text),
      { filename: 'feedback_tests.md', location: 'memories', mtimeMs: 0 },
      ctx.owner(),
    );
    expect(shown.body).not.toContain('10.1.2.3');
    expect(shown.body).toContain('<redacted>…</redacted>');
    expect(shown.body).toContain('<redacted></redacted>');
    expect(text).toContain('trust-level: verified');
    expect(text).not.toContain('quarantine-reason');
    const events = readAudit(sb.root);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'restore',
      before_sha256: sha(bytes),
      after_sha256: sha(Buffer.from(text)),
    });
  });

  it('removes a credential even when asked to wrap it: an empty <redacted></redacted> is left, never the value', () => {
    const bytes = memoryFile(fm(Q), `${BODY}\nThe deploy token is ${TOKEN} here.\n`);
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    const tok = m.model.values.find((v) => v.class === 'credential')!;
    expect(modesFor(tok.class)).toEqual(['keep', 'remove']);
    expect(modesFor('personal')).toContain('redact');
    const r = repairAndRestore(ctx, ref, { redactions: { [tok.key]: 'redact' } }, m.model.sha256);
    expect(r).toMatchObject({ ok: true, to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text).toContain('The deploy token is <redacted></redacted> here.');
    expect(text).not.toContain(TOKEN);
  });

  it('shows the parser message and line for broken YAML and restores after the frontmatter is fixed', () => {
    const bytes = Buffer.from(
      `---\nname: Integration tests\ndescription: [unclosed\ntype: feedback\ntrust-level: quarantined\nquarantined-at: 2026-11-10T09:00:00Z\n---\n${BODY}`,
    );
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    expect([3, 4]).toContain(m.model.frontmatterError?.line); // where the parser notices the unclosed flow sequence
    const still = checkRepair(ctx, ref, { redactions: {}, frontmatter: m.model.frontmatter! });
    expect(still.ok && still.check.passes).toBe(false);
    const fixedFm = m.model.frontmatter!.replace('description: [unclosed', 'description: run them first');
    const ok = checkRepair(ctx, ref, { redactions: {}, frontmatter: fixedFm });
    expect(ok.ok && ok.check.passes).toBe(true);
    const r = repairAndRestore(ctx, ref, { redactions: {}, frontmatter: fixedFm }, sha(bytes));
    expect(r).toMatchObject({ ok: true, to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text).toContain('description: run them first');
    expect(text.endsWith(BODY)).toBe(true);
  });

  it('offers a block to fill in for a file without frontmatter', () => {
    const bytes = Buffer.from(BODY.slice(1));
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const m = repairModel(ctx, ref);
    if (!m.ok) throw new Error(m.message);
    expect(m.model.frontmatterError?.message).toBe('missing opening frontmatter delimiter');
    const fmText = 'name: Integration tests\ndescription: run them first\ntype: feedback';
    const r = repairAndRestore(ctx, ref, { redactions: {}, frontmatter: fmText }, sha(bytes));
    expect(r).toMatchObject({ ok: true, to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text.startsWith('---\nname: Integration tests\ndescription: run them first\ntype: feedback\n')).toBe(true);
    expect(text.endsWith(BODY.slice(1))).toBe(true);
  });

  it('refuses when the edit still fails, and changes nothing', () => {
    const bytes = memoryFile(fm(Q), `${BODY}\nToken ${TOKEN}\n`);
    put(sb.root, 'quarantine/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const before = treeHash(sb.root);
    const r = repairAndRestore(
      ctx,
      { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' },
      { redactions: {} },
      sha(bytes),
    );
    expect(r.ok).toBe(false);
    expect(treeHash(sb.root)).toEqual(before);
    expect(readAudit(sb.root)).toEqual([]);
  });
});
