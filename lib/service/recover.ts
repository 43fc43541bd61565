/**
 * Start-up recovery (CONTRACT §6): each unfinished intent of this machine is
 * rolled forward (the new bytes reached their destination) or back (they did
 * not), judged only from what is on disk; anything else is left untouched and
 * reported as a conflict. Runs under the root's lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../sources';
import type { ServiceContext } from './context';
import { clearIntent, pendingIntents, type Intent } from './journal';
import { readIfExists, unlinkIfExists } from './fs-atomic';
import { sha256 } from './inspect';
import { mirrorAudit } from './audit-mirror';
import { eventApplied } from './index-commit';
import { finishIntent } from './finish';
import { recordGitRename } from './git';
import { withRootLock } from './lock';

export interface RecoveryOutcome {
  op: string;
  memory: string;
  outcome: 'rolled-forward' | 'rolled-back' | 'conflict' | 'discarded';
  message: string;
}

export function recoverSource(ctx: ServiceContext, source: SourceInfo): RecoveryOutcome[] {
  const pending = pendingIntents(source.root, ctx.machine);
  if (pending.length === 0) return [];
  mirrorAudit(ctx.handle.sqlite, source.id, source.root);
  const out: RecoveryOutcome[] = [];
  for (const { file, intent } of pending) {
    if (!intent) {
      // The intent itself was cut short, so no memory byte had changed yet.
      fs.rmSync(file, { force: true });
      out.push({ op: path.basename(file), memory: '', outcome: 'discarded', message: 'incomplete journal entry removed (nothing had changed)' });
      continue;
    }
    out.push(recoverOne(ctx, source, intent));
  }
  return out;
}

function recoverOne(ctx: ServiceContext, source: SourceInfo, intent: Intent): RecoveryOutcome {
  const abs = (rel: string) => path.join(source.root, rel);
  const shaOf = (rel: string) => {
    const b = readIfExists(abs(rel));
    return b ? sha256(b) : null;
  };
  const src = shaOf(intent.src);
  const dst = intent.dst === intent.src ? src : shaOf(intent.dst);
  const memory = path.posix.basename(intent.src);
  const done = (outcome: RecoveryOutcome['outcome'], message: string): RecoveryOutcome => ({ op: intent.op, memory, outcome, message });

  if (dst === intent.afterSha) {
    if (intent.dst !== intent.src) {
      if (src !== null && src !== intent.beforeSha) {
        return done('conflict', `${memory}: the new copy is in ${intent.dst} but ${intent.src} was changed since; both kept, resolve by hand`);
      }
      unlinkIfExists(abs(intent.src));
      recordGitRename(source.root, intent.src, intent.dst);
    }
    unlinkIfExists(abs(intent.tmp));
    const audited = eventApplied(ctx.handle.sqlite, source.id, intent.op);
    finishIntent(ctx, source, audited ? intent : { ...intent, event: { ...intent.event, recovered: true } }, audited);
    return done('rolled-forward', `${memory}: ${intent.event.action} completed after an interruption`);
  }
  // An empty before-sha marks a create: "as it was" means the file did not exist.
  if (src === intent.beforeSha || (intent.beforeSha === '' && src === null)) {
    unlinkIfExists(abs(intent.tmp));
    clearIntent(source.root, ctx.machine, intent.op);
    return done('rolled-back', `${memory}: interrupted ${intent.event.action} undone; the file is as it was`);
  }
  return done('conflict', `${memory}: an interrupted ${intent.event.action} left ${intent.src} and ${intent.dst} in an unexpected state; nothing was touched`);
}

/** Recovery of every configured root, each under its lock (CLI start-up and dashboard start-up). */
export function recoverAll(ctx: ServiceContext): RecoveryOutcome[] {
  return ctx.sources
    .filter((s) => !s.error && pendingIntents(s.root, ctx.machine).length > 0)
    .flatMap((s) => withRootLock(s.root, ctx.machine, () => recoverSource(ctx, s)));
}
