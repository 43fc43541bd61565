/**
 * Test support: the answers the plugin's three hooks must give (docs/install.md), checked on
 * a Drive (test-drive-hooks.ts). Shared by bundle.test.ts (this checkout) and
 * plugin-install.test.ts (a copy after `npm ci --ignore-scripts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { NEW_MEMORY, PASSWORD_MEMORY, writeInput, type Drive } from './test-drive-hooks';
import { readAudit, sha } from '../service/test-support';
import { VersionStore } from '../service/versions/version-store';

/** Runs the three hooks on `d` and checks each answer; returns the pre-write times (ms) measured. */
export function expectPluginAnswers(d: Drive): { preWriteMs: number[]; nodeMs: number[] } {
  // SessionStart: the bounded session text, naming the verified memory.
  const s = d.run('SessionStart', { session_id: 's', hook_event_name: 'SessionStart', source: 'startup', cwd: d.tmp });
  expect(s.status, s.stderr).toBe(0);
  expect(s.json.hookSpecificOutput.hookEventName).toBe('SessionStart');
  const text = s.json.hookSpecificOutput.additionalContext as string;
  expect(text).toContain('deploy host');
  expect(text).toContain('verified');
  expect(text.length).toBeLessThanOrEqual(10_000);
  // The files SessionStart read are kept as versions (docs/versions.md), without the index.
  const versions = () => new VersionStore(path.join(d.tmp, 'versions')).readIndex(d.root);
  const deploy = versions().filter((l) => l.rel === 'memories/user_deploy_host.md');
  expect(deploy).toHaveLength(1);
  expect(deploy[0]!.sha).toBe(sha(fs.readFileSync(path.join(d.root, 'memories', 'user_deploy_host.md'))));

  // PreToolUse: a password in a memory is refused, the value masked.
  const pw = path.join(d.root, 'memories', 'project_db_access.md');
  const deny = d.run('PreToolUse', writeInput('PreToolUse', pw, PASSWORD_MEMORY, 'toolu_pw'));
  expect(deny.status, deny.stderr).toBe(0);
  expect(deny.json.hookSpecificOutput.permissionDecision).toBe('deny');
  expect(deny.json.hookSpecificOutput.permissionDecisionReason).toContain('password');
  expect(deny.stdout).not.toContain('Xq9v!Lr2#pTz8wKm');

  // A frontmatter the fast path leaves to the yaml package (a flow list, a nested map): the
  // guard loads dist/hooks/yaml.cjs and judges it like any other.
  const nested = path.join(d.root, 'memories', 'feedback_nested.md');
  const nestedText =
    '---\nname: nested\ndescription: a note with a nested frontmatter\ntype: feedback\ntags: [a, b]\nmetadata:\n  origin: chat\n---\nKeep the frontmatter of this note as it is.\n';
  const yamlRun = d.run('PreToolUse', writeInput('PreToolUse', nested, nestedText, 'toolu_yaml'));
  expect(yamlRun.status, yamlRun.stderr).toBe(0);
  expect(yamlRun.stderr).toBe('');
  expect(yamlRun.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();

  // PreToolUse then PostToolUse: a new memory passes the guard and is stamped inferred.
  const file = path.join(d.root, 'memories', 'feedback_small_commits.md');
  const pre = d.run('PreToolUse', writeInput('PreToolUse', file, NEW_MEMORY, 'toolu_new'));
  expect(pre.status, pre.stderr).toBe(0);
  expect(pre.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
  fs.writeFileSync(file, NEW_MEMORY);
  const post = d.run('PostToolUse', writeInput('PostToolUse', file, NEW_MEMORY, 'toolu_new'));
  expect(post.status, post.stderr).toBe(0);
  expect(post.json.hookSpecificOutput.additionalContext).toContain('trust-level: inferred');
  const after = fs.readFileSync(file);
  expect(after.toString('utf8')).toContain('trust-level: inferred\n');
  expect(after.toString('utf8')).toContain('created-at: 2026-11-22T12:00:00Z\n');
  expect(after.toString('utf8').endsWith('**How to apply:** one topic per commit.\n')).toBe(true);
  const ev = readAudit(d.root).filter((e) => e.memory === 'feedback_small_commits.md');
  expect(ev).toHaveLength(1);
  expect(ev[0]).toMatchObject({
    actor: 'assistant',
    action: 'create',
    from: null,
    to: 'inferred',
    id: 'hook-toolu_new',
    before_sha256: sha(Buffer.from(NEW_MEMORY)),
    after_sha256: sha(after),
  });
  // The bytes the stamp left are a version (hook-keep.test.ts: what is not kept twice).
  const stamped = versions().filter((l) => l.rel === 'memories/feedback_small_commits.md');
  expect(stamped.map((l) => l.sha)).toEqual([sha(after)]);
  expect(new VersionStore(path.join(d.tmp, 'versions')).bytesOf(stamped[0]!)!.equals(after)).toBe(true);
  // The same tool call stamped again is applied once (the audit file says so, without an index).
  const again = d.run('PostToolUse', writeInput('PostToolUse', file, NEW_MEMORY, 'toolu_new'));
  expect(again.status, again.stderr).toBe(0);
  expect(readAudit(d.root).filter((e) => e.memory === 'feedback_small_commits.md')).toHaveLength(1);
  // Another program rewrote a memory just before the assistant's write, with no scan between:
  // the bytes Claude Code reports as the file before the write (`tool_response.originalFile`)
  // are kept, then the stamped ones.
  const deployFile = path.join(d.root, 'memories', 'user_deploy_host.md');
  const synced = `${fs.readFileSync(deployFile, 'utf8')}Changed by a sync just before the write.\n`;
  const written = `${synced}One line the assistant added.\n`;
  fs.writeFileSync(deployFile, written);
  const edit = {
    ...writeInput('PostToolUse', deployFile, written, 'toolu_edit'),
    tool_response: { type: 'update', filePath: deployFile, content: written, originalFile: synced },
  };
  const postEdit = d.run('PostToolUse', edit);
  expect(postEdit.status, postEdit.stderr).toBe(0);
  const deployVersions = versions().filter((l) => l.rel === 'memories/user_deploy_host.md');
  expect(deployVersions.map((l) => l.sha)).toEqual([
    deploy[0]!.sha,
    sha(Buffer.from(synced)),
    sha(fs.readFileSync(deployFile)),
  ]);
  // Files only: the hooks never created the index.
  expect(fs.existsSync(path.join(d.tmp, 'index.sqlite'))).toBe(false);

  // The guard's time, process start included, beside a bare `node -e 0` measured in the same
  // run (docs/install.md, "Figures"): on a loaded machine both grow, so the bound is relative.
  // Loading the service, SQLite or Next on this path would break it.
  const outside = writeInput('PreToolUse', path.join(d.tmp, 'notes.md'), 'x', 'toolu_out');
  const preWriteMs: number[] = [];
  const nodeMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = d.run('PreToolUse', outside);
    expect(r.status).toBe(0);
    preWriteMs.push(r.ms);
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    nodeMs.push(performance.now() - t0);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  expect(median(preWriteMs)).toBeLessThan(4 * median(nodeMs) + 100);
  return { preWriteMs, nodeMs };
}
