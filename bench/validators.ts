/**
 * Validator throughput through the real CLI, beside the floor of reading the same
 * bytes in Node.
 *
 *   npx tsx bench/validators.ts [--n 10000] [--reps 3] [--single 10] [--keep yes]
 *
 * Writes N generated memory files (the `memories/` part of a generateCorpus root,
 * exactly N of them) into a temp dir, then measures in one run:
 *   (a) floor: readdir + fs.readFileSync of every file in this process, best of 3;
 *   (b) `memtrust validate|secret-check|injection-check --all DIR`, wall time each
 *       (median of --reps), and their total;
 *   (c) `memtrust validate FILE`, median wall of --single runs;
 *   (d) in one warm process, read every file and run the three validators on it (what the
 *       index and the hooks pay per file), best of 3 like the floor.
 * The ≤ 3× target is printed for (d) and for (b): (b) also pays three process start-ups and
 * three cold compilations of the validators (docs/performance.md, the targets table).
 * Diagnostics (no target): CLI start-up (`memtrust validate --all EMPTY_DIR`), bare
 * `node -e 0`, the read floor as a separate Node process, and the three validators
 * in-process over the same bytes, which split (b) into start-up, per-file work and
 * output.
 * Exit 0 always; PASS/MISS per target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateCorpus, writeCorpus, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { runCheck, CHECK_COMMANDS, type CheckCommand } from '../lib/validators/run';
import { ownerIdentity } from '../lib/core/identity';
import {
  BENCH_NOW,
  BENCH_SEED,
  cliEnv,
  flags,
  fmtMs,
  fmtRate,
  intFlag,
  machineLine,
  median,
  note,
  runCli,
  table,
  timeMs,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), { n: '10000', reps: '3', single: '10', keep: 'no' });
const N = intFlag(f, 'n');
const REPS = intFlag(f, 'reps');
const SINGLE = intFlag(f, 'single');

const TARGET_RATIO = 3;
const TARGET_SINGLE_MS = 300;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-validators-'));
const dir = path.join(tmp, 'memories');
const env = cliEnv({ OWNER_EMAILS: DEFAULT_OWNER_EMAIL, XDG_CONFIG_HOME: path.join(tmp, 'config') });

function generate(): void {
  // memories/ is ~82 % of a root: generate enough, keep the first N that live there.
  const t = performance.now();
  const corpus = generateCorpus({ n: Math.ceil(N / 0.8) + 50, seed: BENCH_SEED, now: new Date(BENCH_NOW) });
  const files = corpus.files.filter((x) => x.relPath.startsWith('memories/')).slice(0, N);
  if (files.length < N) throw new Error(`generated only ${files.length} memories/ files`);
  const stats = writeCorpus(tmp, { files, auditLines: [] });
  note(
    `generated ${stats.files} files (${(stats.bytes / 1024 / 1024).toFixed(1)} MiB) in ${dir} in ${fmtMs(performance.now() - t)}`,
  );
}

function listDir(): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')
    .map((n) => path.join(dir, n));
}

/** The floor: what any tool must do to look at every byte once. */
function readFloor(): { ms: number; bytes: number } {
  let bytes = 0;
  const { ms } = timeMs(() => {
    for (const file of listDir()) bytes += fs.readFileSync(file).length;
  });
  return { ms, bytes };
}

