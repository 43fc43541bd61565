/**
 * The watcher's answer while the dashboard's first scan runs in steps (docs/freshness.md,
 * "The dashboard's first scan"): between two steps a CLI process may ask, and the index is not
 * current until the last step, so the answer is "dirty" — even after the scan's start cleared
 * the dirty flag. Once the scan ends, the same question is answered "clean".
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { createContext } from '../context';
import { memoryFile, put, removeSandbox, sandbox, type Sandbox } from '../test-support';
import { keepFresh } from './keep-fresh';
import { type Answer, answerPath, watchDir } from './monitor-files';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-monitor-steps-');
});
afterEach(() => removeSandbox(sb));

const FILE = memoryFile(
  [
    ['name', 'Note'],
    ['description', 'a note'],
    ['type', 'project'],
  ],
  '\nThe release train leaves on Thursdays.\n',
);

/** Asks the watcher of `db` as a CLI process does (a cookie in its folder) and waits for the answer (2 s at most). */
async function ask(db: string): Promise<Answer | null> {
  const cookie = path.join(watchDir(db), `q-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(cookie, '');
  try {
    for (const t = Date.now(); Date.now() - t < 2000; ) {
      await new Promise((r) => setTimeout(r, 5));
      try {
        return JSON.parse(fs.readFileSync(answerPath(cookie), 'utf8')) as Answer;
      } catch {
        // not yet
      }
    }
    return null;
  } finally {
    fs.rmSync(cookie, { force: true });
    fs.rmSync(answerPath(cookie), { force: true });
  }
}

describe('the watcher while the first scan runs in steps', () => {
  it('answers dirty between the steps, clean once the scan ended', async () => {
    const roots = ['a', 'b', 'c'].map((r) => path.join(sb.tmp, r));
    for (const r of roots) for (let i = 0; i < 2; i++) put(r, `memories/project_note_${i}.md`, FILE);
    const env = { ...sb.env, MEMTRUST_ROOT: roots.join(path.delimiter) };
    const ctx = createContext(loadConfig({ env }), env);
    const keeper = keepFresh(ctx);
    try {
      const answers: (Answer | null)[] = [];
      let steps = 0;
      while (keeper.step()) {
        steps++;
        answers.push(await ask(ctx.config.dbPath));
      }
      // A step per root at least, after the watches: the scan had cleared the flag for most of them.
      expect(steps).toBeGreaterThanOrEqual(roots.length);
      expect(keeper.scanned).toBe(true);
      expect(answers).toEqual(answers.map(() => ({ clean: false })));
      const after = await ask(ctx.config.dbPath);
      expect(after?.clean).toBe(true);
    } finally {
      keeper.close();
    }
  });
});
