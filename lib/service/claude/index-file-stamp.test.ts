/**
 * An unchanged rescan writes nothing for a Claude Code folder, and every change MEMORY.md's
 * flags and findings depend on is still seen (claude/index-file-stamp.ts). Timestamps are set
 * in the past: a stamp younger than two seconds is never trusted.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scan } from '../index/scan-service';
import { indexStatus, markIndexed } from './claude-index';
import { indexStatusBySource } from './index-file-scan';
import { memoryFile, openCtx, put, sandboxPerTest, TEST_BODY } from '../test-support';

const sb = sandboxPerTest({ beforeEach, afterEach });
const day = (d: number) => new Date(Date.UTC(2026, 9, d));
const mem = (name: string) =>
  memoryFile(
    [
      ['name', name],
      ['description', `the ${name} note`],
      ['type', 'feedback'],
    ],
    TEST_BODY,
  );
const index = (names: string[]) => `# Index\n${names.map((n) => `- [${n}](${n}) — note`).join('\n')}\n`;

describe('MEMORY.md on a rescan', () => {
  it('is not rechecked while nothing moved, and is when its text, the folder or a row moves', () => {
    put(sb.root, 'feedback_a.md', mem('feedback_a'), day(1));
    put(sb.root, 'MEMORY.md', index(['feedback_a.md', 'feedback_b.md']), day(1));
    fs.utimesSync(sb.root, day(1), day(1));
    const ctx = openCtx(sb);
    const db = ctx.handle.sqlite;
    const missing = () =>
      (
        db.prepare("SELECT message FROM index_findings WHERE code = 'index.missing-file'").all() as {
          message: string;
        }[]
      )
        .map((r) => r.message)
        .sort();
    const indexed = () =>
      Object.fromEntries(
        (
          db.prepare('SELECT filename, indexed FROM entries ORDER BY filename').all() as {
            filename: string;
            indexed: number;
          }[]
        ).map((r) => [r.filename, r.indexed]),
      );
    expect(missing()).toEqual(['names feedback_b.md, which is not in the folder']);
    expect(indexed()).toEqual({ 'feedback_a.md': 1 });

    // Unchanged: the only write is the scan's own time.
    const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const before = changes();
    scan(ctx);
    expect(changes() - before).toBe(1);

    // A file appears (the folder's mtime moves): the line naming it is no longer a finding.
    put(sb.root, 'feedback_b.md', mem('feedback_b'), day(2));
    fs.utimesSync(sb.root, day(2), day(2));
    scan(ctx);
    expect(missing()).toEqual([]);
    expect(indexed()).toEqual({ 'feedback_a.md': 1, 'feedback_b.md': 1 });

    // The index drops a line, with an old mtime of its own: the flag follows the text.
    put(sb.root, 'MEMORY.md', index(['feedback_b.md']), day(3));
    scan(ctx);
    expect(indexed()).toEqual({ 'feedback_a.md': 0, 'feedback_b.md': 1 });

    // A file goes: its line becomes a finding again.
    fs.rmSync(`${sb.root}/feedback_b.md`);
    fs.utimesSync(sb.root, day(4), day(4));
    scan(ctx);
    expect(missing()).toEqual(['names feedback_b.md, which is not in the folder']);
  });

  it("keeps MEMORY.md's lines, bytes and cut as the scan read them, for the overview", () => {
    const long = `${index(['feedback_a.md'])}${'- a line\n'.repeat(210)}`;
    put(sb.root, 'feedback_a.md', mem('feedback_a'), day(1));
    put(sb.root, 'MEMORY.md', long, day(1));
    fs.utimesSync(sb.root, day(1), day(1));
    const ctx = openCtx(sb);
    const db = ctx.handle.sqlite;
    const source = ctx.sources[0]!;
    const onDisk = indexStatus(source.root, 'MEMORY.md');
    expect(onDisk).toEqual({ lines: 212, bytes: Buffer.byteLength(long), cut: true });
    expect(indexStatusBySource(db, ctx.sources).get(source.id)).toEqual(onDisk);

    // Until a scan reads it again, the overview shows what the index holds, like its findings.
    put(sb.root, 'MEMORY.md', index(['feedback_a.md']), day(2));
    expect(indexStatusBySource(db, ctx.sources).get(source.id)).toEqual(onDisk);
    scan(ctx);
    const short = indexStatusBySource(db, ctx.sources).get(source.id);
    expect(short).toEqual({ lines: 2, bytes: Buffer.byteLength(index(['feedback_a.md'])), cut: false });

    // Gone: nothing to show; an index from before the status was stored reads the disk.
    fs.rmSync(`${sb.root}/MEMORY.md`);
    fs.utimesSync(sb.root, day(3), day(3));
    scan(ctx);
    expect(indexStatusBySource(db, ctx.sources).get(source.id)).toBeNull();
    put(sb.root, 'MEMORY.md', long, day(4));
    db.prepare("DELETE FROM meta WHERE key LIKE 'index-status:%'").run();
    expect(indexStatusBySource(db, ctx.sources).get(source.id)).toEqual(onDisk);

    // memtrust's own writes to MEMORY.md mark the rows' flags from it (index-commit.ts): the status follows at once.
    put(sb.root, 'MEMORY.md', index(['feedback_a.md']), day(5));
    markIndexed(db, source);
    expect(indexStatusBySource(db, ctx.sources).get(source.id)).toEqual(short);
  });
});
