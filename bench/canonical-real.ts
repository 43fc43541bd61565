/**
 * The canonical adapter on a real store you have on disk (issue 14's manual run):
 * prints what it read — entries per category and shape, tiers, flags, places,
 * problems, warnings — and the read time beside a plain read of the same files.
 * Then plans every allowed action of every entry in memory (nothing is written) and
 * counts the plans whose edits apply to the files as they are.
 *
 *   npx tsx bench/canonical-real.ts ROOT [--reps 3]
 *
 * ROOT is a project folder with `.claude/memory/` or the store folder itself; for
 * staleness by commits it must sit in a git checkout. Reads only; exit 0 when the
 * store was read, 1 when ROOT is not a canonical store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { canonicalLayout, canonicalStore } from '../lib/sources/canonical/adapter';
import { applyEdits } from '../lib/sources/edits';
import type { LayoutRead } from '../lib/sources/record';
import { BENCH_NOW, flags, fmtMs, intFlag, median } from './common';

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith('--'));
const f = flags(
  args.filter((a) => a !== root),
  { reps: '3' },
);
const REPS = intFlag(f, 'reps');
if (!root) {
  process.stderr.write('usage: npx tsx bench/canonical-real.ts ROOT [--reps 3]\n');
  process.exit(64);
}
const store = canonicalStore(root);
if (!store || !canonicalLayout.detect(root)) {
  process.stderr.write(`${root}: not a canonical-file store (lib/sources/detect.ts does not name one here)\n`);
  process.exit(1);
}

function floor(dir: string): number {
  const t = performance.now();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) fs.readFileSync(p);
    }
  };
  walk(dir);
  return performance.now() - t;
}

const now = new Date(process.env.MEMTRUST_NOW ?? BENCH_NOW);
const floors: number[] = [];
const reads: number[] = [];
let r: LayoutRead | null = null;
for (let i = 0; i < REPS; i++) {
  floors.push(floor(store.dir));
  const t = performance.now();
  r = canonicalLayout.read(root, { sourceId: 'real', now });
  reads.push(performance.now() - t);
}
const t0 = performance.now();
canonicalLayout.changeToken(root);
const tokenMs = performance.now() - t0;
const res = r!;

const count = (xs: string[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return (
    [...m]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || '-'
  );
};
const d = (k: string) => res.records.map((x) => String(x.detail[k]));

// Plan every allowed action in memory and apply its edits to the bytes as they are.
const read = (file: string) => {
  try {
    return fs.readFileSync(path.join(root, file));
  } catch {
    return null;
  }
};
const planned = new Map<string, { ok: number; refused: number; conflict: number }>();
const refusals: string[] = [];
for (const rec of res.records) {
  for (const action of rec.actions) {
    const s = planned.get(action) ?? { ok: 0, refused: 0, conflict: 0 };
    planned.set(action, s);
    const p = canonicalLayout.plan(rec, action, {
      now,
      read,
      reason: 'real-store check',
      options: action === 'close' ? { status: 'dropped' } : {},
    });
    if (!p.ok) {
      s.refused++;
      if (refusals.length < 5) refusals.push(`${rec.key} ${action}: ${p.reason}`);
      continue;
    }
    try {
      applyEdits(read, p.plan.edits);
      s.ok++;
    } catch (e) {
      s.conflict++;
      if (refusals.length < 5) refusals.push(`${rec.key} ${action}: ${(e as Error).message}`);
    }
  }
}

const out = [
  `root: ${root}`,
  `store: ${store.prefix || '.'} (${res.shape})`,
  `entries: ${res.records.length}`,
  `per category: ${count(d('category'))}`,
  `per shape: ${count(d('shape'))}`,
  `places: ${count(d('place'))}`,
  `tiers: ${count(res.records.map((x) => x.tier))}`,
  `flags: ${count(res.records.flatMap((x) => x.flags))}`,
  `staleness basis: ${count(res.records.map((x) => String((x.detail.staleness as { basis?: string } | null)?.basis ?? 'none')))}`,
  `target checks: ${count(
    res.records.map((x) => {
      const c = x.detail.targetCheck as { ok: boolean } | null;
      return c ? (c.ok ? 'ok' : 'fails') : 'not checked';
    }),
  )}`,
  `problems: ${res.problems.length}`,
  ...res.problems.slice(0, 8).map((p) => `  ${p.file}:${p.line}: ${p.problem}`),
  `warnings: ${res.warnings.length}`,
  ...res.warnings.map((w) => `  ${w.length > 200 ? `${w.slice(0, 200)}…` : w}`),
  `actions planned in memory (ok / refused / edits not applying): ${[...planned].map(([a, s]) => `${a} ${s.ok}/${s.refused}/${s.conflict}`).join(', ') || '-'}`,
  ...refusals.map((x) => `  ${x}`),
  `read (adapter, with git walk, staleness and target re-verify): median ${fmtMs(median(reads))} of ${REPS}`,
  `baseline (readdir + readFileSync of every .md): median ${fmtMs(median(floors))}`,
  `changeToken: ${fmtMs(tokenMs)}`,
];
process.stdout.write(`${out.join('\n')}\n`);
