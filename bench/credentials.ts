/**
 * Credential detection quality and validator throughput (docs/credentials.md).
 *
 *   npx tsx bench/credentials.ts [--reps 5] [--demo 5000] [--baseline c7a7932]
 *
 * Prints, in one run:
 *   (a) precision and recall per class (credential, personal) and false
 *       credential findings per 200 clean files, on the labelled corpus
 *       (lib/validators/corpus: the tuning set and the held-out set);
 *   (b) files/s of secret-check + injection-check, today's code beside the
 *       baseline (the validators as of --baseline, extracted with `git archive`
 *       into bench/.out and run in this same process over the same bytes), on
 *       the corpus and on --demo generated demo memories. Best of --reps, and
 *       for the bundled rows each side's best over --procs fresh processes: a
 *       process sometimes settles into a mode about 30 % slower for one side
 *       (docs/performance-validators.md, "Measuring throughput").
 * Targets: credential recall ≥ 95 %, ≤ 1 false credential finding per 200 clean
 * files, throughput no lower than the baseline's. Exit 0 always; PASS/MISS per target.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildCorpus } from '../lib/validators/corpus/build';
import { scoreCorpus, type CorpusScore } from '../lib/validators/corpus/evaluate';
import { secretCheck } from '../lib/validators/secrets';
import { injectionCheck } from '../lib/validators/injection';
import { runSecretAndInjection } from '../lib/validators/secret-and-injection';
import { runAllChecks } from '../lib/validators/run';
import { validate } from '../lib/validators/validate';
import { generateCorpus, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import type { OwnerIdentity } from '../lib/validators/types';
import { type Checks, checkCommit, loadBundledValidators, loadValidators } from './baseline';
import { BENCH_NOW, BENCH_SEED, flags, fmtRate, intFlag, machineLine, note, table, verdict } from './common';

const f = flags(process.argv.slice(2), { reps: '5', demo: '5000', baseline: 'c7a7932', procs: '3', child: 'no' });
const REPS = intFlag(f, 'reps');
const DEMO = intFlag(f, 'demo');
const BASELINE = checkCommit(f.baseline!);
const PROCS = intFlag(f, 'procs');
/** Set in the processes (b) starts: measure the bundled rows only and print them as JSON. */
const CHILD = f.child === 'yes';

const owner: OwnerIdentity = { emails: ['owner@example.org', DEFAULT_OWNER_EMAIL], homeUser: 'owner' };

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function scoreRows(name: string, s: CorpusScore): string[][] {
  return (['credential', 'personal'] as const).map((c) => [
    `${name}: ${c}`,
    String(s[c].labels),
    String(s[c].truePositives),
    String(s[c].falsePositives),
    String(s[c].misses),
    pct(s[c].precision),
    pct(s[c].recall),
  ]);
}

/**
 * Best-of-reps CPU time (user + system of this process) of running `fn` over
 * every buffer. CPU time rather than wall time: on a shared machine other
 * processes' load inflates wall time by up to 3× between reps.
 */
