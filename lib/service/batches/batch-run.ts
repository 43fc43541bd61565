/**
 * Runs a batch (docs/batches.md): snapshot first, then each step through the one
 * crash-safe transition path (applyToMemory → execute), every event tagged with
 * the batch id. This file never moves a memory itself.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../../audit/event';
import type { SourceInfo } from '../../sources';
import { isoNow } from '../../trust/dates';
import type { ServiceContext } from '../context';
import type { TransitionResult } from '../write/transition';
import { readIfExists } from '../write/fs-atomic';
import { sha256 } from '../index/inspect';
import { purgeRemovedCredentials } from './copy-purge';
import { batchDir, newBatchId, writeSnapshot, writeState, type BatchKind, type SnapshotFile } from './batch-store';

export interface StepIds {
  batch: string;
  /** A suggested operation id, unique within the batch (a retry of the batch reuses it). */
  opId: string;
  /** sha256 the file had when the snapshot was taken: the step is refused if it changed since. */
  expectSha: string;
}

export interface BatchStep {
  source: SourceInfo;
  memory: string;
  /** Where the file is now, relative to the root. */
  relPath: string;
  /** sha256 the caller planned with (what the user saw); a different file on disk is refused. */
  expectSha?: string;
  run(ids: StepIds): TransitionResult;
}

export interface StepResult {
  source: string;
  memory: string;
  file: string;
  result: TransitionResult;
}

export interface BatchOutcome {
  batch: string;
  kind: BatchKind;
  results: StepResult[];
  done: number;
  noop: number;
  refused: number;
}

export interface BatchOptions {
  kind: BatchKind;
  actor: Actor;
  /** A caller-chosen id (a single transition's op id); else a new one. */
  id?: string;
  undoes?: string;
}

const indexSha = (source: SourceInfo): string | null => {
  const f = source.adapter.files?.indexFile;
  const b = f ? readIfExists(path.join(source.root, f)) : null;
  return b ? sha256(b) : null;
};

export function runBatch(ctx: ServiceContext, opts: BatchOptions, steps: BatchStep[]): BatchOutcome {
  const now = ctx.now();
  const id = opts.id ?? newBatchId(now, crypto.randomBytes(4).toString('hex'));
  const results: StepResult[] = [];
  const ready: { step: BatchStep; sha: string }[] = [];
  const bySource = new Map<string, { source: SourceInfo; files: SnapshotFile[]; blobs: Buffer[] }>();
  for (const step of steps) {
    const bytes = readIfExists(path.join(step.source.root, step.relPath));
    const sha = bytes ? sha256(bytes) : null;
    if (!bytes || !sha || (step.expectSha && step.expectSha !== sha)) {
      const message = `${step.memory} ${bytes ? 'changed' : 'disappeared'} on disk since the plan was made: left as it is`;
      results.push({
        source: step.source.id,
        memory: step.memory,
        file: step.relPath,
        result: { ok: false, code: 'conflict', message },
      });
      continue;
    }
    const entry = bySource.get(step.source.id) ?? { source: step.source, files: [], blobs: [] };
    entry.files.push({ memory: step.memory, rel: step.relPath, sha });
    entry.blobs.push(bytes);
    bySource.set(step.source.id, entry);
    ready.push({ step, sha });
  }
  // The snapshot is durable before the first byte of any memory changes.
  const created: SourceInfo[] = [];
  for (const { source, files, blobs } of bySource.values()) {
    const indexFile = source.adapter.files?.indexFile;
    const index = indexFile ? readIfExists(path.join(source.root, indexFile)) : null;
    const fresh = writeSnapshot(
      source.root,
      {
        v: 1,
        id,
        kind: opts.kind,
        at: isoNow(now),
        machine: ctx.machine,
        actor: opts.actor,
        ...(opts.undoes ? { undoes: opts.undoes } : {}),
        files,
        ...(indexFile ? { index: { file: indexFile, sha: index ? sha256(index) : null } } : {}),
      },
      index ? [...blobs, index] : blobs,
    );
    if (fresh) created.push(source);
  }
  ready.forEach(({ step, sha }, i) => {
    const result = step.run({ batch: id, opId: `${id}-${i + 1}`, expectSha: sha });
    results.push({ source: step.source.id, memory: step.memory, file: step.relPath, result });
  });
  // Written once, at the end: an interrupted batch has none, and undo then checks the
  // index against its saved copy outside the batch's own lines (undo.ts).
  const count = (f: (r: TransitionResult) => boolean) => results.filter((r) => f(r.result)).length;
  const changed = count((r) => r.ok && !r.noop);
  // A retried operation found its snapshot from the first try: that record stays as it was.
  for (const source of created) {
    // A batch that changed nothing keeps no copies (a refused single transition).
    if (changed === 0) {
      fs.rmSync(batchDir(source.root, id), { recursive: true, force: true });
    }
    // An undo writes its state itself, after it has put the index file back (undo.ts).
    else if (opts.kind !== 'undo') writeState(source.root, id, { indexAfterSha: indexSha(source), done: true });
  }
  // A repair removes credential values, and an undo may put older bytes back: no undo copy may
  // keep a value its memory no longer holds, this batch's own included (copy-purge.ts).
  if (changed > 0 && (opts.kind === 'repair' || opts.kind === 'undo'))
    for (const { source, files } of bySource.values())
      purgeRemovedCredentials(
        ctx,
        source,
        files.map((f) => f.memory),
      );
  return {
    batch: id,
    kind: opts.kind,
    results,
    done: changed,
    noop: count((r) => r.ok && r.noop),
    refused: count((r) => !r.ok),
  };
}
