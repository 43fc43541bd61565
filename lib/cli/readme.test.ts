/**
 * README commands work verbatim on a fresh clone (issue 9 item 9): every `npx memtrust`
 * line of the README's `sh` blocks runs against a temporary home whose
 * `~/.claude/claude-memory` is the default root, and none fails as usage or as an
 * unexpected error. The synopsis block names only commands `--help` knows, and `npx
 * memtrust` itself resolves to this package without the network.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, NOW, PROJECT, memoryFile, put } from '../service/test-support';

const README = fs.readFileSync(path.join(PROJECT, 'README.md'), 'utf8');

function blocks(lang: string): string[][] {
  const out: string[][] = [];
  const re = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm');
  for (const m of README.matchAll(re)) out.push(m[1]!.split('\n').filter((l) => l.trim() !== ''));
  return out;
}

/** A shell line without its trailing `# comment`. */
const command = (line: string) => line.replace(/\s{2,}#.*$/, '').trim();
const cliLines = blocks('sh')
  .flat()
  .map(command)
  .filter((l) => /\bmemtrust\b/.test(l) && !/\bnpm (start|test|install)\b/.test(l));

let home: string;
let env: NodeJS.ProcessEnv;
const BODY =
  '\nNever merge a pull request while a required check is red.\n\n**Why:** a red main blocked every team for a day.\n\n**How to apply:** wait for green, or fix the check first.\n';

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-readme-'));
  const root = path.join(home, '.claude', 'claude-memory');
  put(
    root,
    'memories/feedback_ci_merge.md',
    memoryFile(
      [
        ['name', 'CI merge policy'],
        ['description', 'never merge on red'],
        ['type', 'feedback'],
        ['created-at', '2026-10-01T09:00:00Z'],
      ],
      BODY,
    ),
  );
  put(
    root,
    'memories/project_release_notes.md',
    memoryFile(
      [
        ['name', 'Release notes'],
        ['description', 'where notes live'],
        ['type', 'project'],
        ['trust-level', 'verified'],
        ['last-verified', '2026-06-01'],
        ['created-at', '2026-05-01'],
        ['source-machine', 'laptop'],
      ],
      BODY,
    ),
  );
  const base: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMTRUST_')) base[k] = v;
  env = {
    ...base,
    HOME: home,
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    MEMTRUST_NOW: NOW,
    OWNER_EMAILS: 'owner@example.com',
    OWNER_HOME_USER: 'owner',
  } as unknown as NodeJS.ProcessEnv;
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('README command lines', () => {
  it('the README shows CLI lines, each as `npx memtrust …`', () => {
    expect(cliLines.length).toBeGreaterThanOrEqual(8);
    for (const l of cliLines) expect(l, l).toMatch(/^npx memtrust /);
  });

  it.each(cliLines)('%s', (line) => {
    // The clone's launcher stands in for npx's resolution (checked once below): same file.
    const shell = line.replace(/^npx memtrust /, `"${process.execPath}" "${CLI}" `);
    const r = spawnSync('/bin/sh', ['-c', shell], { env, cwd: PROJECT, encoding: 'utf8', timeout: 60_000 });
    const said = `${r.stdout}\n${r.stderr}`;
    expect(r.status, `${line}\n${said}`).not.toBeNull();
    expect(r.status, `${line}\n${said}`).not.toBe(64);
    expect(r.status, `${line}\n${said}`).not.toBe(1);
    expect(r.stderr).not.toMatch(/unknown command|unexpected error|^usage:/m);
  });

  it('the synopsis names only commands --help knows', () => {
    const help = spawnSync(process.execPath, [CLI, '--help'], { env, cwd: PROJECT, encoding: 'utf8' }).stdout;
    const synopsis = blocks('text').find((b) => b.some((l) => l.includes('--all DIR')));
    expect(synopsis).toBeDefined();
    const words = synopsis!
      .flatMap((l) => l.split(/\s{2,}/))
      .map((s) => s.trim().split(' ')[0]!)
      .flatMap((w) => w.split('|'));
    for (const w of words) expect(help, w).toMatch(new RegExp(`(^|\\n)\\s+(\\S+\\|)*${w}(\\||\\s)`));
  });

  it('`npx memtrust` resolves to this package offline', () => {
    const r = spawnSync('npx', ['memtrust', '--help'], {
      cwd: PROJECT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('usage: memtrust <command>');
  }, 130_000);
});
