/**
 * Start-up recovery (docs/crash-safety.md "Recovery"): each unfinished
 * intent of this machine is rolled forward (the transition had committed) or back
 * (it had not), judged only from what is on disk; anything else is left untouched
 * and reported as a conflict. Runs under the root's lock. A save found on disk is
 * never thrown away: when the memory's file changed after it was planned from, the
 * transition is rolled back around it.
 *
 * Also here: the committed view readers use while a writer holds the lock
 * (`committedListing`), so a read never waits for a write nor shows half of one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ListedFile, SourceInfo } from '../../sources';
import type { Location } from '../../trust/tiers';
import { refreshSources, type ServiceContext } from '../context';
import { describeSource, isFileSource } from '../../sources';
import type { Located } from '../index/resolve';
import { clearIntent, pendingIntents, type Intent } from './journal';
import { fsyncDir, linkNoClobber, readIfExists, sameFile, statIfExists, unlinkIfExists } from './fs-atomic';
import { sha256 } from '../index/inspect';
import { mirrorIfIndexed, opApplied } from '../index/index-optional';
import { finishIntent } from './finish';
import { recordGitRename } from './git';
import { LockTimeoutError, alive, tidyLock, withRootLock } from './lock';
import { sweepBatchLeftovers } from '../batches/batch-store';
import { sweepMarkerLeftovers } from '../batches/backfill-marker';
import { finishUndos, unfinishedUndos } from '../batches/undo-finish';
import { finishRecordBatches, unfinishedRecordBatches } from '../records/batch';
import { hasOwnFiles, legacyMetaDir, metaDir } from '../meta/places';

export interface RecoveryOutcome {
  op: string;
  memory: string;
  /** `deferred`: another process holds the root's lock; recovery runs when it is free. */
  outcome: 'rolled-forward' | 'rolled-back' | 'conflict' | 'discarded' | 'deferred';
  message: string;
}

export function recoverSource(ctx: ServiceContext, source: SourceInfo): RecoveryOutcome[] {
  const pending = pendingIntents(source.root, ctx.machine);
  if (pending.length === 0) return [];
  mirrorIfIndexed(ctx, source);
  const out: RecoveryOutcome[] = [];
  for (const { file, intent } of pending) {
    if (!intent) {
      // The intent itself was cut short, so no memory byte had changed yet.
      unlinkIfExists(file);
      out.push({
        op: path.basename(file),
        memory: '',
        outcome: 'discarded',
        message: 'incomplete journal entry removed (nothing had changed)',
      });
      continue;
    }
    out.push(intent.v === 2 ? recoverV2(ctx, source, intent) : recoverV1(ctx, source, intent));
  }
  return out;
}

type Done = (outcome: RecoveryOutcome['outcome'], message: string) => RecoveryOutcome;

function helpers(source: SourceInfo, intent: Intent) {
  const abs = (rel: string) => path.join(source.root, rel);
  const shaOf = (rel: string) => {
    const b = readIfExists(abs(rel));
    return b ? sha256(b) : null;
  };
  const memory = path.posix.basename(intent.src);
  const done: Done = (outcome, message) => ({ op: intent.op, memory, outcome, message });
  return { abs, shaOf, memory, done };
}

function rollForward(
  ctx: ServiceContext,
  source: SourceInfo,
  intent: Intent,
  done: Done,
  memory: string,
): RecoveryOutcome {
  const audited = opApplied(ctx, source, intent.op);
  finishIntent(ctx, source, audited ? intent : { ...intent, event: { ...intent.event, recovered: true } }, audited);
  return done('rolled-forward', `${memory}: ${intent.event.action} completed after an interruption`);
}

/**
 * The v2 protocol (transition.ts `execute`): while the private copy (`aside`) exists
 * the transition has not committed; the new copy is recognised as ours by being the
 * same file as the temp file (which lives until the very end) or by its bytes.
 */
