/**
 * Audit page and report performance at scale.
 *
 *   npx tsx bench/report.ts [--n 100000] [--events 50000] [--requests 20] [--reports 3]
 *
 * A trust-model root of N memories (generateCorpus, seed 1, now 2026-11-22T12:00Z)
 * whose audit trail is cut to the newest E events (or topped up with synthetic
 * reaffirm events in `.memtrust/audit/bench-extra.jsonl`), cached in
 * bench/.out/report-n<N>-e<E>/. Then:
 *   (a) the real server (e2e/server.ts: guard + `next start`, needs `next build`),
 *       warm: GET /audit sequentially, p95 of the server time (request → last byte);
 *       /audit with filters, a deep page and /audit/charts for information;
 *   (b) `memtrust report --format html --out FILE` wall time (start-up, recovery,
 *       incremental scan, build, render, write), median of R runs.
 * Exit 0 always; PASS/MISS per target.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus, DEFAULT_MACHINE, DEFAULT_OWNER_EMAIL } from '../lib/demo';
import { startServer } from '../e2e/server';
import {
  BENCH_NOW,
  BENCH_SEED,
  PROJECT_DIR,
  cliEnv,
  flags,
  fmtMs,
  intFlag,
  machineLine,
  median,
  note,
  percentile,
  runCli,
  table,
  verdict,
} from './common';

const f = flags(process.argv.slice(2), { n: '100000', events: '50000', requests: '20', reports: '3' });
const N = intFlag(f, 'n');
const EVENTS = intFlag(f, 'events');
const REQUESTS = intFlag(f, 'requests');
const REPORTS = intFlag(f, 'reports');
const TARGET = { pageP95: 200, reportMs: 5000 };

const cacheDir = path.join(PROJECT_DIR, 'bench', '.out', `report-n${N}-e${EVENTS}`);
const root = path.join(cacheDir, 'root');
const state = path.join(cacheDir, 'state');
const env: Record<string, string> = {
  MEMTRUST_ROOT: root,
  MEMTRUST_DB: path.join(state, 'index.sqlite'),
  MEMTRUST_NOW: BENCH_NOW,
  MEMTRUST_MACHINE: DEFAULT_MACHINE,
  OWNER_EMAILS: DEFAULT_OWNER_EMAIL,
  XDG_CONFIG_HOME: path.join(state, 'config'),
  XDG_DATA_HOME: path.join(state, 'data'),
  GIT_CEILING_DIRECTORIES: cacheDir,
};

/** Newest E events of the generated trail, or all of them plus synthetic reaffirms up to E. */
function writeRoot(): number {
  const corpus = generateCorpus({
    n: N,
    seed: BENCH_SEED,
    now: new Date(BENCH_NOW),
    machine: DEFAULT_MACHINE,
    ownerEmail: DEFAULT_OWNER_EMAIL,
  });
  const lines = corpus.auditLines.flatMap((a) =>
    a.lines.map((l) => ({ at: (JSON.parse(l) as { at: string }).at, l, file: a.relPath })),
  );
  lines.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const keep = new Set(lines.slice(0, EVENTS).map((x) => x.l));
  corpus.auditLines = corpus.auditLines.map((a) => ({ relPath: a.relPath, lines: a.lines.filter((l) => keep.has(l)) }));
  const extra: string[] = [];
  const verified = corpus.files
    .filter((x) => x.relPath.startsWith('memories/'))
    .map((x) => x.relPath.slice('memories/'.length));
  for (let i = 0; keep.size + extra.length < EVENTS && verified.length; i++) {
    const at = new Date(Date.parse(BENCH_NOW) - ((i * 7919) % (365 * 86_400)) * 1000)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    extra.push(
      JSON.stringify({
        v: 1,
        id: `bench-${i}`,
        at,
        machine: 'bench-extra',
        actor: 'user:cli',
        action: 'reaffirm',
        memory: verified[i % verified.length],
        from: 'verified',
        to: 'verified',
        reason: null,
        findings: [],
        before_sha256: null,
        after_sha256: null,
        recovered: false,
      }),
    );
  }
  if (extra.length) corpus.auditLines.push({ relPath: '.memtrust/audit/bench-extra.jsonl', lines: extra });
  const stats = writeCorpus(root, corpus);
  return stats.auditEvents;
}

