/**
 * The pre-write hook's time per call, process start included (target < 150 ms,
 * docs/hooks.md), beside a bare `node -e 0` start measured in the same run.
 * Cases: a clean Write of a new memory, an Edit of an existing one, and a write outside
 * every root (the common case: most writes are not memories); and the plugin's stamp
 * (dist/hooks/post-write.cjs) after that write outside the roots, which follows every
 * assistant write as the guard precedes it. Interleaved, so load changes hit every series
 * alike. Prints numbers; always exits 0.
 *
 * Each case runs through the CLI (`memtrust hook pre-write`, settings-file hooks) and through
 * the plugin's guard (dist/hooks/pre-write.cjs); with --baseline REV, also the plugin guard
 * as committed at REV, side by side.
 *
 *   npx tsx bench/hook.ts [--reps 20] [--baseline REV]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BENCH_NOW,
  CLI,
  cliEnv,
  flags,
  fmtMs,
  intFlag,
  machineLine,
  median,
  note,
  percentile,
  table,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), { reps: '20', baseline: '' });
const reps = intFlag(f, 'reps');
const TARGET_MS = 150;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-hook-'));
const root = path.join(tmp, 'root');
fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
const existing = path.join(root, 'memories', 'user_deploy_host.md');
fs.writeFileSync(
  existing,
  `---\nname: deploy host\ndescription: where the owner deploys\ntype: user\ntrust-level: verified\ncreated-at: 2026-01-10T09:00:00Z\nlast-verified: 2026-11-01\nsource-machine: laptop\n---\nThe deploy host runs the release script at night.\n${'A line of ordinary notes about the release and its checks.\n'.repeat(40)}`,
);

const env = cliEnv({
  MEMTRUST_ROOT: root,
  MEMTRUST_DB: path.join(tmp, 'index.sqlite'),
  MEMTRUST_NOW: BENCH_NOW,
  XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
  OWNER_EMAILS: 'owner@example.com',
  OWNER_HOME_USER: 'owner',
});

const hookJson = (tool: string, input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 'bench',
    cwd: tmp,
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_use_id: 'toolu_bench',
    tool_input: input,
  });
const cases: [string, string][] = [
  [
    'Write, new memory',
    hookJson('Write', {
      file_path: path.join(root, 'memories', 'feedback_bench.md'),
      content:
        '---\nname: bench note\ndescription: a note written by the bench\ntype: feedback\n---\nKeep the bench quiet while it runs.\n**Why:** numbers.\n**How to apply:** always.\n',
    }),
  ],
  [
    'Edit, existing memory',
    hookJson('Edit', {
      file_path: existing,
      old_string: 'release script',
      new_string: 'release script (v2)',
      replace_all: false,
    }),
  ],
  [
    'Write, outside the roots',
    hookJson('Write', { file_path: path.join(tmp, 'src', 'index.ts'), content: 'export {};\n' }),
  ],
];

/** GNU time, when present, also gives the child's CPU time: far less sensitive to a busy machine than wall time. */
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpu = new Map<string, number[]>();

function once(args: string[], input?: string, series?: string): number {
  const cmd = TIME ?? process.execPath;
  const argv = TIME ? ['-f', 'MEMTRUST_CPU %U %S', process.execPath, ...args] : args;
  const t = performance.now();
  const r = spawnSync(cmd, argv, { input, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  const err = String(r.stderr);
  const m = /MEMTRUST_CPU ([\d.]+) ([\d.]+)/.exec(err);
  if (m && series) cpu.set(series, [...(cpu.get(series) ?? []), (Number(m[1]) + Number(m[2])) * 1000]);
  if (r.status !== 0)
    note(`warning: ${args.join(' ')} exited ${r.status}: ${err.replace(/MEMTRUST_CPU.*/, '').trim()}`);
  return ms;
}

/** The plugin guard's files as committed at `rev`, in a folder of their own. */
function guardAt(rev: string): string {
  const dir = path.join(tmp, `guard-${rev.replace(/[^\w.-]/g, '_')}`);
  fs.mkdirSync(dir, { recursive: true });
  const names = execFileSync('git', ['ls-tree', '--name-only', rev, 'dist/hooks/'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const n of names)
    fs.writeFileSync(path.join(dir, path.basename(n)), execFileSync('git', ['show', `${rev}:${n}`]));
  return path.join(dir, 'pre-write.cjs');
}

const runners: [string, string[]][] = [
  ['cli', [CLI, 'hook', 'pre-write']],
  ['plugin', [path.join(path.dirname(CLI), '..', '..', 'dist', 'hooks', 'pre-write.cjs')]],
];
if (f.baseline) runners.push([`plugin @${f.baseline}`, [guardAt(f.baseline)]]);

/** The plugin's stamp after the write outside the roots: [series, argv, input]. */
const outsidePost = hookJson('Write', {
  file_path: path.join(tmp, 'src', 'index.ts'),
  content: 'export {};\n',
}).replace('"PreToolUse"', '"PostToolUse"');
const stamps: [string, string[], string][] = runners
  .filter(([r]) => r !== 'cli')
  .map(([r, args]) => [
    `PostToolUse after a write outside the roots, ${r}`,
    [path.join(path.dirname(args[0]!), 'post-write.cjs')],
    outsidePost,
  ]);

// Warm-up: builds the hook bundle if needed and fills the page cache.
for (const [, json] of cases) for (const [, args] of runners) once(args, json);
for (const [, args, json] of stamps) once(args, json);
once(['-e', '0']);

const series = new Map<string, number[]>([['node -e 0 (floor)', []]]);
for (const [n] of cases) for (const [r] of runners) series.set(`${n}, ${r}`, []);
for (const [n] of stamps) series.set(n, []);
for (let i = 0; i < reps; i++) {
  series.get('node -e 0 (floor)')!.push(once(['-e', '0'], undefined, 'node -e 0 (floor)'));
  for (const [name, json] of cases)
    for (const [r, args] of runners) series.get(`${name}, ${r}`)!.push(once(args, json, `${name}, ${r}`));
  for (const [name, args, json] of stamps) series.get(name)!.push(once(args, json, name));
  if ((i + 1) % 5 === 0) note(`${i + 1}/${reps}`);
}

const floor = median(series.get('node -e 0 (floor)')!);
const cpuFloor = cpu.has('node -e 0 (floor)') ? median(cpu.get('node -e 0 (floor)')!) : null;
const rows = [['series', 'wall median', 'wall p90', 'minus floor', 'cpu median', 'cpu minus floor', 'target', '']];
for (const [name, xs] of series) {
  const m = median(xs);
  const isFloor = name.startsWith('node');
  const c = cpu.has(name) ? median(cpu.get(name)!) : null;
  rows.push([
    name,
    fmtMs(m),
    fmtMs(percentile(xs, 90)),
    isFloor ? '' : fmtMs(m - floor),
    c === null ? 'n/a' : fmtMs(c),
    c === null || cpuFloor === null || isFloor ? '' : fmtMs(c - cpuFloor),
    isFloor ? '' : `< ${TARGET_MS} ms`,
    isFloor ? '' : verdict(m < TARGET_MS),
  ]);
}
console.log(`memtrust hook pre-write (and the plugin's post-write), ${reps} calls per series, process start included`);
console.log(machineLine());
console.log(table(rows));
console.log(
  'wall = process start to exit, as Claude Code waits for it; cpu = user+sys of the child (GNU time, 10 ms resolution), which a busy machine inflates far less.',
);
fs.rmSync(tmp, { recursive: true, force: true });
