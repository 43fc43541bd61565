/** `memtrust undo BATCH`: every file of a batch back to its pre-batch bytes and place (docs/batches.md). */
import { UsageError } from '../args';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { undoBatch } from '../../service/batches/undo';
import type { Command } from './index';

const undoCmd: Command = {
  synopsis: 'undo BATCH',
  summary: 'put every file of a batch (and MEMORY.md) back as it was; itself a batch',
  async run(argv, io) {
    const args = parseServiceArgs(argv);
    if (args.positionals.length !== 1)
      throw new UsageError('name exactly one BATCH id (shown when a batch is applied, and in history)');
    const ctx = openContext(args, io, { scan: false });
    const r = undoBatch(ctx, args.positionals[0]!, 'user:cli');
    if (!r.ok && r.code === 'bad-id') throw new UsageError(r.message);
    if (args.bools.has('json')) printJson(io, r);
    else if (r.ok) {
      io.out(r.message);
      if (r.outcome) io.out(`undo it with: memtrust undo ${r.outcome.batch}`);
    } else {
      io.err(`memtrust undo: ${r.message}`);
      for (const p of r.paths ?? []) io.err(`  ${p}`);
    }
    return r.ok ? 0 : 2;
  },
};

export const undoCommands: Record<string, Command> = { undo: undoCmd };
