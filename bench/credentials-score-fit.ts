/**
 * Fits the credential score's weights (bench/credentials-score.ts, docs/credentials.md
 * "Context and shape, scored") on some tune folders and checks them on the others: leave folders
 * out, so a change is seen to generalise before any held-out fold is run.
 *
 *   npx tsx bench/credentials-score-fit.ts --tune-dir DIR[,DIR…] --fit r01-r26 --check r27-r43
 *                                          [--rules REV] [--model linear|stumps] [--penalty 4] [--print-weights] [--curve] [--top-false]
 *
 * Reads the tune fold only (never a held-out fold). For each side prints line-level recall and
 * false findings per 200 files of: the rules alone (REV's validators, default today's), the score
 * alone, rules ∪ score (a line the score passes `add` on gets a finding), and that with the rules'
 * context findings dropped where the best score on their line is below `veto`. The two thresholds
 * are chosen on the fit folders only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { candidateFeatures, FEATURES, scoreOf } from './credentials-score';
import type { OwnerIdentity } from '../lib/validators/types';
import { loadBundledValidators } from './baseline';
import { flags } from './common';
import { maskLine } from './mask-line';
import { readFolders, readLabels } from './real-credentials/folders';

const argv = process.argv.slice(2);
const PRINT = argv.includes('--print-weights');
const CURVE = argv.includes('--curve');
const f = flags(
  argv.filter((a) => a !== '--print-weights' && a !== '--curve' && a !== '--top-false'),
  { 'tune-dir': '', fit: 'r01-r26', check: 'r27-r43', rules: 'today', penalty: '4', model: 'linear' },
);
const DIRS = f['tune-dir']!.split(',').filter(Boolean);
const PENALTY = Number(f.penalty);

function inGroup(spec: string): (id: string) => boolean {
  const num = (id: string) => Number(id.replace(/^r/, ''));
  const parts = spec
    .split(',')
    .filter(Boolean)
    .map((x) => {
      const [a, b] = x.split('-');
      return [num(a!), num(b ?? a!)] as const;
    });
  return (id) => parts.some(([a, b]) => num(id) >= a && num(id) <= b);
}

function mdFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...mdFiles(p, base));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Rule findings that read context (so the score may veto them); token patterns stay. */
const CONTEXT_CODES = new Set([
  'secret.password',
  'secret.login-pair',
  'secret.table-credential',
  'secret.bare-key',
  'secret.api-key',
  'secret.command-line',
  'secret.env-credential',
  'secret.known-value',
]);

interface LineRec {
  folder: string;
  want: number;
  rules: number;
  ruleContext: number;
  cands: number[][];
  where?: string;
  text?: string;
}

const owner: OwnerIdentity = { emails: ['nobody@example.invalid'], homeUser: 'nobody-at-all' };
const rules = loadBundledValidators(f.rules === 'today' ? 'today' : f.rules!).secret;

function collect(ids: string[]): { lines: LineRec[]; files: Map<string, number> } {
  const cache = path.join(__dirname, '.out', `score-fit-${f.rules}-${ids.join('_').slice(0, 80)}-${ids.length}.json`);
  const src = fs.statSync(path.join(__dirname, 'credentials-score.ts')).mtimeMs;
  if (fs.existsSync(cache)) {
    const c = JSON.parse(fs.readFileSync(cache, 'utf8'));
    if (c.src === src) return { lines: c.lines, files: new Map(c.files) };
  }
  const got = collectFresh(ids);
  fs.mkdirSync(path.dirname(cache), { recursive: true });
  fs.writeFileSync(cache, JSON.stringify({ src, lines: got.lines, files: [...got.files] }));
  return got;
}

