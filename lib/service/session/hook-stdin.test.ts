/**
 * The SessionStart hook's stdin (docs/session-context.md, "One project": bounded in size and
 * time), read from fd 0 without `process.stdin` (docs/performance.md, "The hooks"): each kind
 * of fd 0 a hook can get, in a real child process, and that none of them loads Node's `net`
 * module (what `process.stdin` for a pipe or socket costs).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let tmp: string;
let driver: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-hook-stdin-'));
  const entry = path.join(tmp, 'driver.ts');
  fs.writeFileSync(
    entry,
    `import { readHookStdin } from ${JSON.stringify(path.join(__dirname, 'hook-stdin'))};
readHookStdin().then((text) =>
  // fd 1 directly: process.stdout for a pipe would load \`net\` itself.
  require('node:fs').writeSync(1, JSON.stringify({ text, net: process.moduleLoadList.includes('NativeModule net') })),
);
`,
  );
  driver = path.join(tmp, 'driver.cjs');
  const esbuild = await import('esbuild');
  esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: driver,
    logLevel: 'silent',
  });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const parse = (out: string) => JSON.parse(out) as { text: string; net: boolean };
const JSON_IN = '{"session_id":"s-1","cwd":"/x/my app","source":"startup"}';

describe('the SessionStart hook reads stdin without process.stdin', () => {
  it('a socket closed by the writer (how Claude Code, a Node.js program, hands it over): all of it', () => {
    const r = spawnSync(process.execPath, [driver], { input: JSON_IN, encoding: 'utf8' });
    expect(parse(r.stdout)).toEqual({ text: JSON_IN, net: false });
  });

  it('a file: all of it; /dev/null: nothing', () => {
    const file = path.join(tmp, 'in.json');
    fs.writeFileSync(file, JSON_IN);
    const fd = fs.openSync(file, 'r');
    try {
      const r = spawnSync(process.execPath, [driver], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      expect(parse(r.stdout)).toEqual({ text: JSON_IN, net: false });
    } finally {
      fs.closeSync(fd);
    }
    const none = spawnSync(process.execPath, [driver], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(parse(none.stdout)).toEqual({ text: '', net: false });
  });

  it('a pipe nobody closes: what arrived, after the wait, and the process ends', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [driver], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write('{"cwd":');
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(parse(out)).toEqual({ text: '{"cwd":', net: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
