/**
 * Non-recursive watchers on the directories that hold memories and audit files.
 * Recursive watching would put a watch on every file of a 100k-memory root.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceInfo } from '../../sources';

export interface Watchers {
  close(): void;
}

function dirsOf(source: SourceInfo): string[] {
  const a = source.adapter;
  const rel = new Set(['', a.dirOf('memories'), a.dirOf('quarantine'), '.memtrust/audit']);
  const archiveBase = path.posix.dirname(a.dirOf('archive', '0000-00'));
  rel.add(archiveBase);
  try {
    for (const m of fs.readdirSync(path.join(source.root, archiveBase))) rel.add(`${archiveBase}/${m}`);
  } catch {
    // no archive yet
  }
  return [...rel].map((r) => path.join(source.root, r));
}

export function watchSources(sources: SourceInfo[], onChange: () => void): Watchers {
  const handles: fs.FSWatcher[] = [];
  for (const s of sources) {
    if (s.error) continue;
    for (const dir of dirsOf(s)) {
      try {
        const w = fs.watch(dir, { persistent: false }, () => onChange());
        w.on('error', () => onChange());
        handles.push(w);
      } catch {
        // Directory missing or watch limit reached: the periodic scan still covers it.
      }
    }
  }
  return {
    close: () => {
      for (const h of handles) h.close();
    },
  };
}
