/**
 * `memtrust open [--port N]` (the plugin's /memtrust command, docs/install.md): prints the
 * dashboard's URL, starting `memtrust serve` in the background when nothing answers there.
 * Its output goes to `<data dir>/dashboard.log`. A port held by another program is said,
 * never taken over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lastValue, parseArgs, UsageError } from '../args';
import { dataDir, type Env } from '../../core/config';
import { startDashboardInBackground } from '../../server/background-start';
import type { Command } from './index';

/** How long a starting dashboard may take to answer (a first build of the index included). */
const START_WAIT_MS = 120_000;

type Probe = 'memtrust' | 'other' | 'none';

async function probe(url: string): Promise<Probe> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'manual' });
    const text = await res.text();
    // Every dashboard page is titled "… · memtrust" (app/layout.tsx).
    return /<title>[^<]*memtrust[^<]*<\/title>/.test(text) ? 'memtrust' : 'other';
  } catch {
    return 'none';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const openCommand: Command = {
  synopsis: 'open [--port N]',
  summary: "the dashboard's URL; starts it in the background when it is not running",
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['port'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument: ${args.positionals[0]}`);
    const env = process.env as Env;
    const raw = lastValue(args, 'port') ?? env.PORT ?? '3000';
    const port = Number(raw);
    if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new UsageError(`--port is not a port number: ${raw}`);
    const url = `http://127.0.0.1:${port}/`;
    const first = await probe(url);
    if (first === 'memtrust') {
      io.out(`memtrust dashboard: ${url}`);
      return 0;
    }
    if (first === 'other') {
      io.err(`memtrust open: another program answers on ${url}; pick a free port: memtrust open --port ${port + 1}`);
      return 1;
    }
    const logFile = path.join(dataDir(env), 'dashboard.log');
    const child = startDashboardInBackground(port, logFile, process.env);
    const until = Date.now() + START_WAIT_MS;
    while (Date.now() < until) {
      await sleep(500);
      if (child.exited() !== null) break;
      if ((await probe(url)) === 'memtrust') {
        io.out(`memtrust dashboard: ${url} (started in the background, pid ${child.pid}; log: ${logFile})`);
        return 0;
      }
    }
    const exited = child.exited();
    const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
    io.err(
      `memtrust open: the dashboard did not answer on ${url}${exited !== null ? ` (it exited with ${exited})` : ''}: ${tail || `see ${logFile}`}`,
    );
    return 1;
  },
};
