import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRootPath, confine, PathEscapeError } from './paths';

describe('roots refused at start-up (docs/security.md)', () => {
  const home = '/home/owner';
  it.each([
    ['/', 'filesystem root'],
    ['~', 'leading ~'],
    ['~/memories', 'leading ~'],
    ['relative/dir', 'relative'],
    ['./x', 'relative'],
    ['\\\\server\\share', 'UNC'],
    ['//server/share', 'UNC'],
    ['/tmp/a\0b', 'NUL'],
    ['/home/owner', 'home directory'],
    ['/home', 'too broad'],
    ['C:\\', 'drive root'],
  ])('%j is refused (%s)', (root, why) => {
    const problem = checkRootPath(root, home);
    expect(problem).not.toBeNull();
    expect(problem!.toLowerCase()).toContain(why.toLowerCase().split(' ')[0]!);
  });
  it('an ordinary absolute folder is accepted', () => {
    expect(checkRootPath('/home/owner/.claude/claude-memory', home)).toBeNull();
  });
});

describe('confine', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-paths-'));
  fs.mkdirSync(path.join(root, 'memories'));
  fs.writeFileSync(path.join(root, 'memories', 'user_a.md'), 'x');
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.md'), 'x');
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'memories', 'user_link.md'));
  fs.symlinkSync(outside, path.join(root, 'elsewhere'));

  it('keeps a plain file inside its root', () => {
    expect(confine(root, 'memories/user_a.md')).toBe(path.join(fs.realpathSync(root), 'memories/user_a.md'));
  });
  it('refuses ../ escapes, symlinked files and symlinked directories', () => {
    expect(() => confine(root, '../x.md')).toThrow(PathEscapeError);
    expect(() => confine(root, 'memories/user_link.md')).toThrow(/symlink/);
    expect(() => confine(root, 'elsewhere/secret.md')).toThrow(/symlink/);
    expect(() => confine(root, 'memories/a\0.md')).toThrow(PathEscapeError);
  });
});
