/**
 * The write hook judges a memory by its root's layout (docs/validators.md "Rules by layout")
 * and lists the always/never density as a hint, not an injection flag ("Hints").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgePreWrite } from './pre-write';
import type { HookInput } from './input';

const TEXT =
  '---\nname: CI rules\ndescription: keep CI green\nmetadata:\n  type: feedback\n---\n\nAlways run the tests. Never push to main. Never skip review.\n\n**Why:** a red main blocked a release.\n\n**How to apply:** every session.\n';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-prewrite-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function judge(root: string, rel: string) {
  const filePath = path.join(root, rel);
  const input: HookInput = {
    event: 'PreToolUse',
    toolName: 'Write',
    filePath,
    cwd: dir,
    sessionId: 's',
    toolUseId: 't',
    write: { tool: 'Write', filePath, content: TEXT },
    inputProblem: null,
    toolResponse: null,
  };
  return judgePreWrite(input, { roots: [root], owner: () => ({ emails: ['owner@example.com'] }) });
}

describe('pre-write by layout', () => {
  it('a Claude Code memory named feedback-ci.md gets no filename warning; the density is a hint', () => {
    const root = path.join(dir, 'memory');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), '# Memory\n');
    const v = judge(root, 'feedback-ci.md');
    if (v.decision !== 'ok') throw new Error(JSON.stringify(v));
    expect(v.target.layout).toBe('claude-code');
    expect(v.context).not.toContain('filename does not follow');
    expect(v.context).not.toContain('prompt-injection');
    expect(v.context).toContain('hint: absolute-command density');
  });

  it('the same file in a trust-model root still gets the filename warning', () => {
    const root = path.join(dir, 'trust');
    fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
    const v = judge(root, 'memories/feedback-ci.md');
    if (v.decision !== 'ok') throw new Error(JSON.stringify(v));
    expect(v.target.layout).toBe('trust-root');
    expect(v.context).toContain('filename does not follow');
  });
});
