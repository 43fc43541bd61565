/** inspect.ts: which files are binary, whose bytes the pages do not show. */
import { describe, expect, it } from 'vitest';
import { bodyForDisplay, inspect, isBinary, readFields } from './inspect';
import { memoryFile, testFields, TEST_BODY } from '../test-support';
import type { ListedFile } from '../../sources';

const OWNER = { emails: ['owner@example.com'], homeUser: 'owner' };
const file: ListedFile = { relPath: 'memories/a.md', filename: 'a.md', location: 'memories', size: 1, mtimeMs: 1 };

describe('a binary file', () => {
  it('is told by its validate finding; the index keeps its body as for any file', () => {
    const bytes = Buffer.concat([
      memoryFile(testFields([['trust-level', 'inferred']]), 'READABLE-PART before the zero byte\n'),
      Buffer.from([0, 0xff, 0xfe, 0x41]),
    ]);
    const ins = inspect(bytes, file, OWNER);
    expect(isBinary(ins.findings)).toBe(true);
    expect(ins.verdicts.validate.label).toBe('FAIL-STRUCT');
    // A session plan made from the index must equal one made from the disk (context-index.test.ts).
    expect(ins.body).toBe(bodyForDisplay(readFields(bytes).body));
  });

  it('is not a text file, whatever its findings', () => {
    const ins = inspect(memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY), file, OWNER);
    expect(isBinary(ins.findings)).toBe(false);
    expect(isBinary([{ code: 'body-too-short' }, { code: 'secret.github-token' }])).toBe(false);
  });
});
