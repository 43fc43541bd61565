/**
 * The row writer when another process indexed the same file after this scan's snapshot
 * (docs/freshness.md, "Safety"): the row is replaced, not duplicated, and no scan fails.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, closeDb } from '../../../db/client';
import { rowWriter } from './index-rows';
import { inspect } from './inspect';
import { FAKE_TOKEN, memoryFile, sandboxPerTest, testFields, TEST_BODY } from '../test-support';
import type { ListedFile } from '../../sources';

const sb = sandboxPerTest({ beforeEach, afterEach });
const OWNER = { emails: ['owner@example.com'], homeUser: 'owner' };

describe('rowWriter.upsert with a stale "new" hint', () => {
  it('replaces the row another process inserted since the snapshot', () => {
    const sqlite = openDb(sb.db).sqlite;
    const file: ListedFile = { relPath: 'memories/a.md', filename: 'a.md', location: 'memories', size: 1, mtimeMs: 1 };
    const first = inspect(memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY), file, OWNER);
    const second = inspect(
      memoryFile(testFields([['trust-level', 'inferred']]), `${TEST_BODY}${FAKE_TOKEN}\n`),
      file,
      OWNER,
    );
    // The other process's scan: row and findings of the first bytes.
    sqlite.transaction(() => rowWriter(sqlite).upsert('src', file, first, true))();
    // Ours, whose snapshot said "no row yet": it must not fail, and its bytes win.
    sqlite.transaction(() => rowWriter(sqlite).upsert('src', file, second, true))();
    const rows = sqlite.prepare('SELECT sha256, secret_exit FROM entries WHERE key = ?').all('src:memories/a.md');
    expect(rows).toEqual([{ sha256: second.sha256, secret_exit: 1 }]);
    const findings = sqlite
      .prepare('SELECT "check" FROM findings WHERE key = ? ORDER BY "check"')
      .all('src:memories/a.md');
    expect(findings).toEqual(
      second.findings.map((f) => ({ check: f.check })).sort((a, b) => a.check.localeCompare(b.check)),
    );
    // And an error row the same way.
    sqlite.transaction(() => rowWriter(sqlite).upsertError('src', file, 'unreadable', true))();
    expect(sqlite.prepare('SELECT error FROM entries WHERE key = ?').all('src:memories/a.md')).toEqual([
      { error: 'unreadable' },
    ]);
    closeDb(sb.db);
  });
});
