/**
 * The SessionStart hook's kept checks (check-cache.ts; docs/session-context.md, "Reading the
 * folders fast"): with no index, a second session start reads no memory of a Claude Code
 * folder, and the text is byte-identical to one made by checking every file — also after a
 * memory or MEMORY.md changed (that file alone is read again) and under another owner
 * (nothing kept stands). The kept file is 0600 and holds no credential's value.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSessionContext, type ContextRequest } from './session-context';
import { FAKE_PASSWORD, fakeDbUrl, writeClaudeFolderOverCut, writeTrustRootOverBudget } from './context-fixtures';
import type { OwnerIdentity } from '../../validators/types';
import { NOW, envFor } from '../test-support';
import { loadConfig } from '../../core/config';
import { createContext } from '../context';
import { scan } from '../index/scan-service';
import { closeDb } from '../../../db/client';
import Database from 'better-sqlite3';

const OWNER: OwnerIdentity = { emails: ['owner@example.com'], homeUser: 'owner' };

let tmp: string;
let claude: string;
let trust: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-checks-'));
  claude = path.join(tmp, 'claude', 'memory');
  trust = path.join(tmp, 'trust');
  writeClaudeFolderOverCut(claude, { lines: 30 });
  writeTrustRootOverBudget(trust, { count: 8 });
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The plan's text and JSON, and which files of each root were read from disk. */
function plan(extra: Partial<ContextRequest> = {}) {
  const read = { claude: 0, trust: 0 };
  const p = buildSessionContext({
    roots: [claude, trust],
    now: new Date(NOW),
    owner: OWNER,
    budget: 8000,
    home: '/nonexistent-home',
    // No index: the plugin's case. The kept checks live beside where the index would be.
    cache: path.join(tmp, 'data', 'index.sqlite'),
    onRead: (s) => {
      read[s.root === claude ? 'claude' : 'trust']++;
    },
    ...extra,
  });
  return { text: p.text, json: JSON.stringify(p), read };
}

const memories = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.md') && n !== 'MEMORY.md');

