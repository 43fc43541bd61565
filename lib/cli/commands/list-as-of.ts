/** `memtrust list --as-of TIME`: the configured roots as they were, from the kept versions (docs/versions.md, "As of"). */
import { type ParsedArgs, UsageError } from '../args';
import { openContext, printJson } from '../service-args';
import { listAsOf } from '../../service/versions/as-of';
import type { Io } from '../io';
import { parseAsOf } from '../../web/as-of-param';

/** The time rule is the dashboard's too (lib/web/as-of-param.ts). */
export function parseTime(raw: string): Date {
  const t = parseAsOf(raw);
  if (!t) throw new UsageError(`expected an ISO 8601 time, e.g. 2026-11-22T12:00:00Z: ${JSON.stringify(raw)}`);
  return t;
}

export function printAsOf(args: ParsedArgs, raw: string, io: Io): number {
  const at = parseTime(raw);
  const ctx = openContext(args, io);
  const items = listAsOf(ctx, at);
  if (!items) {
    io.err('memtrust list: no version store: the index is not a file');
    return 2;
  }
  if (args.bools.has('json')) printJson(io, { asOf: at.toISOString(), items });
  else {
    for (const i of items)
      io.out(
        `${i.source}  ${(i.trustLevel ?? '-').padEnd(11)}  ${i.relPath}  ${i.name ?? ''}${i.now === 'same' ? '' : `  (${i.now} since)`}`,
      );
    io.err(`${items.length} ${items.length === 1 ? 'memory' : 'memories'} as of ${at.toISOString()}`);
  }
  return 0;
}
