/** Layout detection on folders written here (docs/roots.md): what is read, what is refused. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectLayout } from './detect';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-detect-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function put(rel: string, text = '---\nname: x\n---\nbody\n'): void {
  const abs = path.join(dir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

const at = (rel = '') => detectLayout(path.join(dir, rel));

describe('detectLayout', () => {
  it('reads a trust-model root, an empty folder and a folder with only quarantine/ as trust roots', () => {
    put('a/memories/user_x.md');
    expect(at('a')).toEqual({ ok: true, layout: 'trust-root', shape: 'folders' });
    fs.mkdirSync(path.join(dir, 'b'));
    expect(at('b')).toEqual({ ok: true, layout: 'trust-root', shape: 'empty' });
    put('c/quarantine/user_x.md');
    expect(at('c')).toMatchObject({ ok: true, layout: 'trust-root' });
  });

  it('reads Claude Code folders: with MEMORY.md, with frontmatter files only, and an empty ~/.claude/projects/*/memory', () => {
    put('cc/MEMORY.md', '- [x](feedback_x.md)\n');
    put('cc/notes_without_frontmatter.md', 'plain\n');
    put('cc/quarantine/feedback_y.md');
    expect(at('cc')).toEqual({ ok: true, layout: 'claude-code', shape: 'index' });
    put('loose/feedback_x.md');
    put('loose/plain.md', 'plain\n');
    expect(at('loose')).toEqual({ ok: true, layout: 'claude-code', shape: 'no-index' });
    fs.mkdirSync(path.join(dir, '.claude/projects/-home-me-app/memory'), { recursive: true });
    expect(at('.claude/projects/-home-me-app/memory')).toMatchObject({ ok: true, layout: 'claude-code' });
    // One file that happens to share a category name does not make a Claude Code folder canonical.
    put('cc2/MEMORY.md', '- [d](decisions.md)\n');
    put('cc2/decisions.md');
    expect(at('cc2')).toMatchObject({ ok: true, layout: 'claude-code' });
  });

  it('refuses what it does not read, naming it', () => {
    put('p/.claude/memory/landmarks.md');
    expect(at('p/.claude/memory')).toMatchObject({ ok: false, layout: 'canonical', shape: 'flat' });
    put('s/decisions/d-001.md');
    expect(at('s')).toMatchObject({ ok: false, layout: 'canonical', shape: 'sharded' });
    put('pend/_pending.md', '## CANDIDATE: x\n');
    expect(at('pend')).toMatchObject({ ok: false, layout: 'canonical' });
    put('g/engineering_memory.sqlite3', 'x');
    expect(at('g')).toMatchObject({ ok: false, layout: 'governed' });
    put('m/memory.jsonl', '\n{"type":"relation","from":"a","to":"b","relationType":"r"}\n');
    expect(at('m')).toMatchObject({ ok: false, layout: 'mcp-graph' });
    put('j/other.jsonl', '{"id":1}\n');
    expect(at('j')).toMatchObject({ ok: false, layout: 'unknown' });
    put('n/a.md', 'plain\n');
    expect(at('n')).toMatchObject({ ok: false, layout: 'notes' });
    put('f.md');
    expect(at('f.md')).toMatchObject({
      ok: false,
      layout: 'file',
      found: expect.stringContaining('a single Markdown file'),
    });
  });

  it('a FIFO named like a graph or a memory is looked at without waiting for a writer', () => {
    fs.mkdirSync(path.join(dir, 'f'));
    execFileSync('mkfifo', [path.join(dir, 'f', 'graph.jsonl')]);
    execFileSync('mkfifo', [path.join(dir, 'f', 'note.md')]);
    // Neither is read as what its name says: nothing memtrust reads is left.
    expect(at('f')).toMatchObject({ ok: false, layout: 'unknown' });
  });

  it('a missing root is not a layout refusal (reported as not found by the source)', () => {
    expect(at('missing')).toMatchObject({ ok: true, shape: 'missing' });
  });
});

describe('settings refuse a root memtrust does not read', () => {
  it('addRoot answers with the refusal line and writes no settings', async () => {
    const { addRoot } = await import('../service/settings/settings-service');
    const cfg = path.join(dir, 'cfg');
    put('mcp/memory.jsonl', '{"type":"entity","name":"a","entityType":"b","observations":[]}\n');
    const r = addRoot(path.join(dir, 'mcp'), { XDG_CONFIG_HOME: cfg });
    expect(r).toMatchObject({
      ok: false,
      code: 'unsupported-layout',
      message: expect.stringMatching(/^memory root refused: .*MCP memory server knowledge graph/),
    });
    expect(fs.existsSync(cfg)).toBe(false);
  });
});
