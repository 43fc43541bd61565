/**
 * Reading and inspecting a large scan's files on worker threads (docs/performance.md, "Both
 * cores"): the contract's checks are most of a full index's work, and one thread leaves the
 * other cores idle. The scan stays synchronous and writes rows in exactly the order the main
 * thread alone would: it takes the batches' results back in order.
 *
 * Every worker gets the whole list of batches once and claims them one at a time from a
 * shared counter (Atomics.add), so a slow batch holds up no other. When the main thread needs
 * a batch that is not back yet, it claims the next unclaimed one and does it itself instead of
 * idling; only when every batch is claimed does it wait, on a counter each worker bumps after
 * posting (Atomics.wait, receiveMessageOnPort).
 *
 * A worker runs read-one.ts, as the main thread does, on a structured clone of the listed
 * files; sizes and mtimes found by opening a file come back with its result. A batch a worker
 * could not do, or that nothing came back for in STALL_MS, the main thread does itself.
 */
import os from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { ListedFile } from '../../sources';
import type { OwnerIdentity } from '../../validators/types';
import type { PreparedResult } from './read-one';
import { workerCode } from './worker-bundle';

/** One batch: the files and, per file, the row's sha256 where the file may be only touched (read-one.ts). */
export interface PoolBatch {
  files: ListedFile[];
  prior: (string | null)[];
}

/** What the workers get once: every batch, the claim counter and the reply counter. */
export interface PoolJob {
  root: string;
  /** Each read file's bytes come back with its row (the version store's, docs/versions.md). */
  keepBytes?: boolean;
  sourceId: string;
  batches: PoolBatch[];
  claim: Int32Array;
  replied: Int32Array;
}

export interface PoolFileResult {
  size: number;
  mtimeMs: number;
  result: PreparedResult;
}

export type PoolReply = { seq: number; files: PoolFileResult[] } | { seq: number; failed: string };

/** No reply from any worker for this long while one is owed: the rest is done on the main thread. */
const STALL_MS = 30_000;

export interface InspectPool {
  /** Batch `seq`'s results, `seq` taken in order from 0; `here(k)` does batch k on the calling thread. */
  take(seq: number, here: (k: number) => PoolFileResult[]): PoolFileResult[];
  /** How many batches have been claimed so far (by a worker or by `take`). */
  claimed(): number;
  /** Takes in the replies posted so far, without waiting; returns how many files are read and checked. */
  poll(): number;
  /** Stops the workers (idempotent). */
  close(): void;
}

/**
 * Worker threads for a full index: one fewer than the cores this process may use (the main
 * thread writes the rows, mirrors the audit trail and inspects when it would wait), at
 * most 4; MEMTRUST_WORKERS sets it, 0 turns the pool off.
 */
export function defaultWorkers(): number {
  const set = process.env.MEMTRUST_WORKERS;
  if (set !== undefined && set !== '') {
    const n = Number(set);
    return Number.isInteger(n) && n >= 0 ? Math.min(n, 16) : 0;
  }
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(0, Math.min(cores - 1, 4));
}

/** `size` workers inspecting `batches` of root `sourceId` at `root` under `owner`; null when the worker's script cannot be had. */
export function openInspectPool(
  size: number,
  owner: OwnerIdentity,
  root: string,
  sourceId: string,
  batches: PoolBatch[],
  opts: {
    /** False: `take` never claims a batch itself, every batch is a worker's (tests). */
    mainHelps?: boolean;
    /** The worker's code instead of inspect-worker.ts's bundle (tests: a worker that fails). */
    code?: string;
    /** Each read file's bytes come back with its row (PoolJob.keepBytes). */
    keepBytes?: boolean;
  } = {},
): InspectPool | null {
  if (size < 1 || batches.length === 0) return null;
  const mainHelps = opts.mainHelps ?? true;
  const code = opts.code ?? workerCode('inspect-worker', 'lib/service/index/inspect-worker.ts');
  if (!code) return null;
  const claim = new Int32Array(new SharedArrayBuffer(4));
  const replied = new Int32Array(new SharedArrayBuffer(4));
  const job: PoolJob = { root, sourceId, batches, claim, replied, keepBytes: opts.keepBytes };
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < size; i++) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(code, {
      eval: true,
      workerData: { port: port2, owner },
      transferList: [port2],
      stdout: true,
      stderr: true,
    });
    // A worker that dies (it could not start, it ran out of memory) leaves its batches to the
    // main thread (`take`); its error must not reach the process as an uncaught one.
    worker.on('error', () => {});
    // Nothing of the pool keeps the process alive once the scan is done.
    worker.unref();
    port1.unref();
    port1.postMessage(job);
    workers.push(worker);
    ports.push(port1);
  }
  const done = new Map<number, PoolFileResult[]>();
  /** Batches a worker could not do: `take` does them. */
  const failed = new Set<number>();
  let checkedFiles = 0;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    // Batches not claimed yet are nobody's: a worker still running claims none after this.
    Atomics.store(claim, 0, batches.length);
    for (const p of ports) p.close();
    for (const w of workers) void w.terminate();
  };
  /** Takes in every reply posted so far. */
  const drain = () => {
    for (const p of ports)
      for (let got = receiveMessageOnPort(p); got; got = receiveMessageOnPort(p)) {
        const reply = got.message as PoolReply;
        if ('failed' in reply) failed.add(reply.seq);
        else {
          done.set(reply.seq, reply.files);
          checkedFiles += reply.files.length;
        }
      }
  };
  /** Batch k done on this thread. */
  const doHere = (k: number, here: (k: number) => PoolFileResult[]) => {
    const files = here(k);
    checkedFiles += files.length;
    return files;
  };
  return {
    take(seq, here) {
      for (;;) {
        const ready = done.get(seq);
        if (ready) {
          done.delete(seq);
          return ready;
        }
        if (!open || failed.delete(seq)) return doHere(seq, here);
        const seen = Atomics.load(replied, 0);
        drain();
        if (done.has(seq) || failed.has(seq)) continue;
        const k = mainHelps ? Atomics.add(claim, 0, 1) : batches.length;
        if (k < batches.length) {
          done.set(k, doHere(k, here));
          continue;
        }
        // Every batch is claimed (or we may not claim) and ours is a worker's: wait for a reply.
        if (Atomics.wait(replied, 0, seen, STALL_MS) === 'timed-out') close();
      }
    },
    claimed: () => Math.min(Atomics.load(claim, 0), batches.length),
    poll() {
      if (open) drain();
      return checkedFiles;
    },
    close,
  };
}
