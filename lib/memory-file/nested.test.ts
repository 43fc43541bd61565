/**
 * Nested `metadata:` keys (docs/memory-files.md; docs/claude-code-folders.md): read when the top
 * level lacks them, checked like top-level keys, and never touched by a rewrite.
 */
import { describe, expect, it } from 'vitest';
import { BOM, parseFrontmatter, rewriteFrontmatter, splitFile } from './index';
import { validate } from '../validators/validate';

function parse(text: string | Buffer) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const split = splitFile(bytes);
  if (!split.ok) throw new Error('no frontmatter');
  return parseFrontmatter(bytes, split);
}

const BODY = 'Never merge with failing checks.\n\n**Why:** it broke main twice.\n**How to apply:** wait for green.\n';
const NESTED = `---\nname: CI merge policy\ndescription: merge rules for the monorepo\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 0f1e2d3c-0000-4000-8000-000000000001\n---\n${BODY}`;

/** Bytes from the `metadata:` line through the last nested line. */
function metadataBlock(bytes: Buffer): Buffer {
  const start = bytes.indexOf('metadata:');
  let end = start;
  const lines = bytes.subarray(start).toString('latin1').split('\n');
  end += lines[0]!.length + 1;
  for (const l of lines.slice(1)) {
    if (!/^\s+\S/.test(l)) break;
    end += l.length + 1;
  }
  return bytes.subarray(start, end);
}

describe('nested metadata keys', () => {
  it('reads type, node_type and originSessionId from metadata with their lines', () => {
    const fm = parse(NESTED);
    expect(fm.data.type).toBe('feedback');
    expect(fm.data.node_type).toBe('memory');
    expect(fm.data.originSessionId).toBe('0f1e2d3c-0000-4000-8000-000000000001');
    expect(fm.keyLines.get('type')).toBe(6);
    expect(fm.keys).toEqual(['name', 'description', 'metadata']);
    expect(fm.nested).toEqual(['node_type', 'type', 'originSessionId']);
  });

  it('the top level wins over metadata', () => {
    const fm = parse('---\nname: x1\ntype: user\nmetadata:\n  type: project\n---\nbody\n');
    expect(fm.data.type).toBe('user');
    expect(fm.keyLines.get('type')).toBe(3);
  });

  it('metadata.type satisfies "missing required field: type" and is checked like type', () => {
    const ok = validate(Buffer.from(NESTED), 'feedback_ci_merge.md');
    expect(ok.findings.map((f) => f.message)).not.toContain('missing required field: type');
    expect(ok.exit).toBe(3);
    const bad = validate(Buffer.from(NESTED.replace('type: feedback', 'type: Feedback')), 'feedback_ci_merge.md');
    expect(bad.exit).toBe(2);
    expect(bad.findings.find((f) => f.code === 'type-invalid')?.line).toBe(6);
    const list = validate(Buffer.from(NESTED.replace('type: feedback', 'type: [a, b]')), 'feedback_ci_merge.md');
    expect(list.exit).toBe(2);
    expect(list.findings.map((f) => f.message)).toContain('metadata.type must be a single value');
  });

  it('metadata without type still misses type (node_type and originSessionId only, name "")', () => {
    const v = validate(
      Buffer.from(
        `---\nname: ""\ndescription: notes\nmetadata:\n  node_type: memory\n  originSessionId: abc\n---\n${BODY}`,
      ),
      'notes.md',
    );
    expect(v.exit).toBe(1);
    expect(v.findings.map((f) => f.message)).toContain('missing required field: type');
  });

  for (const [label, eol, bom] of [
    ['LF', '\n', false],
    ['CRLF', '\r\n', false],
    ['CRLF + BOM', '\r\n', true],
    ['LF + BOM', '\n', true],
  ] as const) {
    it(`a rewrite writes keys at the top level and keeps the metadata block byte-for-byte (${label})`, () => {
      const text = NESTED.replace(/\n/g, eol);
      const before = Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
      const after = rewriteFrontmatter(before, {
        set: { 'trust-level': 'verified', 'created-at': '2026-01-02T03:04:05Z', 'last-verified': '2026-05-01' },
      });
      expect(metadataBlock(after).equals(metadataBlock(before))).toBe(true);
      expect(after.subarray(0, 3).equals(BOM)).toBe(bom);
      const fm = parse(after);
      expect(fm.keys).toEqual(['name', 'description', 'metadata', 'trust-level', 'created-at', 'last-verified']);
      expect(fm.data.type).toBe('feedback');
      const s = after.toString('utf8');
      expect(s).toContain(`${eol}trust-level: verified${eol}`);
      // every line break in the frontmatter keeps the file's style
      if (eol === '\r\n') expect(s.replace(/\r\n/g, '').includes('\n')).toBe(false);
      expect(after.subarray(after.length - Buffer.byteLength(BODY.replace(/\n/g, eol))).toString('utf8')).toBe(
        BODY.replace(/\n/g, eol),
      );
    });
  }
});
