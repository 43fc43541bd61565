/**
 * `memtrust watch`: keep the index current while it runs, so the other commands skip the stat
 * of every file (docs/freshness.md). The dashboard does the same while it is up; this is for
 * machines without it (a hook-only setup, a large root scripted from the shell).
 */
import { openContext, parseServiceArgs } from '../service-args';
import { keepFresh, FALLBACK_SCAN_MS } from '../../service/index/keep-fresh';
import type { Command } from './index';

const watchCmd: Command = {
  synopsis: 'watch',
  summary: 'keep the index current while running; other commands then skip their rescan',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    const ctx = openContext(args, io, { scan: false });
    const keeper = keepFresh(ctx, {
      onScan: (s) => {
        if (s.read > 0 || s.removed > 0) io.err(`memtrust watch: ${s.read} read, ${s.removed} removed`);
      },
      onError: (err) => io.err(`memtrust watch: scan failed: ${err instanceof Error ? err.message : String(err)}`),
    });
    keeper.fresh();
    io.err(`memtrust watch: watching ${ctx.sources.length} root(s); Ctrl-C to stop`);
    // A root it cannot read makes it vouch for nothing (docs/freshness.md): say so, not silently.
    for (const s of ctx.sources.filter((x) => x.error))
      io.err(`memtrust watch: ${s.root}: ${s.error}; until it is fixed, other commands re-check every file themselves`);
    // The watchers do not hold the process open; this timer does, and runs the fallback scan.
    const timer = setInterval(() => {
      try {
        keeper.fresh();
      } catch (err) {
        io.err(`memtrust watch: scan failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }, FALLBACK_SCAN_MS / 5);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    clearInterval(timer);
    keeper.close();
    return 0;
  },
};

export const watchCommands: Record<string, Command> = { watch: watchCmd };