function collectFresh(ids: string[]): { lines: LineRec[]; files: Map<string, number> } {
  const labels = readLabels().filter((l) => l.kind === 'credential');
  const lines: LineRec[] = [];
  const files = new Map<string, number>();
  for (const id of ids) {
    const dir = DIRS.map((d) => path.join(d, id)).find((d) => fs.existsSync(d));
    if (!dir) throw new Error(`no copy of ${id} in --tune-dir`);
    const rels = mdFiles(dir);
    files.set(id, rels.length);
    for (const rel of rels) {
      const bytes = fs.readFileSync(path.join(dir, rel));
      const text = bytes.toString('utf8');
      const recs = new Map<number, LineRec>();
      const at = (n: number) => {
        let r = recs.get(n);
        if (!r) {
          r = { folder: id, want: 0, rules: 0, ruleContext: 0, cands: [] };
          recs.set(n, r);
        }
        return r;
      };
      for (const l of labels) if (l.folder === id && l.file === rel) at(l.line).want++;
      for (const x of rules(bytes, owner).findings) {
        if (x.class !== 'credential' || x.code === 'secret.ssh-fingerprint') continue;
        const r = at(x.line ?? 0);
        r.rules++;
        if (CONTEXT_CODES.has(x.code)) r.ruleContext++;
      }
      const textLines = text.split('\n');
      for (const c of candidateFeatures(text)) {
        const r = at(c.line);
        r.cands.push(c.x);
        r.where = `${id}/${rel}:${c.line}`;
        r.text = maskLine(textLines[c.line - 1]!.trim());
      }
      lines.push(...recs.values());
    }
  }
  return { lines, files };
}

/** A model: a score for one candidate's features. */
type Model = (x: readonly number[]) => number;

/**
 * Boosted stumps (logistic loss, depth one): catches "this word AND that shape" that a linear
 * score cannot. Same multiple-instance rounds as the linear fit.
 */
function fitStumps(lines: LineRec[]): Model {
  const d = FEATURES.length;
  type Stump = { j: number; t: number; left: number; right: number };
  let stumps: Stump[] = [];
  const model: Model = (x) => {
    let z = 0;
    for (const s of stumps) z += x[s.j]! <= s.t ? s.left : s.right;
    return z;
  };
  for (let round = 0; round < 3; round++) {
    const xs: number[][] = [];
    const ys: number[] = [];
    for (const r of lines) {
      if (r.cands.length === 0) continue;
      if (r.want > 0) {
        let bestX = r.cands[0]!;
        for (const c of r.cands) if (model(c) > model(bestX)) bestX = c;
        xs.push(bestX);
        ys.push(1);
      } else
        for (const c of r.cands) {
          xs.push(c);
          ys.push(0);
        }
    }
    const pos = ys.filter((y) => y === 1).length;
    const wPos = (ys.length - pos) / Math.max(1, pos) / 4;
    // Thresholds per feature: 0.5 for flags, a few quantiles for the numbers.
    const ths: number[][] = [];
    for (let j = 0; j < d; j++) {
      const vals = [...new Set(xs.map((x) => x[j]!))].sort((a, b) => a - b);
      if (vals.length <= 2) ths.push(vals.length === 2 ? [(vals[0]! + vals[1]!) / 2] : []);
      else ths.push([0.1, 0.25, 0.5, 0.75, 0.9].map((q) => vals[Math.floor(q * (vals.length - 1))]!));
    }
    stumps = [];
    const z = new Float64Array(xs.length);
    const lambda = 5;
    for (let it = 0; it < 80; it++) {
      const g = new Float64Array(xs.length);
      const h = new Float64Array(xs.length);
      let G = 0;
      let H = 0;
      for (let i = 0; i < xs.length; i++) {
        const p = 1 / (1 + Math.exp(-z[i]!));
        const cw = ys[i] === 1 ? wPos : 1;
        g[i] = (p - ys[i]!) * cw;
        h[i] = p * (1 - p) * cw;
        G += g[i]!;
        H += h[i]!;
      }
      let bestGain = 0;
      let pick: Stump | null = null;
      for (let j = 0; j < d; j++)
        for (const t of ths[j]!) {
          let gl = 0;
          let hl = 0;
          for (let i = 0; i < xs.length; i++)
            if (xs[i]![j]! <= t) {
              gl += g[i]!;
              hl += h[i]!;
            }
          const gr = G - gl;
          const hr = H - hl;
          const gain = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda) - (G * G) / (H + lambda);
          if (gain > bestGain) {
            bestGain = gain;
            pick = { j, t, left: (-0.3 * gl) / (hl + lambda), right: (-0.3 * gr) / (hr + lambda) };
          }
        }
      if (!pick) break;
      stumps.push(pick);
      for (let i = 0; i < xs.length; i++) z[i]! += xs[i]![pick.j]! <= pick.t ? pick.left : pick.right;
    }
  }
  return model;
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** Logistic regression; a labelled line's positive is its best candidate (multiple-instance). */
function fitWeights(lines: LineRec[]): number[] {
  const d = FEATURES.length;
  let w = new Array<number>(d).fill(0);
  for (let round = 0; round < 3; round++) {
    const xs: number[][] = [];
    const ys: number[] = [];
    for (const r of lines) {
      if (r.cands.length === 0) continue;
      if (r.want > 0) {
        let best = r.cands[0]!;
        for (const c of r.cands) if (scoreOf(c, w) > scoreOf(best, w)) best = c;
        xs.push(best);
        ys.push(1);
      } else
        for (const c of r.cands) {
          xs.push(c);
          ys.push(0);
        }
    }
    const pos = ys.filter((y) => y === 1).length;
    const wPos = (ys.length - pos) / Math.max(1, pos) / 4;
    const next = w.slice();
    const lr = 0.5;
    for (let epoch = 0; epoch < 80; epoch++) {
      const g = new Array<number>(d).fill(0);
      let n = 0;
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i]!;
        const cw = ys[i] === 1 ? wPos : 1;
        const e = (sigmoid(scoreOf(x, next)) - ys[i]!) * cw;
        for (let j = 0; j < d; j++) g[j]! += e * x[j]!;
        n += cw;
      }
      for (let j = 0; j < d; j++) next[j]! -= lr * (g[j]! / n + (j === 0 ? 0 : 0.001 * next[j]!));
    }
    w = next;
  }
  return w;
}