function recoverV2(ctx: ServiceContext, source: SourceInfo, intent: Intent): RecoveryOutcome {
  const { abs, shaOf, memory, done } = helpers(source, intent);
  const inPlace = intent.dst === intent.src;
  const tmp = statIfExists(abs(intent.tmp));
  const dstSt = statIfExists(abs(intent.dst));
  const ours = !!dstSt && (sameFile(dstSt, tmp) || shaOf(intent.dst) === intent.afterSha);
  const undo = (note = ''): RecoveryOutcome => {
    unlinkIfExists(abs(intent.tmp));
    clearIntent(source.root, ctx.machine, intent.op);
    return done('rolled-back', `${memory}: interrupted ${intent.event.action} undone; the file is as it was${note}`);
  };
  const aside = intent.aside ? abs(intent.aside) : null;
  if (aside && statIfExists(aside)) {
    const heldOk = shaOf(intent.aside!) === intent.beforeSha;
    const srcBack = !inPlace && !!statIfExists(abs(intent.src));
    if (ours && heldOk && !srcBack) {
      // Linked and unchanged: finish the commit.
      unlinkIfExists(aside);
      fsyncDir(path.dirname(aside));
      if (!inPlace && !intent.trash) recordGitRename(source.root, intent.src, intent.dst);
      return rollForward(ctx, source, intent, done, memory);
    }
    // Not committed, or a save landed meanwhile: undo around it.
    if (ours && shaOf(intent.dst) === intent.afterSha) unlinkIfExists(abs(intent.dst));
    linkNoClobber(aside, abs(intent.src)); // fails only when a newer save took the place: it supersedes the held copy
    unlinkIfExists(aside);
    fsyncDir(path.dirname(aside));
    return undo(heldOk && !srcBack ? '' : ' (with the save made meanwhile)');
  }
  if (ours) {
    // Committed. A source still holding the planned bytes is a rename a power cut did not keep.
    if (!inPlace && shaOf(intent.src) === intent.beforeSha) unlinkIfExists(abs(intent.src));
    return rollForward(ctx, source, intent, done, memory);
  }
  // Never linked (or replaced by a newer save since): whatever is at the source is the memory.
  if (intent.beforeSha === '' || statIfExists(abs(intent.src))) return undo();
  return done(
    'conflict',
    `${memory}: an interrupted ${intent.event.action} found neither ${intent.src} nor its new copy in ${intent.dst}; nothing was touched`,
  );
}

/** Intents written by earlier versions (no aside step): as those versions recovered them. */
function recoverV1(ctx: ServiceContext, source: SourceInfo, intent: Intent): RecoveryOutcome {
  const { abs, shaOf, memory, done } = helpers(source, intent);
  const src = shaOf(intent.src);
  const dst = intent.dst === intent.src ? src : shaOf(intent.dst);
  if (dst === intent.afterSha) {
    if (intent.dst !== intent.src) {
      if (src !== null && src !== intent.beforeSha) {
        return done(
          'conflict',
          `${memory}: the new copy is in ${intent.dst} but ${intent.src} was changed since; both kept, resolve by hand`,
        );
      }
      unlinkIfExists(abs(intent.src));
      recordGitRename(source.root, intent.src, intent.dst);
    }
    unlinkIfExists(abs(intent.tmp));
    return rollForward(ctx, source, intent, done, memory);
  }
  // An empty before-sha marks a create: "as it was" means the file did not exist.
  if (src === intent.beforeSha || (intent.beforeSha === '' && src === null)) {
    unlinkIfExists(abs(intent.tmp));
    clearIntent(source.root, ctx.machine, intent.op);
    return done('rolled-back', `${memory}: interrupted ${intent.event.action} undone; the file is as it was`);
  }
  return done(
    'conflict',
    `${memory}: an interrupted ${intent.event.action} left ${intent.src} and ${intent.dst} in an unexpected state; nothing was touched`,
  );
}

/**
 * Recovery of every configured root (CLI and dashboard start-up, and before a scan).
 * Never waits for a live writer: a root whose lock is held is reported `deferred`,
 * its readers see the last committed state (`committedListing`), and recovery runs
 * at the next start-up or write once the lock is free. `waitMs` lets a caller wait.
 */
