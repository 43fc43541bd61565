/**
 * `memtrust promote|reaffirm|demote|restore|archive FILE|RECORD [--reason TEXT] [--op ID]`: a record
 * id or key of a record root goes through the record pipeline (docs/records-write.md).
 */
import { exitCodeFor } from '../../core/error-codes';
import { UsageError, lastValue } from '../args';
import type { Io } from '../io';
import { openContext, parseServiceArgs, printJson } from '../service-args';
import { transitionAsBatch } from '../../service/write/transition-batch';
import type { MemoryAction } from '../../trust/tiers';
import type { Command } from './index';
import { isRecordRef, reportRecordResult } from './record-cmds';
import { applyRecordActions } from '../../service/records/apply';

function make(action: MemoryAction, summary: string): Command {
  return {
    synopsis: `${action} FILE|RECORD${action === 'demote' ? ' --reason TEXT' : ' [--reason TEXT]'}${action === 'promote' ? ' [--ack-origin]' : ''}`,
    summary,
    async run(argv: string[], io: Io) {
      // --ack-origin: the user has looked at an untrusted origin (memtrust show) and promotes anyway (docs/origin.md).
      const args = parseServiceArgs(argv, {
        values: ['reason', 'op'],
        bools: action === 'promote' ? ['ack-origin'] : [],
      });
      if (args.positionals.length !== 1) throw new UsageError('name exactly one memory FILE');
      const ctx = openContext(args, io, { scan: false });
      const ref = args.positionals[0]!;
      if (isRecordRef(ctx, ref)) {
        return reportRecordResult(
          io,
          args,
          action,
          applyRecordActions(ctx, [{ id: ref, action, reason: lastValue(args, 'reason') }], { actor: 'user:cli' }),
        );
      }
      const result = transitionAsBatch(ctx, {
        ref: args.positionals[0]!,
        action,
        reason: lastValue(args, 'reason'),
        actor: 'user:cli',
        opId: lastValue(args, 'op'),
        ackOrigin: args.bools.has('ack-origin'),
      });
      if (args.bools.has('json')) printJson(io, result);
      else if (result.ok) io.out(result.message);
      else {
        io.err(`memtrust ${action}: ${result.message}`);
        for (const p of result.paths ?? []) io.err(`  ${p}`);
      }
      return result.ok ? 0 : exitCodeFor(result.code);
    },
  };
}

export const transitionCommands: Record<string, Command> = {
  promote: make('promote', 'inferred → verified (after the 7-day observation)'),
  reaffirm: make('reaffirm', 'stale verified: last-verified = today'),
  demote: make('demote', 'verified/inferred → quarantine/ (needs a reason)'),
  restore: make('restore', 'quarantine/ → verified, if the validators pass'),
  archive: make('archive', 'quarantined 91+ days → archive/YYYY-MM/'),
};