const best = (r: LineRec, w: Model) =>
  r.cands.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...r.cands.map((c) => w(c)));

interface Tally {
  labels: number;
  found: number;
  falses: number;
}

function tally(lines: LineRec[], count: (r: LineRec) => number): Tally {
  const t = { labels: 0, found: 0, falses: 0 };
  for (const r of lines) {
    const n = count(r);
    t.labels += r.want;
    t.found += Math.min(r.want, n);
    if (r.want === 0) t.falses += n;
  }
  return t;
}

const NEG = ['placeholder', 'uuid', 'ip_date_number', 'url_path_email', 'file_name', 'truncated'].map((n) =>
  (FEATURES as readonly string[]).indexOf(n),
);
/** Every token on the line has a shape that is no secret (placeholder, id, address, path, file, truncated). */
const allNegative = (r: LineRec) => r.cands.length > 0 && r.cands.every((c) => NEG.some((j) => c[j] === 1));

const variants = (w: Model, add: number, veto: number) => ({
  'shape-veto': (r: LineRec) => (allNegative(r) ? r.rules - r.ruleContext : r.rules),
  rules: (r: LineRec) => r.rules,
  score: (r: LineRec) => (best(r, w) >= add ? 1 : 0),
  union: (r: LineRec) => Math.max(r.rules, best(r, w) >= add ? 1 : 0),
  'union-veto': (r: LineRec) => {
    const s = best(r, w);
    const kept = s < veto && s > Number.NEGATIVE_INFINITY ? r.rules - r.ruleContext : r.rules;
    return Math.max(kept, s >= add ? 1 : 0);
  },
});

/**
 * `add`: the score alone on the fit folders, best recall less PENALTY points per false finding per
 * 200 files (the rules find nearly all of the fit folders, so a union would learn nothing there).
 * `veto`: below the score of all but 1 % of the fit folders' labelled lines the rules' context finds.
 */
