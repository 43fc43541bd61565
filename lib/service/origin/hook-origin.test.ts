/**
 * The post-write stamp records where a memory came from (docs/origin.md "Recorded going
 * forward"): the hook JSON's session_id and tool_use_id, at the top level, only when the
 * file names no session of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { afterEach, beforeEach } from 'vitest';
import { CLI, PROJECT, childEnv, sandboxPerTest } from '../test-support';
import { originStamp } from '../../trust/assistant-write';

const sb = sandboxPerTest({ beforeEach, afterEach });

function post(file: string, session: string | undefined, toolUseId: string | undefined) {
  const input = JSON.stringify({
    ...(session ? { session_id: session } : {}),
    cwd: '/',
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    ...(toolUseId ? { tool_use_id: toolUseId } : {}),
    tool_input: { file_path: file, content: fs.readFileSync(file, 'utf8') },
  });
  return spawnSync(process.execPath, [CLI, 'hook', 'post-write'], {
    input,
    env: childEnv(sb.env),
    encoding: 'utf8',
    cwd: PROJECT,
  });
}

const NEW =
  '---\nname: port\ndescription: the staging port\ntype: project\n---\nThe staging box listens on 8443 for deploys from CI.\n';

describe('post-write stamps the origin', () => {
  it('a new memory gets originSessionId and originToolUseId at the top level', () => {
    fs.mkdirSync(path.join(sb.root, 'memories'));
    const file = path.join(sb.root, 'memories', 'port.md');
    fs.writeFileSync(file, NEW);
    const r = post(file, '9d8c7b6a-5f4e-4d3c-8b2a-190817161514', 'toolu_01PortNote');
    expect(r.status).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('trust-level: inferred\n');
    expect(text).toContain('originSessionId: 9d8c7b6a-5f4e-4d3c-8b2a-190817161514\n');
    expect(text).toContain('originToolUseId: toolu_01PortNote\n');
  });

  it('a file that already names its session (under metadata:) keeps it, and gets no tool-use id of another session', () => {
    fs.mkdirSync(path.join(sb.root, 'memories'));
    const file = path.join(sb.root, 'memories', 'port.md');
    const own = NEW.replace('type: project\n', 'metadata:\n  type: project\n  originSessionId: aaaa-bbbb\n');
    fs.writeFileSync(file, own);
    expect(post(file, 'cccc-dddd', 'toolu_other').status).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('  originSessionId: aaaa-bbbb\n');
    expect(text).not.toContain('cccc-dddd');
    expect(text).not.toContain('originToolUseId');
  });
});

describe('originStamp', () => {
  it('writes only absent keys and only well-formed ids', () => {
    expect(originStamp({ sessionId: 's-1', toolUseId: 't-1', current: {} })).toEqual({
      originSessionId: 's-1',
      originToolUseId: 't-1',
    });
    expect(originStamp({ sessionId: 's-1', toolUseId: 't-2', current: { sessionId: 's-1' } })).toEqual({
      originToolUseId: 't-2',
    });
    expect(
      originStamp({ sessionId: 's-1', toolUseId: 't-2', current: { sessionId: 's-1', toolUseId: 't-1' } }),
    ).toEqual({});
    expect(originStamp({ sessionId: 'bad id: x', toolUseId: 't', current: {} })).toEqual({});
    expect(originStamp({ sessionId: 's', toolUseId: 'bad\nid', current: {} })).toEqual({ originSessionId: 's' });
    expect(originStamp(undefined)).toEqual({});
  });
});
