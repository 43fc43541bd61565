/**
 * list-dir.ts: a symlink where a memory file is expected is listed as refused with the link's
 * own time, so its row does not date from 1970 (20,000 days old in every table and queue).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeCtx, openCtx, sandboxPerTest, TEST_BODY } from '../service/test-support';
import { listMarkdown, withNamesOnly } from './list-dir';

const sb = sandboxPerTest({ beforeEach, afterEach }, 'memtrust-list-dir-');
const LINK_TIME = new Date('2026-11-10T08:00:00Z');

function withLink(): string {
  const dir = path.join(sb.root, 'memories');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'user_real.md'), `---\nname: Real\ndescription: d\ntype: user\n---\n${TEST_BODY}`);
  const outside = path.join(sb.tmp, 'outside.md');
  fs.writeFileSync(outside, 'outside the root\n');
  const link = path.join(dir, 'user_link.md');
  fs.symlinkSync(outside, link);
  fs.lutimesSync(link, LINK_TIME, LINK_TIME);
  return dir;
}

describe('a symlinked memory file in a listing', () => {
  it('is refused, with the link’s own mtime, when the folder is read and when only its name is looked at', () => {
    withLink();
    const read = listMarkdown(sb.root, 'memories', 'memories');
    const named = withNamesOnly(
      () => ['user_link.md', 'user_real.md'],
      () => listMarkdown(sb.root, 'memories', 'memories'),
    );
    for (const listing of [read, named]) {
      const link = listing.find((f) => f.filename === 'user_link.md');
      expect(link?.refused).toBe('symlinked memory files are refused');
      expect(link?.size).toBe(0);
      expect(link?.mtimeMs).toBe(LINK_TIME.getTime());
      expect(listing.find((f) => f.filename === 'user_real.md')?.refused).toBeUndefined();
    }
  });

  it('gets an index row dated from the link, not from 1970', () => {
    withLink();
    const ctx = openCtx(sb);
    try {
      const row = ctx.handle.sqlite
        .prepare("SELECT created_ms, error FROM entries WHERE filename = 'user_link.md'")
        .get() as { created_ms: number; error: string };
      expect(row.error).toBe('symlinked memory files are refused');
      expect(row.created_ms).toBe(LINK_TIME.getTime());
    } finally {
      closeCtx(sb);
    }
  });
});
