/**
 * `memtrust scan` reads the transcripts its Claude Code memories name, once, so later
 * origin lookups (show, the memory page, promote, back-fill, the session context) find
 * them in the cache (docs/origin.md "Cost"). Only a folder with transcripts beside it is
 * looked at, only sessions a memory names are read, and an unchanged transcript is not
 * read again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../context';
import { readFields } from '../index/inspect';
import { FILE_CAP_BYTES } from '../../validators/types';
import { batched, cachedScan } from './origin-cache';
import { sessionScan, transcriptPath } from './origin';
import { originDataDir } from './memory-origin';

export interface WarmStats {
  /** Memories that name a session whose transcript exists. */
  memories: number;
  transcripts: number;
  /** Transcripts read now (the rest came from the cache). */
  read: number;
  bytesRead: number;
  ms: number;
}

export function warmOrigins(ctx: ServiceContext, clock: () => number = Date.now): WarmStats {
  return batched(originDataDir(ctx), () => warm(ctx, clock));
}

function warm(ctx: ServiceContext, clock: () => number): WarmStats {
  const t0 = clock();
  const stats: WarmStats = { memories: 0, transcripts: 0, read: 0, bytesRead: 0, ms: 0 };
  const dataDir = originDataDir(ctx);
  const owner = ctx.owner();
  const seen = new Set<string>();
  for (const source of ctx.sources) {
    if (source.error || source.kind !== 'claude-code') continue;
    let hasAny = false;
    try {
      hasAny = fs.readdirSync(path.dirname(source.root)).some((n) => n.endsWith('.jsonl'));
    } catch {
      continue;
    }
    if (!hasAny) continue;
    const rows = ctx.handle.sqlite
      .prepare(`SELECT rel_path AS relPath FROM entries WHERE source = ? AND location = 'memories' AND error IS NULL`)
      .all(source.id) as { relPath: string }[];
    for (const { relPath } of rows) {
      const abs = path.join(source.root, ...relPath.split('/'));
      let sessionId: string | undefined;
      try {
        if (fs.statSync(abs).size > FILE_CAP_BYTES) continue;
        sessionId = readFields(fs.readFileSync(abs)).fields.originSessionId;
      } catch {
        continue;
      }
      const t = transcriptPath(source.root, sessionId);
      if ('why' in t) continue;
      stats.memories++;
      if (seen.has(t.file)) continue;
      seen.add(t.file);
      stats.transcripts++;
      let st: fs.Stats;
      try {
        st = fs.statSync(t.file);
      } catch {
        continue;
      }
      if (cachedScan(t.file, st, dataDir)) continue;
      if (sessionScan(t.file, owner, dataDir).ok) {
        stats.read++;
        stats.bytesRead += st.size;
      }
    }
  }
  stats.ms = clock() - t0;
  return stats;
}
