/**
 * Start-up recovery looks only into roots that hold a file of memtrust's own (places.ts
 * `hasOwnFiles`; docs/crash-safety.md, "Recovery"): a root without is skipped and nothing is
 * made for it, and an interrupted intent is still found in either place memtrust keeps a
 * root's files — the root's `.memtrust/` and, for a folder in a git checkout, the data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { createContext } from '../context';
import { forgetPlaces, rootDataDir } from '../meta/places';
import { envFor, MACHINE, put, removeSandbox, sandbox, type Sandbox } from '../test-support';
import { journalDir } from './journal';
import { recoverAll } from './recover';

const MEMORY = '---\nname: Tests\ndescription: how to run them\ntype: feedback\n---\nRun the tests first.\n';

let sb: Sandbox | null = null;
afterEach(() => {
  if (sb) removeSandbox(sb);
  sb = null;
  forgetPlaces();
});

/** A Claude Code memory folder, inside a git checkout (its own files go to the data folder) or not. */
function folder(inGit: boolean): Sandbox {
  const s = sandbox('memtrust-recover-skip-');
  const proj = path.join(s.tmp, 'proj');
  if (inGit) fs.mkdirSync(path.join(proj, '.git'), { recursive: true });
  const root = path.join(proj, 'memory');
  put(root, 'feedback_tests.md', MEMORY);
  sb = { ...s, root, env: envFor(root, s.db, s.tmp) };
  return sb;
}

/** An intent cut short while it was written: recovery discards it (nothing had changed yet). */
function cutIntent(root: string, op: string): string {
  const file = path.join(journalDir(root), `${MACHINE}-${op}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{"v":2,');
  return file;
}

describe('start-up recovery over roots without files of their own', () => {
  it('skips them and makes nothing for them', () => {
    const s = folder(true);
    const ctx = createContext(loadConfig({ env: s.env }), s.env);
    expect(recoverAll(ctx)).toEqual([]);
    // Looking into the root the long way makes its data folder (metaDir); a skipped root gets none.
    expect(fs.existsSync(rootDataDir(s.root))).toBe(false);
    expect(fs.existsSync(path.join(s.root, '.memtrust'))).toBe(false);
  });

  it.each([
    ['in the root', false],
    ['in the data folder (git checkout)', true],
  ])('still finds an interrupted intent %s', (_where, inGit) => {
    const s = folder(inGit);
    const ctx = createContext(loadConfig({ env: s.env }), s.env);
    const file = cutIntent(s.root, 'op1');
    expect(file.startsWith(inGit ? rootDataDir(s.root) : path.join(s.root, '.memtrust'))).toBe(true);
    expect(recoverAll(ctx).map((o) => o.outcome)).toEqual(['discarded']);
    expect(fs.existsSync(file)).toBe(false);
  });
});
