/**
 * Table of fixtures: every `X.md` in fixtures/validate has an `X.md.expected`
 * with `exit:N`, any number of `contains:TEXT` (must be in the human line) and
 * `absent:TEXT` (must not be). One failing case per rule of docs/validators.md "validate", plus
 * look-alikes that must pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatVerdictLine, validate } from './validate';

const DIR = path.join(__dirname, 'fixtures', 'validate');

interface Expected {
  exit: number;
  contains: string[];
  absent: string[];
}

function readExpected(file: string): Expected {
  const out: Expected = { exit: -1, contains: [], absent: [] };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [, kind, value] = /^(exit|contains|absent):(.*)$/.exec(line) ?? [];
    if (kind === 'exit') out.exit = Number(value);
    if (kind === 'contains' && value) out.contains.push(value);
    if (kind === 'absent' && value) out.absent.push(value);
  }
  return out;
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.md'))
  .sort();

describe('validate fixtures', () => {
  it('has fixtures for every exit code', () => {
    const exits = new Set(fixtures.map((f) => readExpected(path.join(DIR, `${f}.expected`)).exit));
    expect([...exits].sort()).toEqual([0, 1, 2, 3]);
  });

  it.each(fixtures)('%s', (name) => {
    const expected = readExpected(path.join(DIR, `${name}.expected`));
    const verdict = validate(readFileSync(path.join(DIR, name)), name);
    const line = formatVerdictLine(name, verdict);
    expect(verdict.exit, line).toBe(expected.exit);
    for (const text of expected.contains) expect(line).toContain(text);
    for (const text of expected.absent) expect(line).not.toContain(text);
  });
});

describe('verdict shape', () => {
  it('labels follow the exit code and every finding names the check', () => {
    const labels = ['PASS', 'FAIL-STRUCT', 'FAIL-FORMAT', 'WARN-SEMANTIC'];
    for (const name of fixtures) {
      const v = validate(readFileSync(path.join(DIR, name)), name);
      expect(v.check).toBe('validate');
      expect(v.label).toBe(labels[v.exit]);
      expect(v.findings.every((f) => f.check === 'validate')).toBe(true);
      if (v.exit === 0) expect(v.findings).toEqual([]);
      else expect(v.findings[0]?.label).toBe(v.label);
    }
  });

  it('reports every finding, worst first', () => {
    const v = validate(
      readFileSync(path.join(DIR, 'user_struct_outranks_format.md')),
      'user_struct_outranks_format.md',
    );
    expect(v.findings.map((f) => f.label)).toEqual(['FAIL-STRUCT', 'FAIL-FORMAT']);
  });

  it('judges the base name of a path, not the directories', () => {
    const bytes = readFileSync(path.join(DIR, 'user_pass_basic.md'));
    expect(validate(bytes, '/some/Dir With Spaces/user_pass_basic.md').exit).toBe(0);
    expect(validate(bytes, 'C:\\Users\\x\\user_pass_basic.md').exit).toBe(0);
  });
});