function bestMs(bufs: Array<{ name: string; bytes: Buffer }>, fn: (b: Buffer, name: string) => void): number {
  let best = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t = process.cpuUsage();
    for (const b of bufs) fn(b.bytes, b.name);
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

/** The buffers (b) runs over: --demo demo memories, then the corpus, as {label, bufs}. */
function throughputSamples(): Array<{ label: string; bufs: Array<{ name: string; bytes: Buffer }> }> {
  const demo = generateCorpus({ n: Math.ceil(DEMO / 0.8) + 50, seed: BENCH_SEED, now: new Date(BENCH_NOW) })
    .files.filter((x) => x.relPath.startsWith('memories/'))
    .slice(0, DEMO)
    .map((x) => ({ name: path.basename(x.relPath), bytes: Buffer.from(x.content) }));
  const corpus = [
    ...buildCorpus({ set: 'tuning', positiveFiles: 300, cleanFiles: 400 }),
    ...buildCorpus({ set: 'holdout', positiveFiles: 120, cleanFiles: 200 }),
  ].map((x) => ({ name: x.name, bytes: Buffer.from(x.text) }));
  return [
    { label: `demo memories (${demo.length})`, bufs: demo },
    { label: `credentials corpus (${corpus.length})`, bufs: corpus },
  ];
}

const now: Checks = {
  secret: secretCheck,
  injection: injectionCheck,
  validate,
  secretAndInjection: runSecretAndInjection,
  allChecks: runAllChecks,
};

interface Timed {
  label: string;
  what: string;
  files: number;
  /** Best CPU ms of the baseline and of today over the same files. */
  bms: number;
  tms: number;
}

/** Both sides over each sample, alternating rep by rep so a load spike hits both. */
function throughput(baseSide: Checks, todaySide: Checks): Timed[] {
  const out: Timed[] = [];
  for (const { label, bufs } of throughputSamples()) {
    // Warm both JITs before timing.
    for (const c of [baseSide, todaySide]) {
      for (const b of bufs.slice(0, 300)) {
        c.secret(b.bytes, owner);
        c.injection(b.bytes);
        c.secretAndInjection?.(b.bytes, owner);
      }
    }
    // Each side runs the checks through its product's own entry point where it has one
    // (validators/run.ts, secret-and-injection.ts: one decode for both scanners), else one call each.
    const pairs: Array<[string, (c: Checks) => (b: Buffer, n: string) => void]> = [
      [
        'secret + injection',
        (c) => {
          const both = c.secretAndInjection;
          if (both) return (b) => void both(b, owner);
          return (b) => {
            c.secret(b, owner);
            c.injection(b);
          };
        },
      ],
      [
        'all three',
        (c) => {
          const all = c.allChecks;
          if (all) return (b, n) => void all(b, n, owner);
          return (b, n) => {
            c.validate(b, n);
            c.secret(b, owner);
            c.injection(b);
          };
        },
      ],
    ];
    for (const [what, fn] of pairs) {
      let bms = Infinity;
      let tms = Infinity;
      for (let k = 0; k < 2; k++) {
        bms = Math.min(bms, bestMs(bufs, fn(baseSide)));
        tms = Math.min(tms, bestMs(bufs, fn(todaySide)));
      }
      out.push({ label, what, files: bufs.length, bms, tms });
    }
  }
  return out;
}

function throughputRows(timed: readonly Timed[]): string[][] {
  return [
    ['files', 'checks', 'baseline', 'today', 'today ÷ baseline'],
    ...timed.map((t) => [
      t.label,
      t.what,
      fmtRate(t.files, t.bms),
      fmtRate(t.files, t.tms),
      `${(t.bms / t.tms).toFixed(2)}×`,
    ]),
  ];
}

/**
 * The bundled rows, measured in PROCS fresh processes: each side's best over all of them.
 * Within one process the best of the reps cannot escape a slow mode that process settled in.
 */
function bundledAcrossProcesses(): Timed[] {
  const runs: Timed[][] = [];
  for (let p = 0; p < PROCS; p++) {
    note(`(b) process ${p + 1} of ${PROCS}…`);
    const r = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1]!,
        ...['--child', 'yes', '--reps', String(REPS), '--demo', String(DEMO), '--baseline', BASELINE],
      ],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (r.status !== 0) throw new Error(`a (b) process failed (exit ${r.status ?? r.signal})`);
    runs.push(JSON.parse(r.stdout) as Timed[]);
  }
  return runs[0]!.map((row, i) => ({
    ...row,
    bms: Math.min(...runs.map((run) => run[i]!.bms)),
    tms: Math.min(...runs.map((run) => run[i]!.tms)),
  }));
}

