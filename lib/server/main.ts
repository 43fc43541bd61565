/** Entry of `npm start` after the build: parse PORT, check configuration, serve. */
import { serve } from './serve';
import { loadConfig } from '../core/config';
import { openDb } from '../../db/client';
import { keepStartConfig } from './start-config';

export async function startDashboard(): Promise<void> {
  const raw = process.env.PORT ?? '3000';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT is not a port number: "${raw}"`);
  // Fail at start-up with a clear message rather than on the first page view.
  const config = loadConfig();
  openDb(config.dbPath); // an unusable MEMTRUST_DB is reported here, not on the first page
  // Not read again by the first page (lib/server/start-config.ts).
  keepStartConfig(config);
  await serve(port);
  // Exit through process.exit so exit handlers run (the watcher's lease is removed, docs/freshness.md).
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(0));
  console.log(`memtrust dashboard: http://127.0.0.1:${port}  ·  memories from ${whereFrom(config)}`);
  // Watch the roots from now on, not from the first page view: CLI commands ask the watcher
  // whether they may skip their rescan (docs/freshness.md). /keeper starts it without rendering
  // the overview, which a first page asked for meanwhile would wait for ("The dashboard's first scan").
  fetch(`http://127.0.0.1:${port}/keeper`, { redirect: 'manual' })
    .then((r) => r.body?.cancel())
    .catch(() => {
      // the first page view starts it instead
    });
}

/** Where the memories come from, in one short line: a home of 200 projects is not 220 paths. */
export function whereFrom(config: ReturnType<typeof loadConfig>): string {
  if (config.demo) return 'the generated demo root (set MEMTRUST_ROOT to use your own)';
  const n = config.roots.length;
  if (config.rootsOrigin === 'claude-home')
    return `the Claude Code home: ${n} memory ${n === 1 ? 'folder' : 'folders'}`;
  return n <= 3 ? config.roots.join(', ') : `${config.roots.slice(0, 3).join(', ')} and ${n - 3} more`;
}