export function recoverAll(ctx: ServiceContext, opts: { waitMs?: number } = {}): RecoveryOutcome[] {
  // Record roots too: their file changes use the same journal, plus the record batch's own finish (docs/records-write.md).
  // A store refused at detection may be one whose only file a crash left moved aside: it is recovered too.
  // A root with no file of memtrust's own has nothing to recover: it is not looked into (in a
  // Claude Code home of 200 projects, most folders; looking into each took 0.1–0.2 s).
  const all = [...ctx.sources, ...(ctx.recordSources ?? [])].filter(
    (s) =>
      (!s.error || (!!s.refused && (fs.existsSync(metaDir(s.root)) || fs.existsSync(legacyMetaDir(s.root))))) &&
      hasOwnFiles(s.root),
  );
  for (const s of all) {
    tidyLock(s.root, ctx.machine);
    sweepBatchLeftovers(s.root, alive);
    sweepMarkerLeftovers(s.root, alive);
  }
  let redetect = false;
  const outcomes = all
    .map((s) => ({ s, undos: [...unfinishedUndos(s.root), ...unfinishedRecordBatches(s.root)] }))
    .filter(({ s, undos }) => undos.length > 0 || pendingIntents(s.root, ctx.machine).length > 0)
    .flatMap(({ s, undos }) => {
      try {
        return withRootLock(
          s.root,
          ctx.machine,
          () => {
            const out = recoverSource(ctx, s);
            if (!isFileSource(s) || unfinishedRecordBatches(s.root).length > 0) {
              // A crash with a record store's only file moved aside hides the store from detection;
              // with the file back (recoverSource), it is detected again (docs/records-write.md).
              const rs = isFileSource(s) ? describeSource(s.root) : s;
              if (isFileSource(rs)) return out;
              if (rs !== s) redetect = true;
              for (const r of finishRecordBatches(ctx, rs))
                out.push({ op: r.id, memory: '', outcome: r.outcome, message: r.message });
              return out;
            }
            // After the steps are settled: an undo whose files are all back gets its index file back too.
            for (const id of finishUndos(s, undos))
              out.push({
                op: id,
                memory: '',
                outcome: 'rolled-forward',
                message: `undo ${id} finished after an interruption`,
              });
            return out;
          },
          opts.waitMs ?? 0,
        );
      } catch (e) {
        if (!(e instanceof LockTimeoutError)) throw e;
        return [
          {
            op: '',
            memory: '',
            outcome: 'deferred' as const,
            message: `${s.root}: another memtrust process is writing; showing the last committed state`,
          },
        ];
      }
    });
  if (redetect) refreshSources(ctx);
  return outcomes;
}

function locationOfTier(tier: string | null): Location {
  return tier === 'quarantined' ? 'quarantine' : tier === 'archived' ? 'archive' : 'memories';
}

/**
 * The root's files as of the last committed state, for readers that do not take the
 * lock: a memory whose transition is in flight (or was cut short and awaits recovery)
 * is shown where it was, with the bytes it had — read from its private name while it
 * is moved aside — and its uncommitted new copy is not shown. Only this machine's
 * journal is consulted (docs/crash-safety.md, "Readers").
 */
export function committedListing(root: string, machine: string, listed: ListedFile[]): ListedFile[] {
  const pending = pendingIntents(root, machine);
  if (pending.length === 0) return listed;
  let out = listed;
  for (const { intent } of pending) {
    if (!intent) continue;
    const filename = path.posix.basename(intent.src);
    if (intent.v === 2 && intent.aside) {
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(root, intent.aside));
      } catch {
        continue; // not moved aside (not started, or committed): the disk is the committed state
      }
      const location = out.find((f) => f.relPath === intent.src)?.location ?? locationOfTier(intent.event.from);
      out = out.filter((f) => f.relPath !== intent.src && f.relPath !== intent.dst);
      out.push({
        relPath: intent.src,
        filename,
        location,
        size: st.size,
        mtimeMs: Math.floor(st.mtimeMs),
        readFrom: intent.aside,
      });
    } else if (intent.v !== 2 && intent.dst !== intent.src && out.some((f) => f.relPath === intent.src)) {
      // An earlier version's intent between link and source removal: not committed yet.
      out = out.filter((f) => f.relPath !== intent.dst);
    }
  }
  return out;
}

/**
 * The memory named `ref` as last committed, when a transition of this machine has
 * it moved aside right now (or was cut short there): its place before the
 * transition, read from the private name. Null when no such transition is pending.
 */
export function committedLocated(ctx: ServiceContext, ref: string, sourceId?: string): Located | null {
  const filename = path.basename(ref);
  for (const s of ctx.sources) {
    if (s.error || (sourceId && s.id !== sourceId)) continue;
    for (const { intent } of pendingIntents(s.root, ctx.machine)) {
      if (intent?.v !== 2 || !intent.aside || path.posix.basename(intent.src) !== filename) continue;
      const abs = path.join(s.root, intent.aside);
      if (fs.existsSync(abs))
        return { source: s, relPath: intent.src, abs, filename, location: locationOfTier(intent.event.from) };
    }
  }
  return null;
}
