/**
 * Proof that the faster index is the same index (docs/performance.md, "Proof"): the same
 * roots scanned by a baseline commit's code and by today's code, each into its own
 * database, then rescanned after one round of changes; every row, the schema and the
 * full-text answers must be identical.
 *
 *   npx tsx bench/scan-compare.ts [--baseline 8aba313] [--big 2500] [--small 300] [--workers 1]
 *
 * Roots (lib/service/fixtures/scan-corpus.ts, written to a temp dir): a trust-model root of
 * --big demo memories with their audit trail (≥ 2,000 takes the bulk path of a first scan:
 * deferred full-text and secondary indexes, a bulk audit mirror), a second one of --small,
 * and a Claude Code folder of --small plus the real shapes (CRLF, BOM, nested keys, broken
 * YAML, quoted values, no frontmatter, 100 KB body, fake token, password in prose, binary,
 * over the read cap, symlink). The changes: 10 % of the files touched (same bytes, new
 * mtime), 5 % edited, 2 % deleted, one added per root.
 * Each code runs bench/scan-dump.ts in its own process (the baseline's tree is extracted
 * with `git archive` into bench/.out/baseline-<commit>; a copy of scan-dump.ts goes in).
 * Today's side reads and inspects every root on --workers worker threads (the inspect pool,
 * docs/performance.md, "Both cores"; 0: on the main thread alone).
 * Exit 0 always; PASS when every part is identical.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusEnv, writeScanCorpus } from '../lib/service/fixtures/scan-corpus';
import { flags, fmtMs, intFlag, machineLine, note, PROJECT_DIR, table, verdict } from './common';

const f = flags(process.argv.slice(2), { baseline: '8aba313', big: '2500', small: '300', workers: '1' });
const BASELINE = f.baseline!;
if (!/^[0-9a-f]{7,40}$/.test(BASELINE)) {
  process.stderr.write(`--baseline must be a commit id: ${BASELINE}\n`);
  process.exit(64);
}
const BIG = intFlag(f, 'big');
const SMALL = intFlag(f, 'small');
const WORKERS = intFlag(f, 'workers');

function baselineTree(): string {
  const dir = path.join(PROJECT_DIR, 'bench', '.out', `baseline-${BASELINE}`);
  if (!fs.existsSync(path.join(dir, 'lib', 'service', 'index', 'scan.ts'))) {
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', BASELINE, 'lib', 'db', 'package.json', 'tsconfig.json'], {
      cwd: PROJECT_DIR,
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir, '--exclude=*.test.ts', '--exclude=*.spec.ts', '--exclude=*.test.tsx'], {
      input: tar,
    });
  }
  fs.mkdirSync(path.join(dir, 'bench'), { recursive: true });
  fs.copyFileSync(path.join(PROJECT_DIR, 'bench', 'scan-dump.ts'), path.join(dir, 'bench', 'scan-dump.ts'));
  return dir;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bench-compare-'));
try {
  const base = baselineTree();
  const corpus = writeScanCorpus(path.join(tmp, 'roots'), BIG, SMALL);
  const env = (tree: string, name: string): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      ...corpusEnv(tmp, corpus.roots, name),
      MEMTRUST_PROJECT_DIR: tree,
      MEMTRUST_MACHINE: 'compare-machine',
      MEMTRUST_WORKERS: tree === PROJECT_DIR ? String(WORKERS) : '0',
    };
    delete e.MEMTRUST_DEBUG;
    return e;
  };
  const run = (tree: string, name: string, phase: string): Record<string, unknown> => {
    const out = path.join(tmp, `${name}-${phase}.json`);
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', 'scan-dump.ts'), out], {
      cwd: tree,
      env: env(tree, name),
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`${name} ${phase} failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
    note(`${name} ${phase}: ${fmtMs(performance.now() - t)}`);
    return JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>;
  };
  const phases: [string, Record<string, unknown>, Record<string, unknown>][] = [];
  phases.push(['first scan', run(base, 'baseline', 'first'), run(PROJECT_DIR, 'today', 'first')]);
  corpus.mutate();
  phases.push(['rescan after changes', run(base, 'baseline', 'rescan'), run(PROJECT_DIR, 'today', 'rescan')]);

  const rows: string[][] = [['phase', 'part', 'baseline rows', 'today rows', 'result']];
  const diffs: string[] = [];
  let same = true;
  for (const [phase, a, b] of phases) {
    note(`${phase}: today inspected on ${String(b._workers ?? 0)} worker thread(s)`);
    for (const part of Object.keys({ ...a, ...b })) {
      if (part.startsWith('_')) continue; // how the index was made, not what it holds
      const x = JSON.stringify(a[part]);
      const y = JSON.stringify(b[part]);
      const count = (v: unknown) => (Array.isArray(v) ? String(v.length) : '—');
      const ok = x === y;
      same &&= ok;
      rows.push([phase, part, count(a[part]), count(b[part]), ok ? 'same' : 'DIFFERENT']);
      if (!ok && Array.isArray(a[part]) && Array.isArray(b[part])) {
        const setB = new Set(b[part] as string[]);
        const setA = new Set(a[part] as string[]);
        const onlyA = (a[part] as string[]).filter((r) => !setB.has(r)).slice(0, 2);
        const onlyB = (b[part] as string[]).filter((r) => !setA.has(r)).slice(0, 2);
        diffs.push(
          `${phase} ${part}: baseline only ${onlyA.join(' | ').slice(0, 600)}; today only ${onlyB.join(' | ').slice(0, 600)}`,
        );
      } else if (!ok) diffs.push(`${phase} ${part}: baseline ${x.slice(0, 400)}; today ${y.slice(0, 400)}`);
    }
  }
  const out: string[] = [];
  out.push(`memtrust index comparison — ${new Date().toISOString()}`);
  out.push(`machine: ${machineLine()}`);
  out.push(
    `baseline: commit ${BASELINE}; roots: ${BIG} + ${SMALL} demo memories (trust-model) and a Claude Code folder of ${SMALL} plus the real shapes; today on ${WORKERS} worker thread(s)`,
  );
  out.push('');
  out.push(table(rows));
  out.push('');
  out.push(`every row, the schema and the full-text answers identical: ${verdict(same)}`);
  for (const d of diffs) out.push(`  ${d}`);
  process.stdout.write(`${out.join('\n')}\n`);
} catch (e) {
  process.stdout.write(`comparison failed: ${e instanceof Error ? e.message : String(e)}\n`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = 0;
}
