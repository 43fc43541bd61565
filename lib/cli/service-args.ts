/** What every service command shares: --root / --json parsing and a ready, recovered, scanned context. */
import { parseArgs, type FlagSpec, type ParsedArgs } from './args';
import type { Io } from './io';
import { loadConfig } from '../config';
import { createContext, type ServiceContext } from '../service/context';
import { ensureDemoRoot } from '../service/demo-root';
import { recoverAll } from '../service/recover';
import { scan } from '../service/scan-service';

export function parseServiceArgs(argv: string[], spec: FlagSpec = {}): ParsedArgs {
  return parseArgs(argv, { values: ['root', ...(spec.values ?? [])], bools: ['json', ...(spec.bools ?? [])] });
}

export function openContext(args: ParsedArgs, io: Io, opts: { scan?: boolean } = {}): ServiceContext {
  const config = loadConfig({ flagRoots: args.values.get('root') });
  if (config.demo) ensureDemoRoot(config.roots[0]!, config.now());
  const ctx = createContext(config);
  for (const r of recoverAll(ctx)) io.err(`recovery: ${r.message}`);
  if (opts.scan !== false) {
    let last = 0;
    scan(ctx, {
      onProgress: io.isTTY
        ? (done, total) => {
            if (total < 2000 || Date.now() - last < 200) return;
            last = Date.now();
            process.stderr.write(`\rscanning ${done}/${total}…`);
            if (done === total) process.stderr.write('\n');
          }
        : undefined,
    });
  }
  return ctx;
}

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