async function main(): Promise<void> {
  if (CHILD) {
    process.stdout.write(JSON.stringify(throughput(loadBundledValidators(BASELINE), loadBundledValidators('today'))));
    return;
  }
  console.log(`bench/credentials.ts — ${machineLine()}`);
  console.log(`baseline: the validators as of commit ${BASELINE}\n`);

  // (a) Quality on the labelled corpus.
  const tuning = buildCorpus({ set: 'tuning', positiveFiles: 300, cleanFiles: 400 });
  const holdout = buildCorpus({ set: 'holdout', positiveFiles: 120, cleanFiles: 200 });
  const st = scoreCorpus(tuning, owner);
  const sh = scoreCorpus(holdout, owner);
  const base = await loadValidators(BASELINE);
  // The baseline scored the same way: what secret-check found before this work.
  const baselineScore = (files: typeof tuning) => {
    let tp = 0;
    let labels = 0;
    let cleanFalse = 0;
    let clean = 0;
    for (const file of files) {
      const found = base
        .secret(Buffer.from(file.text), owner)
        .findings.filter(
          (x) => x.class !== 'personal' && !['secret.private-ip', 'secret.email', 'secret.home-path'].includes(x.code),
        );
      const lines = new Set(found.map((x) => x.line));
      const credLabels = file.labels.filter((l) => l.class === 'credential');
      labels += credLabels.length;
      // Line-level for the baseline (it has no value spans): a label counts when its line has a credential finding.
      for (const l of credLabels) {
        const idx = file.text.indexOf(l.value);
        const line = file.text.slice(0, idx).split('\n').length;
        if (lines.has(line)) tp++;
      }
      if (file.clean) {
        clean++;
        cleanFalse += found.length;
      }
    }
    return { recall: labels ? tp / labels : 1, per200: clean ? (cleanFalse / clean) * 200 : 0 };
  };
  const bt = baselineScore(tuning);
  const bh = baselineScore(holdout);

  console.log('(a) detection on the labelled corpus (lib/validators/corpus)');
  console.log(
    table([
      ['set: class', 'labels', 'found', 'false', 'missed', 'precision', 'recall'],
      ...scoreRows(`tuning (${tuning.length} files)`, st),
      ...scoreRows(`held-out (${holdout.length} files)`, sh),
    ]),
  );
  console.log('');
  console.log(
    table([
      [
        'set',
        'false credential findings / 200 clean files',
        'baseline recall (line level)',
        'baseline false / 200 clean',
      ],
      [
        `tuning (${st.cleanFiles} clean)`,
        st.falseCredentialPer200Clean.toFixed(2),
        pct(bt.recall),
        bt.per200.toFixed(2),
      ],
      [
        `held-out (${sh.cleanFiles} clean)`,
        sh.falseCredentialPer200Clean.toFixed(2),
        pct(bh.recall),
        bh.per200.toFixed(2),
      ],
    ]),
  );
  if (st.missed.length + sh.missed.length > 0) {
    console.log(`missed forms: ${[...new Set([...st.missed, ...sh.missed].map((m) => m.form))].join(', ')}`);
  }

  // (b) Throughput, same bytes, baseline beside today's code.
  const shipped = bundledAcrossProcesses();
  console.log(
    `\n(b) validator throughput as the CLI runs them (esbuild bundles), in-process, CPU time, each side's best of 2 × ${REPS} reps in each of ${PROCS} processes`,
  );
  console.log(table(throughputRows(shipped)));
  const viaTsx = throughput(base, now);
  console.log(
    `\n(b′) the same through tsx, in this process (its keepNames costs every named closure a call; diagnostic)`,
  );
  console.log(table(throughputRows(viaTsx)));
  const ratios = shipped.map((t) => t.bms / t.tms);

  const recall = Math.min(st.credential.recall, sh.credential.recall);
  const fp = Math.max(st.falseCredentialPer200Clean, sh.falseCredentialPer200Clean);
  const slowest = Math.min(...ratios);
  console.log('\ntargets');
  console.log(
    table([
      ['target', 'value', ''],
      ['credential recall ≥ 95 % (both sets)', pct(recall), verdict(recall >= 0.95)],
      ['≤ 1 false credential finding / 200 clean files', fp.toFixed(2), verdict(fp <= 1)],
      [
        'throughput no lower than the baseline (today ÷ baseline ≥ 1, worst row of (b))',
        `${slowest.toFixed(2)}×`,
        verdict(slowest >= 1),
      ],
    ]),
  );
}

void main();
