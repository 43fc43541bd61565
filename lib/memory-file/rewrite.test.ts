/**
 * Property tests for the write path (docs/memory-files.md): whatever the file looks
 * like, a rewrite keeps the body byte for byte, writes exactly the requested
 * values, leaves every other key alone and is idempotent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFrontmatter, rewriteFrontmatter, splitFile, type SplitFile } from './index';
import { body, buildFile, edits, frontmatterSpec } from './test-arbitraries';

function mustSplit(bytes: Buffer): SplitFile {
  const split = splitFile(bytes);
  if (!split.ok) throw new Error(`no frontmatter: ${split.error}`);
  return split;
}

function checkRewrite(before: Buffer, change: { set: Record<string, string>; remove: string[] }): Buffer {
  const oldSplit = mustSplit(before);
  const old = parseFrontmatter(before, oldSplit);
  expect(old.errors).toEqual([]);

  const after = rewriteFrontmatter(before, change);
  const split = mustSplit(after);
  // Body, opening line (with BOM) and closing delimiter line are the same bytes.
  expect(after.subarray(split.bodyStart).equals(before.subarray(oldSplit.bodyStart))).toBe(true);
  expect(after.subarray(0, split.fmStart).equals(before.subarray(0, oldSplit.fmStart))).toBe(true);
  expect(after.subarray(split.fmEnd, split.bodyStart).equals(before.subarray(oldSplit.fmEnd, oldSplit.bodyStart))).toBe(
    true,
  );

  const now = parseFrontmatter(after, split);
  expect(now.errors).toEqual([]);
  for (const [key, value] of Object.entries(change.set)) expect(now.data[key]).toBe(value);
  for (const key of change.remove) expect(now.keys).not.toContain(key);
  const untouched = (k: string) => !(k in change.set) && !change.remove.includes(k);
  expect(now.keys.filter(untouched)).toEqual(old.keys.filter(untouched));
  for (const key of old.keys.filter(untouched)) expect(now.data[key]).toEqual(old.data[key]);

  expect(rewriteFrontmatter(after, change).equals(after)).toBe(true);
  return after;
}

describe('rewriteFrontmatter properties', () => {
  it('keeps the body, writes the edits, touches nothing else, and is idempotent', () => {
    fc.assert(
      fc.property(frontmatterSpec, body, edits, (spec, bodyBytes, change) => {
        checkRewrite(buildFile(spec, bodyBytes), change);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a ~200 KB body line and a body without final newline', () => {
    fc.assert(
      fc.property(frontmatterSpec, edits, fc.constantFrom('', '\n', '\r\n'), (spec, change, tail) => {
        const huge = Buffer.from(`${'x'.repeat(200_000)}\u00e9${tail}`, 'utf8');
        checkRewrite(buildFile(spec, huge), change);
      }),
      { numRuns: 20 },
    );
  });

  it('writes new lines with the EOL of the opening line', () => {
    fc.assert(
      fc.property(frontmatterSpec, edits, (spec, change) => {
        const after = rewriteFrontmatter(buildFile(spec, Buffer.from('body')), change);
        const split = mustSplit(after);
        const fm = after.subarray(split.fmStart, split.fmEnd).toString('utf8');
        if (spec.eol === '\r\n') expect(fm.replace(/\r\n/g, '')).not.toContain('\n');
        else expect(fm).not.toContain('\r\n');
      }),
      { numRuns: 200 },
    );
  });
});