function main(): void {
  generate();
  const files = listDir();
  // Warm the page cache and the CLI's bundle cache so every measurement sees the same state.
  readFloor();
  const empty = path.join(tmp, 'empty');
  fs.mkdirSync(empty);
  runCli(['validate', '--all', empty], env, tmp);

  const floors = [readFloor(), readFloor(), readFloor()];
  const floor = Math.min(...floors.map((x) => x.ms));
  const totalBytes = floors[0]!.bytes;
  note(`read floor: ${floors.map((x) => fmtMs(x.ms)).join(', ')} → best ${fmtMs(floor)}`);

  const walls: Record<CheckCommand, number[]> = { validate: [], 'secret-check': [], 'injection-check': [] };
  const summaries: Record<string, string> = {};
  for (let rep = 0; rep < REPS; rep++) {
    for (const cmd of CHECK_COMMANDS) {
      const r = runCli([cmd, '--all', dir], env, tmp);
      if (!r.lastLine.startsWith(`Summary: ${N} files`)) {
        note(`!! ${cmd} --all: unexpected output (exit ${r.status}): ${r.lastLine} ${r.stderr.slice(0, 300)}`);
      }
      summaries[cmd] = `${r.lastLine} (exit ${r.status})`;
      walls[cmd].push(r.ms);
      note(`${cmd} --all rep ${rep + 1}: ${fmtMs(r.ms)}`);
    }
  }
  const med = Object.fromEntries(CHECK_COMMANDS.map((c) => [c, median(walls[c])])) as Record<CheckCommand, number>;
  const total = med.validate + med['secret-check'] + med['injection-check'];
  const ratio = total / floor;

  // A PASS file with a typical size for the single-file run.
  const single = files.find((x) => x.includes('user_')) ?? files[0]!;
  const singleRuns: number[] = [];
  for (let i = 0; i < SINGLE; i++) singleRuns.push(runCli(['validate', single], env, tmp).ms);
  const singleMed = median(singleRuns);

  // Diagnostics: where a CLI run's time goes.
  const startupRuns: number[] = [];
  const nodeRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    startupRuns.push(runCli(['validate', '--all', empty], env, tmp).ms);
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    nodeRuns.push(performance.now() - t);
  }
  // The read floor as its own process: what a separate tool pays before any check.
  const script = `const fs=require('fs'),p=require('path');const d=${JSON.stringify(dir)};let n=0;for(const f of fs.readdirSync(d))if(f.endsWith('.md'))n+=fs.readFileSync(p.join(d,f)).length;`;
  const procFloorRuns = [0, 1, 2].map(
    () => timeMs(() => spawnSync(process.execPath, ['-e', script], { stdio: 'ignore' })).ms,
  );
  const procFloor = Math.min(...procFloorRuns);

  const bytes = files.map((x) => ({ name: path.basename(x), b: fs.readFileSync(x) }));
  const owner = ownerIdentity(env);
  const inproc: Record<string, number> = {};
  for (const cmd of CHECK_COMMANDS) {
    for (const { name, b } of bytes.slice(0, 500)) runCheck(cmd, b, name, owner); // warm-up
    const reps = [0, 1, 2].map(
      () =>
        timeMs(() => {
          for (const { name, b } of bytes) runCheck(cmd, b, name, owner);
        }).ms,
    );
    inproc[cmd] = median(reps);
  }

  // (d) What the index and the hooks pay per file: read it, run the three checks, in one warm
  // process. Beside the floor of reading alone, measured the same way (best of 3).
  const readAndCheck = () => {
    for (const file of listDir()) {
      const b = fs.readFileSync(file);
      const name = path.basename(file);
      for (const cmd of CHECK_COMMANDS) runCheck(cmd, b, name, owner);
    }
  };
  readAndCheck(); // warm-up
  const oneProcRuns = [0, 1, 2].map(() => timeMs(readAndCheck).ms);
  const oneProc = Math.min(...oneProcRuns); // best of 3, like the floor
  const oneProcRatio = oneProc / floor;

  const out: string[] = [];
  out.push(`memtrust validators benchmark — ${new Date().toISOString()}`);
  out.push(`machine: ${machineLine()}`);
  out.push(
    `corpus: ${N} files, ${(totalBytes / 1024 / 1024).toFixed(2)} MiB (${Math.round(totalBytes / N)} B/file), generateCorpus seed ${BENCH_SEED}, memories/ only`,
  );
  out.push(`walls are medians of ${REPS} runs (single-file: ${SINGLE}); the floor is the best of 3`);
  out.push('');
  out.push(
    table([
      ['measurement', 'wall', 'throughput'],
      ['(a) floor: readdir + readFileSync, in-process', fmtMs(floor), fmtRate(N, floor)],
      ['(b) memtrust validate --all DIR', fmtMs(med.validate), fmtRate(N, med.validate)],
      ['(b) memtrust secret-check --all DIR', fmtMs(med['secret-check']), fmtRate(N, med['secret-check'])],
      ['(b) memtrust injection-check --all DIR', fmtMs(med['injection-check']), fmtRate(N, med['injection-check'])],
      ['(b) three validators together', fmtMs(total), fmtRate(N, total)],
      ['(c) memtrust validate FILE (single)', fmtMs(singleMed), '—'],
      ['(d) read + three validators, one warm process', fmtMs(oneProc), fmtRate(N, oneProc)],
    ]),
  );
  out.push('');
  out.push('reference bash validate.sh --all: ~24 files/s on this machine (quoted from the issue)');
  out.push(`  → memtrust validate --all is ~${Math.round(N / (med.validate / 1000) / 24)}× the reference's throughput`);
  out.push('');
  const altRatio = total / (3 * procFloor);
  out.push(
    table([
      ['target', 'measured', 'target', 'result'],
      [
        '(d) read + three validators in one process ÷ read floor',
        `${oneProcRatio.toFixed(1)}×`,
        `≤ ${TARGET_RATIO}×`,
        verdict(oneProcRatio <= TARGET_RATIO),
      ],
      [
        '(b) three CLI runs (--all) ÷ read floor',
        `${ratio.toFixed(1)}×`,
        `≤ ${TARGET_RATIO}×`,
        verdict(ratio <= TARGET_RATIO),
      ],
      [
        'single validate FILE wall',
        fmtMs(singleMed),
        `< ${TARGET_SINGLE_MS} ms`,
        verdict(singleMed < TARGET_SINGLE_MS),
      ],
      [
        '(info) three validators ÷ 3 × read floor as a process',
        `${altRatio.toFixed(1)}×`,
        `≤ ${TARGET_RATIO}×`,
        `${verdict(altRatio <= TARGET_RATIO)} (alt. reading)`,
      ],
    ]),
  );
  out.push('');
  out.push('diagnostics (no target):');
  out.push(`  node -e 0 (bare process start):           ${fmtMs(median(nodeRuns))}`);
  out.push(`  memtrust validate --all EMPTY_DIR (CLI start-up, no file): ${fmtMs(median(startupRuns))}`);
  for (const cmd of CHECK_COMMANDS) {
    const startup = median(startupRuns);
    out.push(
      `  ${cmd.padEnd(16)} in-process over the same bytes: ${fmtMs(inproc[cmd]!)} (${fmtRate(N, inproc[cmd]!)}); CLI wall − start-up − in-process ≈ ${fmtMs(Math.max(0, med[cmd] - startup - inproc[cmd]!))} (stat/read/format/print)`,
    );
  }
  const inprocTotal = inproc.validate! + inproc['secret-check']! + inproc['injection-check']!;
  out.push(
    `  three validators in-process (no start-up): ${fmtMs(inprocTotal)} = ${(inprocTotal / floor).toFixed(1)}× the floor`,
  );
  const startup3 = 3 * median(startupRuns);
  out.push(
    `  three CLI walls minus 3 × CLI start-up: ${fmtMs(Math.max(0, total - startup3))} = ${(Math.max(0, total - startup3) / floor).toFixed(1)}× the floor`,
  );
  out.push(
    `  read floor as a separate node process (start-up + readdir + read): ${fmtMs(procFloor)} (best of ${procFloorRuns.map(fmtMs).join(', ')}); three validators ÷ 3 such processes = ${(total / (3 * procFloor)).toFixed(1)}×`,
  );
  out.push(
    `  lower bound of the target ratio with today's start-up: 3 × ${fmtMs(median(startupRuns))} ÷ ${fmtMs(floor)} = ${(startup3 / floor).toFixed(1)}× before any file is read`,
  );
  out.push(`  single-file runs: ${singleRuns.map((x) => x.toFixed(0)).join(' ')} ms`);
  out.push('  summaries:');
  for (const cmd of CHECK_COMMANDS) out.push(`    ${cmd}: ${summaries[cmd]}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  main();
} catch (e) {
  process.stdout.write(`benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
} finally {
  if (f.keep === 'no') fs.rmSync(tmp, { recursive: true, force: true });
  else note(`kept ${tmp}`);
  process.exitCode = 0;
}
