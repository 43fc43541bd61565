/**
 * Transcripts for tests, in the shape Claude Code writes them (docs/origin.md "The
 * transcript format"): a summary line, user lines (text, or tool_result parts with a
 * `toolUseResult`), assistant lines streamed one content part each with `tool_use`,
 * sidechain lines, an unknown line type and, optionally, a last line cut short. The
 * conversation is invented for these tests.
 */
import fs from 'node:fs';
import path from 'node:path';

export const SESSION = '3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f';

export interface Builder {
  lines: string[];
  user(text: string): Builder;
  /** An assistant text part. */
  say(text: string): Builder;
  /** A tool call and its result. */
  tool(
    name: string,
    input: Record<string, unknown>,
    result?: string,
    opts?: { sidechain?: boolean; id?: string },
  ): Builder;
  raw(line: string): Builder;
  write(file: string, opts?: { truncateLast?: boolean }): string;
}

export function transcript(cwd: string, session = SESSION, start = Date.parse('2026-03-02T09:00:00Z')): Builder {
  let n = 0;
  let parent: string | null = null;
  let clock = start;
  const base = (type: string, sidechain = false) => {
    const uuid = `0000${(++n).toString(16).padStart(4, '0')}-aaaa-4bbb-8ccc-${n.toString().padStart(12, '0')}`;
    clock += 1000;
    const o = {
      parentUuid: parent,
      isSidechain: sidechain,
      userType: 'external',
      cwd,
      sessionId: session,
      version: '2.0.14',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: new Date(clock).toISOString(),
    };
    parent = uuid;
    return o;
  };
  const b: Builder = {
    lines: [
      JSON.stringify({
        type: 'summary',
        summary: 'Setting up the staging box',
        leafUuid: 'ffff0000-0000-4000-8000-000000000000',
      }),
    ],
    user(text) {
      b.lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: text } }));
      return b;
    },
    say(text) {
      b.lines.push(
        JSON.stringify({
          ...base('assistant'),
          requestId: `req_${n}`,
          message: {
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text }],
            stop_reason: null,
            usage: { input_tokens: 10, output_tokens: 5 },
          },
        }),
      );
      return b;
    },
    tool(name, input, result = 'ok', opts = {}) {
      const id = opts.id ?? `toolu_${String(n + 1).padStart(20, '0')}`;
      b.lines.push(
        JSON.stringify({
          ...base('assistant', opts.sidechain),
          requestId: `req_${n}`,
          message: {
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'tool_use', id, name, input }],
            stop_reason: 'tool_use',
          },
        }),
      );
      b.lines.push(
        JSON.stringify({
          ...base('user', opts.sidechain),
          message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: result }] },
          toolUseResult: { type: 'text', content: result },
        }),
      );
      return b;
    },
    raw(line) {
      b.lines.push(line);
      return b;
    },
    write(file, opts = {}) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      let text = `${b.lines.join('\n')}\n`;
      // A write cut off mid-line, as a crash or a copy in progress leaves it.
      if (opts.truncateLast)
        text +=
          '{"parentUuid":"x","type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_cut","name":"Write","input":{"file_path":"/cut.md","conte';
      fs.writeFileSync(file, text);
      return file;
    },
  };
  return b;
}
