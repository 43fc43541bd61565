/** Which lines the prose detectors look at (docs/credentials.md "Credentials in prose"). */
import { describe, expect, it } from 'vitest';
import { lineStarts } from './scan-text';
import { wantedLines } from './secrets-trigger';

const wanted = (text: string) => wantedLines(text, lineStarts(text));

describe('wantedLines', () => {
  it('selects a line by a word whose condition it meets', () => {
    expect(wanted('notes\npassword: x\nplain')).toEqual([1]);
    // `user` needs a backtick or a slash on its line, `key` a label, a table, a heading or a long run.
    expect(wanted('type: user\nuser `bob`')).toEqual([1]);
    expect(wanted('type: user\ndemo account demo/x1')).toEqual([1]);
    expect(wanted('the key is here\napi key: x')).toEqual([1]);
    expect(wanted(`key ${'a1'.repeat(16)}`)).toEqual([0]);
  });

  it('steps over a conditional word as a whole, and reads words outside ASCII', () => {
    // `account` matched first: the `token` starting inside it is not seen (no backtick, so not selected).
    expect(wanted('accountoken')).toEqual([]);
    expect(wanted('account token')).toEqual([0]);
    expect(wanted('x\nПАРОЛЬ: x')).toEqual([1]);
    expect(wanted('x\n비번 1234')).toEqual([1]);
    // `log\s?-?in` may take the line break: the line it starts on is selected.
    expect(wanted('log\nin')).toEqual([0]);
    expect(wanted('xpw: 1')).toEqual([]);
    expect(wanted('x pw: 1')).toEqual([0]);
  });
});
