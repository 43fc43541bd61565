/**
 * Upstream conformance suite (drop-in contract, docs/validators.md): valid/ must
 * PASS, invalid-validate/ must match each `.expected` (exit code, and every
 * `contains:` phrase present in the human output).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatVerdictLine, validate } from './validate';

const projectRoot = path.resolve(__dirname, '../..');
const UPSTREAM = path.resolve(projectRoot, '../shared/conformance/upstream');
const mdFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];

function expectation(file: string): { exit: number; contains: string[] } {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const exit = Number(
    lines
      .find((l) => l.startsWith('exit:'))
      ?.slice(5)
      .trim(),
  );
  const contains = lines.filter((l) => l.startsWith('contains:')).map((l) => l.slice(9));
  return { exit, contains };
}

if (!existsSync(UPSTREAM)) {
  describe('upstream conformance', () => {
    it.skip(`skipped: no suite at ${UPSTREAM}`, () => {});
  });
} else {
  describe('upstream conformance: valid/', () => {
    const files = mdFiles(path.join(UPSTREAM, 'valid'));
    it('has fixtures', () => expect(files.length).toBeGreaterThan(0));
    it.each(files)('%s passes', (name) => {
      const v = validate(readFileSync(path.join(UPSTREAM, 'valid', name)), name);
      expect(v.exit, formatVerdictLine(name, v)).toBe(0);
    });
  });

  describe('upstream conformance: invalid-validate/', () => {
    const dir = path.join(UPSTREAM, 'invalid-validate');
    const files = mdFiles(dir);
    it('has fixtures', () => expect(files.length).toBeGreaterThan(0));
    it.each(files)('%s', (name) => {
      const expected = expectation(path.join(dir, `${name}.expected`));
      const v = validate(readFileSync(path.join(dir, name)), name);
      const line = formatVerdictLine(name, v);
      expect(v.exit, line).toBe(expected.exit);
      for (const phrase of expected.contains) expect(line).toContain(phrase);
    });
  });
}
