import { describe, expect, it } from 'vitest';
import { produceContent } from './apply-edits';
import { parseHookInput } from './input';
import { entryState, hookEntries, hooksBlock, mergeHooks, shellQuote } from './install-entries';

const edit = (file: string, ...edits: [string, string, boolean?][]) => ({
  tool: 'MultiEdit' as const,
  filePath: file,
  edits: edits.map(([oldString, newString, replaceAll]) => ({ oldString, newString, replaceAll: !!replaceAll })),
});

describe('produceContent', () => {
  it('Write is its content', () => {
    expect(produceContent({ tool: 'Write', filePath: '/x.md', content: 'abc' }, 'old')).toEqual({
      ok: true,
      text: 'abc',
    });
  });
  it('one occurrence replaced; $ patterns are literal', () => {
    expect(produceContent(edit('/x', ['b', '$&$1']), 'abc')).toEqual({ ok: true, text: 'a$&$1c' });
  });
  it('replace_all replaces every occurrence; without it two matches fail', () => {
    expect(produceContent(edit('/x', ['o', '0', true]), 'foo boo')).toEqual({ ok: true, text: 'f00 b00' });
    expect(produceContent(edit('/x', ['o', '0']), 'foo boo').ok).toBe(false);
  });
  it('edits apply in order, each to the previous result', () => {
    expect(produceContent(edit('/x', ['a', 'bX'], ['bX', 'c']), 'a')).toEqual({ ok: true, text: 'c' });
    expect(produceContent(edit('/x', ['bX', 'c'], ['a', 'bX']), 'a').ok).toBe(false);
  });
  it('missing file: only an empty old text creates it', () => {
    expect(produceContent(edit('/x', ['', 'new']), null)).toEqual({ ok: true, text: 'new' });
    expect(produceContent(edit('/x', ['a', 'b']), null)).toMatchObject({
      ok: false,
      why: 'the edit: the file does not exist',
    });
  });
  it('old text not found, or equal to the new one: the tool fails', () => {
    expect(produceContent(edit('/x', ['zz', 'y']), 'abc')).toMatchObject({ ok: false });
    expect(produceContent(edit('/x', ['a', 'a']), 'abc')).toMatchObject({ ok: false });
  });
  it('CRLF text is matched byte for byte', () => {
    expect(produceContent(edit('/x', ['a\r\nb', 'c']), 'a\r\nb\r\n')).toEqual({ ok: true, text: 'c\r\n' });
  });
});

describe('parseHookInput', () => {
  it('reads the documented PreToolUse fields', () => {
    const r = parseHookInput(
      JSON.stringify({
        session_id: 's',
        cwd: '/p',
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_use_id: 't1',
        tool_input: { file_path: '/r/m.md', old_string: 'a', new_string: 'b', replace_all: true },
      }),
    );
    expect(r).toEqual({
      ok: true,
      input: {
        event: 'PreToolUse',
        toolName: 'Edit',
        filePath: '/r/m.md',
        cwd: '/p',
        sessionId: 's',
        toolUseId: 't1',
        inputProblem: null,
        toolResponse: null,
        write: { tool: 'Edit', filePath: '/r/m.md', edits: [{ oldString: 'a', newString: 'b', replaceAll: true }] },
      },
    });
  });
  it.each([
    ['{"tool_name":"Write","tool_input":{"file_path":"/a.md"}}', 'tool_input.content is not a string'],
    [
      '{"tool_name":"MultiEdit","tool_input":{"file_path":"/a.md","edits":[]}}',
      'tool_input.edits is not a non-empty list',
    ],
    [
      '{"tool_name":"MultiEdit","tool_input":{"file_path":"/a.md","edits":[{"old_string":"a","new_string":"b","replace_all":"yes"}]}}',
      'tool_input.edits[0].replace_all is not a boolean',
    ],
    ['{"tool_name":"Edit","tool_input":"x"}', 'tool_input is missing'],
  ])('%s → %s', (raw, problem) => {
    const r = parseHookInput(raw);
    expect(r.ok && r.input.inputProblem).toBe(problem);
  });
});

describe('install entries', () => {
  const entries = hookEntries('/usr/bin/node', '/opt/mem trust/lib/cli/memtrust.cjs');

  it('absolute, quoted where needed', () => {
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
    expect(entries.map((e) => e.command)).toEqual([
      "/usr/bin/node '/opt/mem trust/lib/cli/memtrust.cjs' context --format hook",
      "/usr/bin/node '/opt/mem trust/lib/cli/memtrust.cjs' hook pre-write",
      "/usr/bin/node '/opt/mem trust/lib/cli/memtrust.cjs' hook post-write",
    ]);
    expect(Object.keys(hooksBlock(entries))).toEqual(['SessionStart', 'PreToolUse', 'PostToolUse']);
  });

  it('merge keeps every other key and hook, is idempotent, updates a moved install', () => {
    const settings = {
      model: 'x',
      permissions: { allow: ['Bash(ls)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'bell' }] }],
      },
    };
    const once = mergeHooks(settings, entries);
    expect(once.changed).toBe(true);
    expect(once.next.model).toBe('x');
    expect(once.next.permissions).toEqual({ allow: ['Bash(ls)'] });
    const hooks = once.next.hooks as Record<string, unknown[]>;
    expect(hooks.Stop).toEqual(settings.hooks.Stop);
    expect(hooks.PreToolUse).toHaveLength(2);
    expect(hooks.PreToolUse![0]).toEqual(settings.hooks.PreToolUse[0]);
    for (const e of entries) expect(entryState(once.next, e)).toBe('installed');
    const twice = mergeHooks(once.next, entries);
    expect(twice.changed).toBe(false);
    expect(twice.next).toEqual(once.next);
    // The install moved: the same entries, new paths, no duplicates.
    const moved = hookEntries('/usr/local/bin/node', '/srv/memtrust/lib/cli/memtrust.cjs');
    expect(entryState(once.next, moved[1]!)).toBe('outdated');
    const again = mergeHooks(once.next, moved);
    expect((again.next.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2);
    for (const e of moved) expect(entryState(again.next, e)).toBe('installed');
    // The input object is never changed.
    expect(settings.hooks.PreToolUse).toHaveLength(1);
  });

  it('a hooks value of the wrong shape is an error, not a silent overwrite', () => {
    expect(() => mergeHooks({ hooks: [] }, entries)).toThrow('"hooks" in settings.json is not an object');
    expect(() => mergeHooks({ hooks: { PreToolUse: {} } }, entries)).toThrow('not a list');
  });
});
