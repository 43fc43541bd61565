/** What every service command shares: --root / --json parsing and a ready, recovered, scanned context. */
import { parseArgs, type FlagSpec, type ParsedArgs } from './args';
import type { Io } from './io';
import { ConfigError, loadConfig, type Config } from '../core/config';
import { describeSource } from '../sources';
import { createContext, type ServiceContext } from '../service/context';
import { isDemoRoot } from '../service/settings/demo-root';
import { recoverAll } from '../service/write/recover';
import { scan } from '../service/index/scan-service';
import { defaultWorkers } from '../service/index/inspect-pool';

export function parseServiceArgs(argv: string[], spec: FlagSpec = {}): ParsedArgs {
  return parseArgs(argv, { values: ['root', ...(spec.values ?? [])], bools: ['json', ...(spec.bools ?? [])] });
}

/** Said by every command that needs a root when none is configured (docs/roots.md). */
export const NO_ROOT =
  'no memory root configured: pass --root DIR, set MEMTRUST_ROOT, or add one in the dashboard settings (the dashboard shows a generated demo root until then)';

/**
 * The configuration, checked before anything is opened or written: the CLI never creates
 * a root (the demo root is the dashboard's, made at its start) and refuses a root whose
 * layout it does not read, with exit 64 (docs/configuration.md; docs/roots.md).
 */
export function checkedConfig(args: ParsedArgs): Config {
  const config = loadConfig({ flagRoots: args.values.get('root') });
  if (config.demo && !isDemoRoot(config.roots[0]!)) throw new ConfigError(NO_ROOT);
  const refused = config.roots.map((r) => describeSource(r)).find((s) => s.refused);
  if (refused) throw new ConfigError(refused.refused!);
  return config;
}

export function openContext(args: ParsedArgs, io: Io, opts: { scan?: boolean } = {}): ServiceContext {
  const config = checkedConfig(args);
  // Every command that reads the demo root says so (docs/configuration.md; docs/roots.md); stdout stays the listing.
  if (config.demo) io.err(`memtrust: demo root (generated sample data, not your memories): ${config.roots[0]}`);
  const ctx = createContext(config);
  for (const r of recoverAll(ctx)) io.err(`recovery: ${r.message}`);
  if (opts.scan !== false) {
    let last = 0;
    const stats = scan(ctx, {
      askWatcher: true,
      workers: defaultWorkers(),
      // A command answers with every origin: the transcripts not read yet are read now (docs/origin.md "In the index").
      origins: 'read',
      onProgress: io.isTTY
        ? (done, total) => {
            if (total < 2000 || Date.now() - last < 200) return;
            last = Date.now();
            process.stderr.write(`\rscanning ${done}/${total}…`);
            if (done === total) process.stderr.write('\n');
          }
        : undefined,
    });
    // A root that is missing or unreadable is not refused (docs/roots.md), but a command
    // reading it says so: a mistyped --root would otherwise read as "no memories match".
    for (const e of stats.errors) io.err(`memtrust: ${e}`);
  }
  return ctx;
}

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
