/** Entry of `npm start` after the build: parse PORT, check configuration, serve. */
import { serve } from './serve';
import { loadConfig } from '../config';
import { openDb } from '../../db/client';

export async function startDashboard(): Promise<void> {
  const raw = process.env.PORT ?? '3000';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT is not a port number: "${raw}"`);
  // Fail at start-up with a clear message rather than on the first page view.
  const config = loadConfig();
  openDb(config.dbPath); // an unusable MEMTRUST_DB is reported here, not on the first page
  await serve(port);
  // Exit through process.exit so exit handlers run (the watcher's lease is removed, docs/freshness.md).
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(0));
  const where = config.demo ? 'the generated demo root (set MEMTRUST_ROOT to use your own)' : config.roots.join(', ');
  console.log(`memtrust dashboard: http://127.0.0.1:${port}  ·  memories from ${where}`);
  // Watch the roots from now on, not from the first page view: CLI commands ask the watcher
  // whether they may skip their rescan (docs/freshness.md). The overview's render starts it.
  fetch(`http://127.0.0.1:${port}/`)
    .then((r) => r.body?.cancel())
    .catch(() => {
      // the first page view starts it instead
    });
}
