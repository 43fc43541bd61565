/**
 * The dashboard's first index of a large root, in a child process (docs/first-index.md).
 *
 * A first index reads and checks every file: tens of seconds at 100,000 memories on a 2-core
 * machine. Scanned inside the server, those seconds block its one event loop, and every
 * request — the first page, its styles, the browser's retries — waits with nothing shown.
 * From `backgroundMin` files beyond the index's rows, the server runs `memtrust scan
 * --progress` instead: the CLI's door to the same trust service, writing the same index.
 * Until it ends, every page answers with a progress page at once; then the dashboard's own
 * scan finds the rows current and reads only what changed meanwhile.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ServiceContext } from '../service/context';
import { withStatLater } from '../sources/list-dir';
import { projectDir } from '../core/project';

/** From this many files without rows, a first index runs in the background. */
export const BACKGROUND_MIN = 5000;

/** `MEMTRUST_BACKGROUND_INDEX_MIN` (a positive integer) or BACKGROUND_MIN; tests lower it. */
export function backgroundMin(env: Record<string, string | undefined> = process.env): number {
  const raw = env.MEMTRUST_BACKGROUND_INDEX_MIN;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : BACKGROUND_MIN;
}

export interface FirstIndex {
  /** Files in the roots beyond their rows: about what the scan reads. */
  files: number;
  /** Files read and checked so far, of `total` (the scan's own count, once it reports). */
  done: number;
  total: number;
  startedAt: number;
  running: boolean;
  /** Why the child failed (its last line on stderr), or null. */
  error: string | null;
}

/**
 * How many more files the file roots hold than the index has rows for, listed from the
 * readdir alone (no lstat): a first index, or one cut short (the server stopped while its
 * child ran), or a large sync since the last start. Files changed in place are not counted:
 * a rescan reads them, and there are rarely thousands.
 */
export function unindexedFiles(ctx: ServiceContext): number {
  // One grouped count (on entries_rescan, which starts with source) rather than a count per root: 220 in a Claude Code home.
  const rows = new Map(
    (
      ctx.handle.sqlite.prepare('SELECT source, count(*) AS n FROM entries GROUP BY source').all() as {
        source: string;
        n: number;
      }[]
    ).map((r) => [r.source, r.n]),
  );
  let n = 0;
  for (const s of ctx.sources) {
    if (s.error) continue;
    n += Math.max(0, withStatLater(() => s.adapter.files.list(s.root)).length - (rows.get(s.id) ?? 0));
  }
  return n;
}

/**
 * Starts `memtrust scan --progress` with the server's environment (the same roots, index,
 * owner and clock) and follows its progress lines. `onEnd` runs once, when it exits.
 */
export function startFirstIndex(
  files: number,
  onEnd: (job: FirstIndex) => void,
  env: NodeJS.ProcessEnv = process.env,
): FirstIndex {
  const job: FirstIndex = { files, done: 0, total: files, startedAt: Date.now(), running: true, error: null };
  const cli = path.join(projectDir(), 'lib', 'cli', 'memtrust.cjs');
  let lastLine = '';
  let pending = '';
  const finish = (error: string | null) => {
    if (!job.running) return;
    job.running = false;
    job.error = error;
    process.off('exit', stop);
    onEnd(job);
  };
  const child = spawn(process.execPath, [cli, 'scan', '--progress'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The server going away takes its scan with it: no writer is left behind unseen.
  const stop = () => child.kill();
  process.on('exit', stop);
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^progress (\d+) (\d+)$/.exec(line);
      if (m) {
        job.done = Number(m[1]);
        job.total = Number(m[2]);
      } else if (line.trim()) lastLine = line.trim();
    }
  });
  child.on('error', (e) => finish(`could not start memtrust scan: ${e.message}`));
  child.on('exit', (code, signal) =>
    finish(code === 0 ? null : lastLine || `memtrust scan exited with ${signal ?? `code ${code}`}`),
  );
  return job;
}
