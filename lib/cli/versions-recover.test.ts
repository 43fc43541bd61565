/**
 * `memtrust versions` and `memtrust recover` through the real CLI (docs/versions.md): a
 * Claude Code folder indexed, a consolidation-like run outside memtrust (eight deleted, two
 * rewritten, MEMORY.md edited), then each file put back as it was, its MEMORY.md line too,
 * as a batch `memtrust undo` reverses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeFolder } from '../service/fixtures/claude-folder';
import { put, readAudit, removeSandbox, runCli, sandbox, sha, type Sandbox } from '../service/test-support';

let sb: Sandbox;
let originals: Record<string, Buffer>;
beforeEach(() => {
  sb = sandbox('memtrust-recover-');
  originals = claudeFolder();
  for (const [rel, bytes] of Object.entries(originals)) put(sb.root, rel, bytes);
});
afterEach(() => removeSandbox(sb));

const cli = (...args: string[]) => runCli(args, { ...sb.env, MEMTRUST_VERSIONS: 'on' });
const file = (rel: string) => path.join(sb.root, rel);

/** What a consolidation run does: deletes, merges two notes into their files, drops the index lines. */
function consolidate(deleted: string[], rewritten: string[]): void {
  for (const f of deleted) fs.rmSync(file(f));
  for (const f of rewritten) fs.writeFileSync(file(f), `${originals[f]!.toString()}\nMerged from an older note.\n`);
  const index = fs.readFileSync(file('MEMORY.md'), 'utf8');
  fs.writeFileSync(
    file('MEMORY.md'),
    index
      .split('\n')
      .filter((l) => !deleted.some((d) => l.includes(`(${d})`)))
      .join('\n'),
  );
}

describe('versions and recover', { timeout: 120_000 }, () => {
  it('lists versions, puts a deleted and a rewritten memory back byte for byte, and undo reverses it', () => {
    expect(cli('scan').status).toBe(0);
    const deleted = ['feedback_tabs.md', 'user_role.md', 'project_release.md', 'reference_grafana.md'];
    const more = ['feedback_commits.md', 'feedback_tests.md', 'project_freeze.md', 'reference_nas.md'];
    const rewritten = ['feedback_pnpm.md', 'user_editor.md'];
    for (const f of [...deleted, ...more, ...rewritten]) expect(fs.existsSync(file(f)), f).toBe(true);
    consolidate([...deleted, ...more], rewritten);
    expect(cli('scan').status).toBe(0);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toHaveLength(10);

    const listed = cli('versions', 'user_editor.md', '--json');
    expect(listed.status, listed.stderr).toBe(0);
    const v = JSON.parse(listed.stdout) as { versions: { sha256: string; who: string }[] };
    expect(v.versions.map((x) => x.sha256)).toEqual([
      sha(originals['user_editor.md']!),
      sha(fs.readFileSync(file('user_editor.md'))),
    ]);
    expect(v.versions.map((x) => x.who)).toEqual(['first seen', 'outside']);
    const gone = cli('versions', 'feedback_tabs.md');
    expect(gone.stdout).toMatch(/deleted\s+outside/);

    const indexBefore = fs.readFileSync(file('MEMORY.md'), 'utf8');
    expect(indexBefore).not.toContain('(feedback_tabs.md)');
    const r = cli('recover', 'feedback_tabs.md');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/recovered 1 file and 1 MEMORY\.md line as batch (\S+)/);
    expect(fs.readFileSync(file('feedback_tabs.md')).equals(originals['feedback_tabs.md']!)).toBe(true);
    expect(fs.readFileSync(file('MEMORY.md'), 'utf8')).toMatch(/^- \[Tabs\]\(feedback_tabs\.md\)/m);

    const w = cli('recover', 'user_editor.md');
    expect(w.status, w.stderr).toBe(0);
    expect(fs.readFileSync(file('user_editor.md')).equals(originals['user_editor.md']!)).toBe(true);
    const batch = /as batch (\S+)/.exec(w.stdout)![1]!;
    // Undo puts the rewritten bytes back: a recover is a batch like any other.
    const u = cli('undo', batch);
    expect(u.status, u.stderr).toBe(0);
    expect(fs.readFileSync(file('user_editor.md')).toString()).toContain('Merged from an older note.');
    // A file that held a password comes back without it, and the output says so.
    expect(originals['reference_nas.md']!.toString()).toContain('Tr0ub4dor-not-real');
    const nas = cli('recover', 'reference_nas.md');
    expect(nas.status, nas.stderr).toBe(0);
    expect(nas.stdout).toContain('had its credential values replaced');
    const back = fs.readFileSync(file('reference_nas.md'), 'utf8');
    expect(back).not.toContain('Tr0ub4dor-not-real');
    expect(back).toContain('⟦credential removed by memtrust⟧');
    expect(back.split('\n').length).toBe(originals['reference_nas.md']!.toString().split('\n').length);
    // --at before any version, an unknown memory, a bad time: clear errors.
    const early = cli('recover', 'feedback_commits.md', '--at', '2020-01-01');
    expect(early.status).toBe(2);
    expect(early.stderr).toContain('no kept version');
    const missing = cli('recover', 'nothing_here.md');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no versions of nothing_here.md are kept');
    expect(cli('recover', 'feedback_tabs.md', '--at', 'yesterday').stderr).toContain('ISO 8601');
    // memtrust's own writes are not outside changes.
    expect(cli('scan').status).toBe(0);
    expect(readAudit(sb.root).filter((e) => e.actor === 'outside')).toHaveLength(10);
  });

  it('a mass change: the next SessionStart text says it once, and recover --batch puts every file back as one batch', () => {
    expect(cli('scan').status).toBe(0);
    const names = Object.keys(originals)
      .filter((f) => f !== 'MEMORY.md')
      .sort()
      .slice(0, 12);
    consolidate(names, []);
    expect(cli('scan').status).toBe(0);
    const hook = cli('context', '--format', 'hook');
    expect(hook.status).toBe(0);
    const said = /npx memtrust recover --batch (\S+?)["\\]/.exec(hook.stdout);
    expect(hook.stdout).toContain('12 memories were removed outside memtrust');
    expect(said).not.toBeNull();
    // Said once.
    expect(cli('context', '--format', 'hook').stdout).not.toContain('removed outside memtrust');
    const r = cli('recover', '--batch', said![1]!);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/recovered 12 files and \d+ MEMORY\.md lines? as batch/);
    for (const f of names) {
      const back = fs.readFileSync(file(f));
      // A file without a credential comes back byte for byte.
      if (!/password|postgres:|sk-/.test(originals[f]!.toString())) expect(back.equals(originals[f]!), f).toBe(true);
    }
  });
});
