/**
 * Write a generated corpus to a directory (benchmarks, manual testing).
 *   npx tsx lib/demo/cli.ts --out DIR [--n 1000] [--seed 1] [--now 2026-11-22T12:00:00Z]
 *                           [--machine NAME] [--owner-email ADDR] [--layout trust|claude-code]
 */
import * as fs from 'node:fs';
import { generateClaudeCodeFolder } from './claude-code';
import { generateCorpus } from './corpus';
import { writeCorpus } from './write';

const USAGE =
  'usage: tsx lib/demo/cli.ts --out DIR [--n N] [--seed S] [--now ISO] [--machine NAME] [--owner-email ADDR] [--layout trust|claude-code] [--force]';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(64);
}

function parse(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const known = new Set(['out', 'n', 'seed', 'now', 'machine', 'owner-email', 'layout', 'force', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) fail(`unexpected argument: ${a}`);
    const [k, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!known.has(k)) fail(`unknown flag: --${k}`);
    if (k === 'force' || k === 'help') out[k] = 'true';
    else out[k] = inline ?? argv[++i] ?? fail(`--${k} needs a value`);
  }
  return out;
}

const args = parse(process.argv.slice(2));
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.out) fail('--out is required');
const n = Number(args.n ?? '1000');
if (!Number.isInteger(n) || n < 0) fail(`--n must be a non-negative integer: ${args.n}`);
const seed = args.seed === undefined ? 1 : /^\d+$/.test(args.seed) ? Number(args.seed) : args.seed;
const now = new Date(args.now ?? process.env.MEMTRUST_NOW ?? '2026-11-22T12:00:00Z');
if (Number.isNaN(now.getTime())) fail(`--now is not a valid ISO 8601 date: ${args.now}`);
if (fs.existsSync(args.out) && fs.readdirSync(args.out).length > 0 && !args.force) {
  fail(`refusing to write into non-empty directory ${args.out} (use --force)`);
}

const t0 = performance.now();
const corpus =
  args.layout === 'claude-code'
    ? generateClaudeCodeFolder({ n, seed, now })
    : args.layout === undefined || args.layout === 'trust'
      ? generateCorpus({ n, seed, now, machine: args.machine, ownerEmail: args['owner-email'] })
      : fail(`unknown layout: ${args.layout}`);
const t1 = performance.now();
const stats = writeCorpus(args.out, corpus);
const t2 = performance.now();
process.stdout.write(
  `wrote ${stats.files} files (${stats.bytes} bytes), ${stats.auditEvents} audit events in ${stats.auditFiles} files to ${args.out}\n` +
    `generate ${(t1 - t0).toFixed(0)} ms, write ${(t2 - t1).toFixed(0)} ms\n`,
);
