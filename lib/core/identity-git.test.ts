/** The owner's git address read in-process (lib/core/identity.ts): the answer git itself gives, or git is asked. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gitEmailFromFiles } from './identity';

let tmp: string;
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-git-'));
  process.env.HOME = path.join(tmp, 'home');
  process.env.XDG_CONFIG_HOME = path.join(tmp, 'xdg');
  fs.mkdirSync(path.join(tmp, 'home'));
  fs.mkdirSync(path.join(tmp, 'xdg', 'git'), { recursive: true });
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const git = () =>
  spawnSync('git', ['config', '--global', '--get', 'user.email'], {
    encoding: 'utf8',
    env: process.env,
  }).stdout.trim() || null;

it('reads user.email as git does: ~/.gitconfig over the XDG file, quotes and comments', () => {
  fs.writeFileSync(path.join(tmp, 'xdg', 'git', 'config'), '[user]\n\temail = xdg@example.com\n');
  expect(gitEmailFromFiles()).toBe('xdg@example.com');
  fs.writeFileSync(
    path.join(tmp, 'home', '.gitconfig'),
    '# mine\n[core]\n\temail = not-this@example.com\n[user]\n\tname = Me\n\temail = "me@example.com" ; work\n',
  );
  expect(gitEmailFromFiles()).toBe('me@example.com');
  expect(gitEmailFromFiles()).toBe(git());
  fs.writeFileSync(path.join(tmp, 'home', '.gitconfig'), '[user]\n\tname = Me\n');
  fs.rmSync(path.join(tmp, 'xdg', 'git', 'config'));
  expect(gitEmailFromFiles()).toBeNull();
  expect(git()).toBeNull();
});

it('leaves includes to git', () => {
  fs.writeFileSync(
    path.join(tmp, 'home', '.gitconfig'),
    '[include]\n\tpath = other\n[user]\n\temail = a@example.com\n',
  );
  expect(gitEmailFromFiles()).toBeUndefined();
});
