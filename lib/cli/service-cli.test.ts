/** Service commands at the process level: option order, and an unusable index database. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, 'memtrust.cjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-svc-cli-'));
const root = path.join(tmp, 'root');
fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'memories', 'user_role.md'),
  '---\nname: Role\ndescription: backend engineer\ntype: user\ntrust-level: verified\nlast-verified: 2026-11-01\n---\n\nThe user is a backend engineer focused on observability.\n',
);

function cli(args: string[], extra: Record<string, string> = {}) {
  const env = {
    ...process.env,
    MEMTRUST_ROOT: '',
    MEMTRUST_DB: path.join(tmp, 'db.sqlite'),
    MEMTRUST_NOW: '2026-11-22T12:00:00Z',
    XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
    ...extra,
  };
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('service commands', () => {
  it('accept --root before the command', () => {
    const r = cli(['--root', root, 'list', '--tier', 'verified']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('memories/user_role.md');
  });

  it('name a root that does not exist, and list what the other roots hold (exit 0: not refused)', () => {
    const missing = path.join(tmp, 'no-such-root');
    const r = cli(['--root', missing, 'list']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`memtrust: ${missing}: root not found\n`);
    expect(r.out).toContain('no memories match');
    const both = cli(['--root', missing, '--root', root, 'list', '--tier', 'verified']);
    expect(both.code).toBe(0);
    expect(both.err).toBe(`memtrust: ${missing}: root not found\n`);
    expect(both.out).toContain('memories/user_role.md');
  });

  it('report an index database that cannot be opened in one line, exit 1', () => {
    const r = cli(['--root', root, 'list'], { MEMTRUST_DB: path.join(root, 'memories', 'user_role.md', 'db.sqlite') });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^memtrust: cannot open the index database .*MEMTRUST_DB/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
