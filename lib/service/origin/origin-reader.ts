/**
 * The dashboard reads transcripts in the background (docs/origin.md "In the dashboard"): a
 * cold lookup in a 200 MB transcript takes over a second, and no page waits for it. Pages and
 * scans use the transcript cache only; what is missing is handed here, read chunk by chunk
 * asynchronously (the event loop answers requests between chunks), one transcript at a
 * time, then the index rows still without an origin are answered from the cache and a mark
 * is written to the index, so open pages refresh (LiveRefresh) and find it cached.
 */
import type { ServiceContext } from '../context';
import { originDataDir } from './memory-origin';
import { sessionScanAsync } from './origin';
import { fillOrigins, pendingOrigins, pendingTranscripts } from './origin-index';

export interface OriginReader {
  /** Read the transcripts the index's rows still wait for, and `files` (a page's transcript). */
  kick(files?: readonly string[]): void;
  /** Resolves when nothing is being read (tests). */
  idle(): Promise<void>;
}

/** The index meta key written after a background read: its change refreshes open pages. */
export const ORIGIN_READ_MARK = 'origin_read';

export function originReader(
  context: () => ServiceContext | undefined,
  onError: (e: unknown) => void = () => {},
): OriginReader {
  let running: Promise<void> | null = null;
  let again = false;
  const asked = new Set<string>();
  const loop = async () => {
    do {
      again = false;
      const ctx = context();
      if (!ctx) return;
      const files = [...asked];
      asked.clear();
      try {
        await readOnce(ctx, files);
      } catch (e) {
        onError(e);
      }
    } while (again);
  };
  return {
    kick(files = []) {
      for (const f of files) asked.add(f);
      if (running) {
        again = true;
        return;
      }
      running = loop().finally(() => {
        running = null;
      });
    },
    async idle() {
      while (running) await running;
    },
  };
}

/** One round: every missing transcript read, the rows answered, the mark written. */
export async function readOnce(ctx: ServiceContext, extra: readonly string[] = []): Promise<number> {
  const sqlite = ctx.handle.sqlite;
  const dataDir = originDataDir(ctx);
  const owner = ctx.owner();
  const files = new Set([...pendingTranscripts(pendingOrigins(sqlite, ctx.sources)), ...extra]);
  if (files.size === 0) return 0;
  let ok = 0;
  const unreadable = new Set<string>();
  for (const f of files) {
    if ((await sessionScanAsync(f, owner, dataDir)).ok) ok++;
    else unreadable.add(f);
  }
  // A transcript that cannot be read is "origin unknown" (no flag), never waited for again.
  fillOrigins(sqlite, ctx.sources, owner, dataDir, { read: false, unreadable });
  sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(ORIGIN_READ_MARK, String(Date.now()));
  return ok;
}
