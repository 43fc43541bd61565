/**
 * One process of bench/index-side.ts: REPS full indexes of MEMTRUST_ROOT, each into a fresh
 * database under DIR, and each wall printed as JSON on stdout. It uses only what every
 * commit has (loadConfig, createContext, scan), so a copy runs in a baseline's tree.
 *
 *   MEMTRUST_ROOT=… npx tsx bench/index-once.ts DIR REPS
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../lib/core/config';
import { createContext } from '../lib/service/context';
import { scan } from '../lib/service/index/scan-service';
import { closeDb } from '../db/client';

const [dir, repsRaw] = process.argv.slice(2);
const reps = Number(repsRaw);
if (!dir || !Number.isInteger(reps) || reps < 1) {
  process.stderr.write('usage: index-once.ts DIR REPS\n');
  process.exit(64);
}
const walls: { ms: number; files: number; events: number }[] = [];
for (let rep = 0; rep < reps; rep++) {
  const db = path.join(dir, `index-${process.pid}-${rep}.sqlite`);
  const env = { ...process.env, MEMTRUST_DB: db };
  const t = performance.now();
  const stats = scan(createContext(loadConfig({ env }), env));
  walls.push({ ms: performance.now() - t, files: stats.files, events: stats.events });
  closeDb(db);
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(db + ext, { force: true });
}
process.stdout.write(`${JSON.stringify(walls)}\n`);