function choose(lines: LineRec[], files: number, w: Model): { add: number; veto: number } {
  let bestObj = Number.NEGATIVE_INFINITY;
  let add = Number.POSITIVE_INFINITY;
  for (let t = -2; t <= 8; t += 0.1) {
    const s = tally(lines, variants(w, t, 0).score);
    const obj = s.found / s.labels - (PENALTY * ((s.falses / files) * 200)) / 100;
    if (obj > bestObj) {
      bestObj = obj;
      add = +t.toFixed(2);
    }
  }
  const trueScores = lines
    .filter((r) => r.want > 0 && r.ruleContext > 0)
    .map((r) => best(r, w))
    .filter((x) => x > Number.NEGATIVE_INFINITY)
    .sort((x, y) => x - y);
  const veto = trueScores[Math.floor(trueScores.length * 0.01)] ?? Number.NEGATIVE_INFINITY;
  return { add, veto: +veto.toFixed(2) };
}

function main(): void {
  const tune = readFolders().filter((x) => x.fold === 'tune');
  const fitIds = tune.filter((x) => inGroup(f.fit!)(x.id)).map((x) => x.id);
  const checkIds = tune.filter((x) => inGroup(f.check!)(x.id)).map((x) => x.id);
  const a = collect(fitIds);
  const b = collect(checkIds);
  const weights = f.model === 'stumps' ? [] : fitWeights(a.lines);
  const w: Model = f.model === 'stumps' ? fitStumps(a.lines) : (x) => scoreOf(x, weights);
  const th = choose(
    a.lines,
    [...a.files.values()].reduce((s, x) => s + x, 0),
    w,
  );
  if (PRINT) {
    console.log('weights:');
    for (const [i, n] of FEATURES.entries()) console.log(`  ${n}: ${weights[i]?.toFixed(3)}`);
  }
  console.log(`rules ${f.rules}; fit ${f.fit} (${fitIds.length} folders); check ${f.check} (${checkIds.length})`);
  console.log(`thresholds from the fit folders: add ${th.add}, veto ${th.veto}`);
  for (const [side, d] of [
    ['fit', a],
    ['check', b],
  ] as const) {
    const files = [...d.files.values()].reduce((s, x) => s + x, 0);
    for (const [name, count] of Object.entries(variants(w, th.add, th.veto))) {
      const t = tally(d.lines, count);
      console.log(
        `${side.padEnd(6)} ${name.padEnd(11)} files ${files} labels ${t.labels} found ${t.found} recall ${((t.found / t.labels) * 100).toFixed(1)} % false ${t.falses} per200 ${((t.falses / files) * 200).toFixed(2)}`,
      );
    }
  }
  if (CURVE)
    for (const [side, d] of [
      ['fit', a],
      ['check', b],
    ] as const) {
      const files = [...d.files.values()].reduce((s, x) => s + x, 0);
      const row: string[] = [];
      for (let t = -1; t <= 5; t += 0.5) {
        const s = tally(d.lines, variants(w, t, 0).score);
        row.push(`${t}:${((s.found / s.labels) * 100).toFixed(0)}%/${((s.falses / files) * 200).toFixed(1)}`);
      }
      console.log(`curve ${side}: ${row.join('  ')}`);
    }
  if (argv.includes('--top-false')) {
    const top = a.lines
      .filter((r) => r.want === 0 && r.cands.length > 0)
      .sort((x, y) => best(y, w) - best(x, w))
      .slice(0, 40);
    for (const r of top) console.log(`${best(r, w).toFixed(2)} ${r.where} ${r.text}`);
    const miss = a.lines
      .filter((r) => r.want > 0)
      .sort((x, y) => best(x, w) - best(y, w))
      .slice(0, 25);
    for (const r of miss) console.log(`MISS ${best(r, w).toFixed(2)} ${r.where} ${r.text}`);
  }
  if (PRINT) console.log(JSON.stringify({ weights: weights.map((x) => +x.toFixed(3)), ...th }));
}

main();
