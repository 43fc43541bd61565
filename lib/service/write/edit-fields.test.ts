/** The editor writes a changed type back where it was found; the rest of metadata: stays byte-for-byte. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editableFields, editMemoryFields, setNested } from './edit-fields';
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
    expect(r).toMatchObject({ ok: true, to: 'verified' });
    const text = fs.readFileSync(path.join(sb.root, 'memories/feedback_tests.md'), 'utf8');
    expect(text).toContain(
      'metadata:\n  type: feedback   # set by the assistant\n  node_type: memory\n  originSessionId: 0000-fake\n',
    );
    expect(text).not.toMatch(/^type:/m);
    expect(text).toContain('trust-level: verified');
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
});
