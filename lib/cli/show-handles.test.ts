/**
 * Every handle `memtrust list` prints names the memory in `memtrust show` (#34): the id
 * `<source-id>:<filename>`, the key `<source-id>:<relPath>`, the relPath as the table
 * prints it, for a memory in memories/ and one in quarantine/. The commands run in this
 * process over a real root and a real SQLite index.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryFile, put, removeSandbox, sandbox, TEST_BODY, testFields, type Sandbox } from '../service/test-support';
import { readCommands } from './commands/read-cmds';
import type { Io } from './io';

let sb: Sandbox;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => void out.push(l), err: (l) => void err.push(l), isTTY: false };
  const code = await readCommands[args[0]!]!.run(args.slice(1), io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(() => {
  sb = sandbox('memtrust-show-handles-');
  for (const [k, v] of Object.entries(sb.env)) vi.stubEnv(k, v);
  put(sb.root, 'memories/feedback_tests.md', memoryFile(testFields([['trust-level', 'inferred']]), TEST_BODY));
  put(
    sb.root,
    'quarantine/feedback_old.md',
    memoryFile(
      [
        ['name', 'Old rule'],
        ['description', 'an old rule'],
        ['type', 'feedback'],
        ['trust-level', 'quarantined'],
        ['quarantined-at', '2026-11-01T00:00:00Z'],
      ],
      TEST_BODY,
    ),
  );
});

afterAll(() => {
  vi.unstubAllEnvs();
  removeSandbox(sb);
});

describe('show takes every handle list prints', () => {
  it('id, key and relPath, in memories/ and in quarantine/', async () => {
    const listed = await cli(['list', '--json']);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.out).items as { id: string; file: string; key: string }[];
    expect(items.map((i) => i.file).sort()).toEqual(['memories/feedback_tests.md', 'quarantine/feedback_old.md']);
    const table = await cli(['list']);
    for (const i of items) {
      const source = i.id.slice(0, i.id.indexOf(':'));
      expect(table.out).toContain(i.file);
      for (const handle of [i.id, `${source}:${i.file}`, i.file]) {
        const r = await cli(['show', '--json', handle]);
        expect({ handle, code: r.code, err: r.err }).toEqual({ handle, code: 0, err: '' });
        const shown = JSON.parse(r.out) as { id: string; relPath: string };
        expect(shown.id).toBe(i.id);
        expect(shown.relPath).toBe(i.file);
      }
      // history takes the id and the key alike.
      for (const handle of [i.id, `${source}:${i.file}`]) {
        const h = await cli(['history', '--json', handle]);
        expect({ handle, code: h.code, err: h.err }).toEqual({ handle, code: 0, err: '' });
      }
    }
  });

  it('a key that leaves its root, or names a root that is not configured, is refused, never a stack trace', async () => {
    const listed = JSON.parse((await cli(['list', '--json'])).out).items as { id: string }[];
    const source = listed[0]!.id.split(':')[0]!;
    const out = await cli(['show', `${source}:../../etc/feedback_tests.md`]);
    expect(out.code).toBe(2);
    expect(out.err).toMatch(/^memtrust show: .*not inside any configured root/);
    const other = await cli(['show', 'nosuchroot:feedback_tests.md']);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/^memtrust show: /);
    expect(path.isAbsolute(sb.root)).toBe(true);
  });
});
