/**
 * Intent records of in-flight transitions: `journal/<machine>-<op>.json` in the root's
 * own-files folder (`<root>/.memtrust/`, or the data directory for a store in a git
 * checkout: lib/service/meta/places.ts); an earlier version's intents in the root are read too.
 * Written (and fsynced) before any memory byte changes, removed after the audit
 * event is durable, so a crash at any step leaves enough to roll forward or back.
 * Kept in files, not the cache: deleting the database must not lose them.
 *
 * Two shapes live on disk (docs/crash-safety.md, "Journal"): `v: 1` intents, written
 * by earlier versions, recover as they always did; `v: 2` intents name the private
 * `aside` name the source is moved to before the switch. Fields are only ever added.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEvent } from '../../audit/event';
import { fsyncDir, mkdirp, writeFileDurable, unlinkIfExists } from './fs-atomic';
import { metaDir, metaDirsToRead } from '../meta/places';

export interface IndexEdit {
  /** Index file relative to the root (MEMORY.md). */
  file: string;
  kind: 'remove' | 'insert';
  line: string;
  at: number;
}

export interface Intent {
  /** 1: written by earlier versions (no aside step); 2: the source is moved aside first. */
  v: 1 | 2;
  op: string;
  machine: string;
  /** Paths relative to the root. */
  src: string;
  dst: string;
  tmp: string;
  beforeSha: string;
  afterSha: string;
  /**
   * v2, when a source exists (not for a create): the private name, in the source's
   * folder, the source is renamed to before its bytes are compared and the new copy
   * linked in. While it exists the transition has not committed.
   */
  aside?: string;
  event: AuditEvent;
  indexEdit?: IndexEdit;
  /**
   * The events the finish appends instead of `event` (docs/records-write.md): a record
   * batch's file changes carry `[]`, its per-record events are appended once every
   * file of the batch is in place. Absent: `[event]`, as always.
   */
  events?: AuditEvent[];
  /** `dst` is a private holding place under `.memtrust/` (a file a record batch removes), not a new home: no git rename. */
  trash?: boolean;
}

export function journalDir(root: string): string {
  return path.join(metaDir(root), 'journal');
}

function journalFile(root: string, machine: string, op: string): string {
  return path.join(journalDir(root), `${machine}-${op}.json`);
}

/** The intent's file wherever it is: written here, or by an earlier version in the root. */
function journalFiles(root: string, machine: string, op: string): string[] {
  return metaDirsToRead(root, 'journal').map((d) => path.join(d, `${machine}-${op}.json`));
}

export function writeIntent(root: string, intent: Intent): void {
  const dir = journalDir(root);
  mkdirp(dir);
  const file = journalFile(root, intent.machine, intent.op);
  unlinkIfExists(file);
  writeFileDurable(file, Buffer.from(JSON.stringify(intent)));
  fsyncDir(dir);
}

export function clearIntent(root: string, machine: string, op: string): void {
  for (const file of journalFiles(root, machine, op)) {
    if (file !== journalFile(root, machine, op) && !fs.existsSync(file)) continue;
    unlinkIfExists(file);
    fsyncDir(path.dirname(file));
  }
}

/** This machine's unfinished intents (other machines' journals travel with a synced root but are theirs). */
export function pendingIntents(root: string, machine: string): { file: string; intent: Intent | null }[] {
  return metaDirsToRead(root, 'journal').flatMap((dir) => intentsIn(dir, machine));
}

function intentsIn(dir: string, machine: string): { file: string; intent: Intent | null }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(`${machine}-`) && n.endsWith('.json'))
    .sort()
    .map((n) => {
      const file = path.join(dir, n);
      try {
        return { file, intent: JSON.parse(fs.readFileSync(file, 'utf8')) as Intent };
      } catch {
        // A journal write cut short: nothing had been changed yet (intent comes first).
        return { file, intent: null };
      }
    });
}
