import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the test runner, without type declarations
import { countsOf, filesWithoutResults } from './vitest-report.mjs';

const passedTest = { status: 'passed' };
const failedTest = { status: 'failed' };

describe('filesWithoutResults', () => {
  it('names a file the report does not hold, and one whose entry has no test', () => {
    const report = {
      testResults: [
        { name: '/p/a.test.ts', assertionResults: [passedTest, passedTest] },
        { name: '/p/b.test.ts', assertionResults: [] },
      ],
    };
    expect(filesWithoutResults(['/p/a.test.ts', '/p/b.test.ts', '/p/c.test.ts'], report)).toEqual([
      '/p/b.test.ts',
      '/p/c.test.ts',
    ]);
  });

  it('keeps a file whose tests failed: its failures are counted, not re-run', () => {
    const report = { testResults: [{ name: '/p/a.test.ts', assertionResults: [failedTest, passedTest] }] };
    expect(filesWithoutResults(['/p/a.test.ts'], report)).toEqual([]);
  });

  it('names every file when the report holds nothing', () => {
    expect(filesWithoutResults(['/p/a.test.ts'], {})).toEqual(['/p/a.test.ts']);
  });
});

describe('countsOf', () => {
  it('reads the passed and failed totals, zero when absent', () => {
    expect(countsOf({ numPassedTests: 7, numFailedTests: 2 })).toEqual({ passed: 7, failed: 2 });
    expect(countsOf({})).toEqual({ passed: 0, failed: 0 });
  });
});
