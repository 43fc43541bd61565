/**
 * The inspect pool's worker (inspect-pool.ts): claims batches of the job from the shared
 * counter until none is left, reads, inspects and makes the rows of each with read-one.ts, posts them
 * on the port and bumps the reply counter the scan's main thread waits on. Bundled on its
 * own by worker-bundle.ts; it never touches the index.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import type { OwnerIdentity } from '../../validators/types';
import { readPrepared } from './read-one';
import type { PoolFileResult, PoolJob, PoolReply } from './inspect-pool';

const { port, owner } = workerData as { port: MessagePort; owner: OwnerIdentity };

port.once('message', (job: PoolJob) => {
  for (let seq = Atomics.add(job.claim, 0, 1); seq < job.batches.length; seq = Atomics.add(job.claim, 0, 1)) {
    const batch = job.batches[seq]!;
    let reply: PoolReply;
    try {
      const files: PoolFileResult[] = batch.files.map((f, i) => {
        const result = readPrepared(job.root, job.sourceId, f, owner, batch.prior[i] ?? null, job.keepBytes);
        // A file listed without a stat takes its size and mtime from the open file (read-one.ts).
        return { size: f.size, mtimeMs: f.mtimeMs, result };
      });
      reply = { seq, files };
    } catch (e) {
      // readOne turns an inspection failure into an error row; anything else: the main thread does the batch.
      reply = { seq, failed: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
    Atomics.add(job.replied, 0, 1);
    Atomics.notify(job.replied, 0);
  }
});