function ensureRoot(): void {
  const stampFile = path.join(cacheDir, 'stamp.json');
  const stamp = JSON.stringify({ n: N, events: EVENTS, seed: BENCH_SEED, now: BENCH_NOW, v: 1 });
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    note(`using cached root ${root}`);
    return;
  }
  note(`generating ${N} memories and ${EVENTS} audit events into ${root} (cached for later runs)…`);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const t = performance.now();
  const events = writeRoot();
  note(`  written in ${fmtMs(performance.now() - t)} (${events} events); indexing once…`);
  const r = runCli(['scan'], cliEnv(env), cacheDir);
  if (r.status !== 0) throw new Error(`scan failed: ${r.stderr}`);
  note(`  first scan ${fmtMs(r.ms)}`);
  fs.writeFileSync(stampFile, stamp);
}

async function timeGets(base: string, url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(base + url);
    await res.text();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  ensureRoot();
  const rows: string[][] = [['measurement', 'value', 'target', 'result']];
  const info: string[][] = [['information', 'p50', 'p95', 'max']];
  fs.mkdirSync(state, { recursive: true });
  const server = await startServer({ root, dir: state, now: BENCH_NOW, env: { ...env, NODE_ENV: 'production' } });
  try {
    await timeGets(server.baseURL, '/audit', 3); // warm: code paths, first scan, page cache of SQLite
    await timeGets(server.baseURL, '/audit/charts', 2);
    const page = await timeGets(server.baseURL, '/audit', REQUESTS);
    const p95 = percentile(page, 95);
    rows.push([
      `audit page warm, p95 of ${REQUESTS} GETs (server)`,
      fmtMs(p95),
      `< ${TARGET.pageP95} ms`,
      verdict(p95 < TARGET.pageP95),
    ]);
    for (const url of [
      '/audit?action=demote&actor=user%3Aweb',
      '/audit?type=user&page=40',
      '/audit/charts',
      '/report/html',
    ]) {
      const xs = await timeGets(server.baseURL, url, Math.max(5, REQUESTS >> 1));
      info.push([`GET ${url}`, fmtMs(median(xs)), fmtMs(percentile(xs, 95)), fmtMs(Math.max(...xs))]);
    }
    info.splice(1, 0, ['GET /audit', fmtMs(median(page)), fmtMs(p95), fmtMs(Math.max(...page))]);
  } finally {
    await server.stop();
  }
  const out = path.join(cacheDir, 'report.html');
  const runs = Array.from({ length: REPORTS }, () =>
    runCli(['report', '--format', 'html', '--out', out], cliEnv(env), cacheDir),
  );
  const bad = runs.find((r) => r.status !== 0);
  if (bad) throw new Error(`report failed: ${bad.stderr}`);
  const ms = median(runs.map((r) => r.ms));
  rows.push([
    `memtrust report --format html, median of ${REPORTS} (wall)`,
    fmtMs(ms),
    `< ${TARGET.reportMs / 1000} s`,
    verdict(ms < TARGET.reportMs),
  ]);
  const help = runCli(['--help'], cliEnv(env), cacheDir);
  info.push(['memtrust --help (CLI start-up floor)', fmtMs(help.ms), '', '']);
  info.push([`report.html size`, `${(fs.statSync(out).size / 1024).toFixed(0)} KiB`, '', '']);

  console.log(
    `bench/report.ts — ${N.toLocaleString('en-US')} memories, ${EVENTS.toLocaleString('en-US')} audit events`,
  );
  console.log(machineLine());
  console.log('');
  console.log(table(rows));
  console.log('');
  console.log(table(info));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
