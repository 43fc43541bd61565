/** The files of the freshness protocol (docs/freshness.md), shared by the watcher and the asker. */
import path from 'node:path';
import type { SourceInfo } from '../../sources';

/** Written by the watching process after each scan. */
export interface Lease {
  pid: number;
  /** Which roots it watches (monitorKey). */
  key: string;
  /** Rows of the last scan: askers with a small index just scan. */
  files: number;
}

/** The watcher's reply to one cookie. `stamps`: each watched directory's mtime when its last scan began (-1: absent). */
export type Answer = { clean: true; key: string; stamps: [string, number][] } | { clean: false };

export const COOKIE_RE = /^q-\d+-[0-9a-f]{8}$/;

export const watchDir = (dbPath: string) => `${dbPath}.watch`;
export const leasePath = (dbPath: string) => path.join(watchDir(dbPath), 'lease.json');
export const answerPath = (cookie: string) => `${cookie}.answer`;

/** The roots as the scan sees them: a watcher of other roots cannot vouch for ours. */
export function monitorKey(sources: SourceInfo[]): string {
  return JSON.stringify(sources.map((s) => [s.id, s.root, s.kind, s.error ?? '']));
}
