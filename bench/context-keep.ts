/**
 * /context right after a one-file change, in-process (docs/session-context.md, "Between
 * changes"): the plan the dashboard makes once the index moved, made from scratch (the code
 * before the keep: every row read, every memory made) and from the keep (only the moved rows
 * read), side by side on the same handle, each followed by the page's own work on the plan
 * (the table order). Floor: the rows' keys (`rel_path, size, mtime_ms` of every row, from
 * the covering index: what any plan from the index must read to know what changed).
 *
 *   npx tsx bench/context-keep.ts [--n 100000] [--reps 7]
 *
 * Uses bench/web.ts's fixture (bench/.out/web-N, made the same way when missing). Each rep
 * appends a line to one memory file and rescans in-process as the dashboard's watcher does
 * (printed: that is the index's work, not the plan's), then times both plans in alternating
 * order and checks they are the same, byte for byte. The file is put back at the end.
 * Target: issue 16, every page under 500 ms at 100,000. Exit 0 always.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus } from '../lib/demo';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { describeSource } from '../lib/sources';
import { buildSessionContext, newContextKeep } from '../lib/service/session/session-context';
import { orderedRows } from '../lib/service/session/context-xray';
import { BENCH_NOW, flags, fmtMs, intFlag, machineLine, median, note, table, verdict, webRoot } from './common';

const f = flags(process.argv.slice(2), { n: '100000', reps: '7' });
const n = intFlag(f, 'n');
const reps = intFlag(f, 'reps');
const { out, root, env } = webRoot(n);

function main(): void {
  note(`bench/context-keep: ${machineLine()}`);
  if (!fs.existsSync(path.join(root, '.complete'))) {
    fs.rmSync(out, { recursive: true, force: true });
    writeCorpus(root, generateCorpus({ n, seed: 1, now: new Date(BENCH_NOW) }));
    fs.writeFileSync(path.join(root, '.complete'), '');
  }
  // The server's environment in bench/web.ts (same owner: no re-check of every file): webRoot.
  const ctx = createContext(loadConfig({ env }), env);
  scan(ctx);
  const sqlite = ctx.handle.sqlite;
  const id = describeSource(root).id;
  const keys = sqlite.prepare('SELECT rel_path, size, mtime_ms FROM entries WHERE source = ?').raw();
  const req = {
    roots: ctx.config.roots,
    now: new Date(BENCH_NOW),
    owner: ctx.owner(),
    budget: 8000,
    cache: sqlite,
    listing: 'index' as const,
  };
  const page = (keep?: ReturnType<typeof newContextKeep>) => {
    const plan = buildSessionContext({ ...req, keep });
    for (const r of plan.roots) orderedRows(r, { archived: false });
    return plan;
  };
  const keep = newContextKeep();
  page(keep); // the server's first plan: the keep is filled (and the JIT warm)
  page();
  const dir = path.join(root, 'memories');
  const file = path.join(
    dir,
    fs
      .readdirSync(dir)
      .filter((x) => x.endsWith('.md'))
      .sort()[0]!,
  );
  const original = fs.readFileSync(file);
  const rescan: number[] = [];
  const scratch: number[] = [];
  const kept: number[] = [];
  const floor: number[] = [];
  const read: number[] = [];
  let same = true;
  try {
    for (let i = 0; i < reps; i++) {
      note(`rep ${i + 1}/${reps}…`);
      fs.appendFileSync(file, `\nEdited by bench/context-keep, pass ${i + 1}.\n`);
      let t = performance.now();
      scan(ctx);
      rescan.push(performance.now() - t);
      let a = '';
      let b = '';
      for (const which of i % 2 ? ['kept', 'scratch'] : ['scratch', 'kept']) {
        t = performance.now();
        const p = which === 'kept' ? page(keep) : page();
        const ms = performance.now() - t;
        if (which === 'kept') {
          kept.push(ms);
          read.push(keep.last.rowsRead);
          a = JSON.stringify(p);
        } else {
          scratch.push(ms);
          b = JSON.stringify(p);
        }
      }
      same &&= a === b;
      t = performance.now();
      keys.all(id);
      floor.push(performance.now() - t);
    }
  } finally {
    fs.writeFileSync(file, original);
    scan(ctx);
    ctx.handle.sqlite.close();
  }
  const x = (v: number) => `${(v / median(floor)).toFixed(1)}×`;
  console.log(`# bench/context-keep — /context's plan after a one-file change, ${n.toLocaleString('en-US')} memories`);
  console.log(machineLine());
  console.log(
    `medians of ${reps} reps; the rescan (the watcher's, index work) ${fmtMs(median(rescan))}; rows read again by the kept plan: ${[...new Set(read)].join(', ')}`,
  );
  console.log(
    table([
      ['plan + table order', 'median', 'min', 'max', 'floor: rows’ keys', '÷ floor', 'same plan', 'target'],
      [
        'from scratch (before)',
        fmtMs(median(scratch)),
        fmtMs(Math.min(...scratch)),
        fmtMs(Math.max(...scratch)),
        fmtMs(median(floor)),
        x(median(scratch)),
        '—',
        verdict(median(scratch) < 500),
      ],
      [
        'kept (after)',
        fmtMs(median(kept)),
        fmtMs(Math.min(...kept)),
        fmtMs(Math.max(...kept)),
        fmtMs(median(floor)),
        x(median(kept)),
        same ? 'yes' : 'NO',
        verdict(median(kept) < 500),
      ],
    ]),
  );
}

try {
  main();
} catch (e) {
  console.error(`bench/context-keep failed: ${e instanceof Error ? e.message : String(e)}`);
}