describe('the hook keeps its checks', () => {
  it('a second session start reads no memory of the folder and says exactly what a fresh one says', () => {
    const fresh = plan({ checks: false });
    const first = plan();
    expect(first.read.claude).toBe(memories(claude).length);
    const second = plan();
    expect(second.read.claude).toBe(0);
    for (const p of [first, second]) {
      expect(p.text).toBe(fresh.text);
      expect(p.json).toBe(fresh.json);
    }
    const dir = path.join(tmp, 'data', 'session-checks');
    const kept = fs.readdirSync(dir);
    expect(kept).toHaveLength(2);
    for (const f of kept) {
      expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(path.join(dir, f), 'utf8')).not.toContain(FAKE_PASSWORD);
    }
  });

  it('a changed memory or MEMORY.md is checked again, alone; the text is a fresh one', () => {
    plan();
    const one = path.join(claude, memories(claude).sort()[3]!);
    // A credential appended: the same name, another size and mtime.
    fs.appendFileSync(one, `\nThe report database is at ${fakeDbUrl('db.internal')}.\n`);
    const after = plan();
    expect(after.read.claude).toBe(1);
    expect(after.text).toBe(plan({ checks: false }).text);
    expect(after.text).toContain(path.basename(one));
    // The same size, another mtime: still checked again.
    const bytes = fs.readFileSync(one);
    fs.writeFileSync(one, Buffer.from(bytes.toString('latin1').replace('report', 'R3port'), 'latin1'));
    fs.utimesSync(one, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-01T00:00:00Z'));
    expect(plan().read.claude).toBe(1);
    const index = path.join(claude, 'MEMORY.md');
    fs.appendFileSync(index, `- a line with ${fakeDbUrl('db.internal')}\n`);
    const withIndex = plan();
    expect(withIndex.text).toBe(plan({ checks: false }).text);
    expect(withIndex.text).toMatch(/MEMORY\.md lines? holding a credential/i);
  });

  it('under another owner or allowances nothing kept stands', () => {
    plan();
    const other: OwnerIdentity = { ...OWNER, allowNetworks: ['10.0.0.0/8'] };
    const p = plan({ owner: other });
    expect(p.read.claude).toBe(memories(claude).length);
    expect(p.text).toBe(plan({ owner: other, checks: false }).text);
  });

  it('with an index: its fresh rows are kept like checks, so the next session start needs no index', () => {
    const db = path.join(tmp, 'data', 'index.sqlite');
    const env = { ...envFor([claude, trust].join(path.delimiter), db, tmp) };
    scan(createContext(loadConfig({ env }), env));
    closeDb(db);
    const fresh = plan({ checks: false, cache: null });
    const first = plan();
    expect(first.read.claude).toBe(0); // every row fresh: no file read
    expect(first.text).toBe(fresh.text);
    // The index gone: what the rows said stands in the kept checks.
    for (const f of fs.readdirSync(path.dirname(db)))
      if (f.startsWith('index.sqlite')) fs.renameSync(path.join(path.dirname(db), f), path.join(tmp, f));
    const second = plan();
    expect(second.read.claude).toBe(0);
    expect(second.text).toBe(fresh.text);
    expect(second.json).toBe(fresh.json);
  });

  it('rows checked under other rules are not taken: the files are checked again, and those checks kept', () => {
    const db = path.join(tmp, 'data', 'index.sqlite');
    const env = { ...envFor([claude, trust].join(path.delimiter), db, tmp) };
    scan(createContext(loadConfig({ env }), env));
    closeDb(db);
    const sqlite = new Database(db);
    sqlite.prepare("UPDATE meta SET value = 'other' WHERE key = 'secret_rules'").run();
    sqlite.close();
    // Another memtrust's rules (or another owner) may have missed what these find: every file read.
    expect(plan().read.claude).toBe(memories(claude).length);
    fs.rmSync(db);
    expect(plan().read.claude).toBe(0);
  });

  it('a few files not kept are read on the spot, without opening the index', () => {
    const db = path.join(tmp, 'data', 'index.sqlite');
    const env = { ...envFor([claude, trust].join(path.delimiter), db, tmp) };
    const ctx = createContext(loadConfig({ env }), env);
    scan(ctx);
    expect(plan().read.claude).toBe(0);
    const one = path.join(claude, memories(claude).sort()[2]!);
    fs.appendFileSync(one, '\nOne more line.\n');
    scan(ctx); // its row is fresh again
    closeDb(db);
    const after = plan();
    expect(after.read.claude).toBe(1); // read, not taken from its row
    expect(after.text).toBe(plan({ checks: false, cache: null }).text);
  });
  it("a change in one project's folder costs another project's session start nothing, and its own sees it", () => {
    // Two projects' Claude Code folders, each session start given its own (project-scope.ts).
    const other = path.join(tmp, 'other', 'memory');
    writeClaudeFolderOverCut(other, { lines: 12 });
    const db = path.join(tmp, 'data', 'index.sqlite');
    const env = { ...envFor([claude, other].join(path.delimiter), db, tmp) };
    scan(createContext(loadConfig({ env }), env));
    closeDb(db);
    const start = (root: string, extra: Partial<ContextRequest> = {}) => {
      let read = 0;
      const p = buildSessionContext({
        roots: [root],
        now: new Date(NOW),
        owner: OWNER,
        budget: 8000,
        home: '/nonexistent-home',
        cache: db,
        onRead: () => read++,
        ...extra,
      });
      return { text: p.text, read };
    };
    // Every file read and checked: what the text must be.
    const fresh = (root: string) => start(root, { checks: false, cache: null }).text;
    start(claude);
    start(other);
    const kept = path.join(tmp, 'data', 'session-checks');
    const keptFiles = () =>
      Object.fromEntries(fs.readdirSync(kept).map((f) => [f, fs.readFileSync(path.join(kept, f), 'utf8')]));
    const before = keptFiles();
    // A memory of the other project changed (a credential added); the index is not rescanned.
    const changed = path.join(other, memories(other).sort()[1]!);
    fs.appendFileSync(changed, `\nThe report database is at ${fakeDbUrl('db.internal')}.\n`);
    // This project: no file read, no row asked for (the index made unreadable would show it), the same text.
    const unchanged = start(claude).text;
    fs.writeFileSync(db, 'not an index any more');
    const mine = start(claude);
    expect(mine.read).toBe(0);
    expect(mine.text).toBe(unchanged);
    expect(mine.text).toBe(fresh(claude));
    expect(keptFiles()).toEqual(before); // nothing written again
    // The other project sees its change at once: the file read and checked, its credential named.
    const theirs = start(other);
    expect(theirs.read).toBe(1);
    expect(theirs.text).toContain(path.basename(changed));
    expect(theirs.text).toBe(fresh(other));
    expect(theirs.text).toMatch(/holding a credential/i);
  });
});
