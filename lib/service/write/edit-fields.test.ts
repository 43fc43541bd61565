/**
 * The editor writes a changed type back where it was found; the rest of metadata: stays
 * byte-for-byte; an edit keeps the tier (docs/trust-model.md, the `edit` row); the preview
 * shows the same bytes as a line diff and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editableFields, editMemoryFields, previewFieldsEdit, setNested } from './edit-fields';
import { runAllChecks } from '../../validators/run';
import { openCtx, put, readAudit, sha, sandboxPerTest, TEST_BODY } from '../test-support';

const BODY = TEST_BODY;
const sb = sandboxPerTest({ beforeEach, afterEach });

describe('editMemoryFields', () => {
  it('changes metadata.type in place and keeps every other metadata byte', () => {
    const head =
      '---\nname: Tests first\ndescription: run them\nmetadata:\n  type: project   # set by the assistant\n  node_type: memory\n  originSessionId: 0000-fake\ntrust-level: inferred\ncreated-at: 2026-11-01T09:00:00Z\n---\n';
    const bytes = Buffer.from(head + BODY);
    put(sb.root, 'memories/feedback_tests.md', bytes);
    expect(editableFields(bytes)).toMatchObject({
      values: { type: 'project' },
      places: { type: 'metadata', name: 'top' },
      error: null,
    });
    const ctx = openCtx(sb);
    const r = editMemoryFields(
      ctx,
      { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' },
      { name: 'Tests first', description: 'run them', type: 'feedback', body: BODY.slice(1) },
      sha(bytes),
    );
    // The save validates the new bytes; a validator that does not yet read metadata.type
    // (docs/memory-files.md nested keys) refuses it, and then nothing may have been written.
    const nestedAware = runAllChecks(Buffer.from(head + BODY), 'feedback_tests.md', {
      emails: [],
    }).validate.findings.every((f) => f.message !== 'missing required field: type');
    if (!nestedAware) {
      expect(r).toMatchObject({ ok: false, code: 'validators-fail' });
      expect(fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md')).equals(bytes)).toBe(true);
      return;
    }
    expect(r).toMatchObject({ ok: true, from: 'inferred', to: 'inferred' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text).toContain(
      'metadata:\n  type: feedback   # set by the assistant\n  node_type: memory\n  originSessionId: 0000-fake\n',
    );
    expect(text).not.toMatch(/^type:/m);
    // An edit is not a promote: the assistant's memory stays inferred, no last-verified appears.
    expect(text).toContain('trust-level: inferred');
    expect(text).not.toContain('last-verified');
    expect(text.endsWith(BODY)).toBe(true);
    expect(readAudit(sb.root)[0]).toMatchObject({ action: 'edit', before_sha256: sha(bytes) });
  });

  it('setNested replaces only the scalar under metadata:', () => {
    const bytes = Buffer.from(
      '---\r\nname: x\r\nmetadata:\r\n  type: "project"  # keep\r\n  other: [1, 2]\r\n---\r\nbody\r\n',
    );
    expect(setNested(bytes, 'type', 'feedback').toString()).toBe(
      '---\r\nname: x\r\nmetadata:\r\n  type: feedback  # keep\r\n  other: [1, 2]\r\n---\r\nbody\r\n',
    );
  });

  it('adds a missing type at the top level', () => {
    const bytes = Buffer.from(`---\nname: Tests first\ndescription: run them\n---\n${BODY}`);
    put(sb.root, 'memories/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const r = editMemoryFields(
      ctx,
      { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' },
      { name: 'Tests first', description: 'run them', type: 'feedback', body: BODY.slice(1) },
      sha(bytes),
    );
    expect(r.ok).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8')).toMatch(/^type: feedback$/m);
  });

  it('reports the parser message and line for a block that does not parse', () => {
    expect(editableFields(Buffer.from('---\nname: x\ndescription: "open\n---\nbody\n')).error).toMatchObject({
      line: expect.any(Number),
    });
  });

  it("a user's edit of a verified memory keeps it verified, its last-verified and every other trust field as written", () => {
    const head =
      '---\nname: Small PRs\ndescription: keep them small\ntype: feedback\ntrust-level: verified\nlast-verified: 2026-10-01\ncreated-at: 2026-09-01T09:00:00Z\n---\n';
    const bytes = Buffer.from(head + BODY);
    put(sb.root, 'memories/feedback_small.md', bytes);
    const ctx = openCtx(sb);
    const r = editMemoryFields(
      ctx,
      { source: ctx.sources[0]!.id, filename: 'feedback_small.md' },
      { name: 'Small PRs', description: 'under 300 lines', type: 'feedback', body: BODY.slice(1) },
      sha(bytes),
    );
    expect(r).toMatchObject({ ok: true, from: 'verified', to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_small.md'), 'utf8');
    expect(text).toBe(head.replace('keep them small', 'under 300 lines') + BODY);
    expect(readAudit(sb.root)[0]).toMatchObject({ action: 'edit', from: 'verified', to: 'verified' });
  });
});

describe('previewFieldsEdit', () => {
  const head = '---\nname: Tests first\ndescription: run them\ntype: feedback\ntrust-level: inferred\n---\n';

  it('shows the changed lines of the bytes a save would write, and writes nothing', () => {
    const bytes = Buffer.from(`${head}\nRun the tests first.\nThen commit.\n`);
    put(sb.root, 'memories/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const input = {
      name: 'Tests first',
      description: 'run the suite',
      type: 'feedback' as const,
      body: 'Run the tests first.\nThen push.\n',
    };
    const p = previewFieldsEdit(ctx, ref, input, sha(bytes));
    if (!p.ok) throw new Error(p.message);
    expect(p.preview).toMatchObject({ added: 2, removed: 2, blocked: null, tier: 'inferred' });
    const changed = p.preview.rows.filter((x) => x.op !== 'same').map((x) => `${x.op} ${x.text}`);
    expect(changed.sort()).toEqual(
      [
        'removed description: run them',
        'added description: run the suite',
        'removed Then commit.',
        'added Then push.',
      ].sort(),
    );
    expect(fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md')).equals(bytes)).toBe(true);
    // The save writes exactly what the preview showed.
    expect(editMemoryFields(ctx, ref, input, sha(bytes)).ok).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8')).toBe(
      `${head.replace('run them', 'run the suite')}\nRun the tests first.\nThen push.\n`,
    );
  });

  it('says a save would be refused for a credential and withholds that line; a stale sha is a conflict', () => {
    const bytes = Buffer.from(`${head}\nRun the tests first.\n`);
    put(sb.root, 'memories/feedback_tests.md', bytes);
    const ctx = openCtx(sb);
    const ref = { source: ctx.sources[0]!.id, filename: 'feedback_tests.md' };
    const secret = 'password: Hq7-vLw2-Zp9x-Rt4k';
    const input = { name: 'Tests first', description: 'run them', type: 'feedback' as const, body: `${secret}\n` };
    const p = previewFieldsEdit(ctx, ref, input, sha(bytes));
    if (!p.ok) throw new Error(p.message);
    expect(p.preview.blocked).toMatch(/^not saved: /);
    expect(JSON.stringify(p.preview.rows)).not.toContain('Hq7-vLw2');
    expect(p.preview.rows.some((x) => x.op === 'added' && x.text.startsWith('(withheld'))).toBe(true);
    expect(previewFieldsEdit(ctx, ref, input, sha(Buffer.from('other')))).toMatchObject({
      ok: false,
      code: 'conflict',
    });
  });
});
