/**
 * The index's watcher, and the cookie protocol that lets another process skip its rescan
 * (docs/freshness.md).
 *
 * A long-running process (the dashboard, `memtrust watch`) watches every directory its file
 * roots' adapters list, and marks the index dirty on any event there. A scan clears the flag.
 * A CLI process that wants a current index creates a cookie file in `<db>.watch/`; the
 * watcher of that folder shares one inotify queue with the others (one per event loop, in
 * order), so when the cookie's event arrives here every event before it has been seen: if
 * the flag is still clear, no file changed since the last scan began, and the answer says
 * so. Anything this process cannot vouch for (a watch that failed, a root with an error)
 * makes it answer "dirty", and the asker scans as before.
 */
import { metaDir } from '../meta/places';
import { auditDir } from '../audit/audit-log';
import fs from 'node:fs';
import path from 'node:path';
import type { FileSourceInfo } from '../../sources';
import { runSteps, type Steps } from './steps';
import { type Answer, answerPath, COOKIE_RE, type Lease, leasePath, monitorKey, watchDir } from './monitor-files';

export interface Monitor {
  /** True once any watched directory changed since the last `beginScan`. */
  readonly dirty: boolean;
  /** Watch the directories of these sources (new ones added, vanished or replaced ones re-made). */
  watch(sources: FileSourceInfo[]): void;
  /** `watch` in steps of WATCH_STEP directories (the dashboard's first scan, lib/server/first-scan.ts). */
  watchSteps(sources: FileSourceInfo[]): Steps<void>;
  /**
   * A scan is about to read the disk: events from here on are after it began. Returns the
   * memory files (absolute paths) events named since the last `beginScan`, or null when
   * the events do not say which files alone changed (docs/freshness.md, "Targeted rescans").
   */
  beginScan(): Set<string> | null;
  /** The scan finished (or failed): publish the lease with the index's size. */
  endScan(ok: boolean, files: number): void;
  markDirty(): void;
  close(): void;
}

/** The directories a file root's adapter lists, each with the one it lives in (watched too). */
export function dirsOf(source: FileSourceInfo): string[] {
  return [...rolesOf(source).keys()];
}

/**
 * What an event in each watched directory can mean: `files` holds memory files (an event
 * names one), `layout` holds the folders a listing walks (an event there may add or remove
 * a folder), `audit` holds the audit trail (mirrored from its cursors at every scan). A
 * Claude Code folder's root is both `files` and `layout`.
 */
type Role = { files: boolean; layout: boolean };

function rolesOf(source: FileSourceInfo): Map<string, Role> {
  const a = source.adapter.files;
  const roles = new Map<string, Role>();
  const add = (rel: string, r: Partial<Role>) => {
    const abs = path.resolve(source.root, rel);
    const had = roles.get(abs) ?? { files: false, layout: false };
    roles.set(abs, { files: had.files || !!r.files, layout: had.layout || !!r.layout });
  };
  add('', { layout: true });
  // memtrust's own files: in the root, or in the data directory (lib/service/meta/places.ts).
  add(metaDir(source.root), { layout: true });
  add(auditDir(source.root), {});
  add(a.dirOf('memories'), { files: true });
  add(a.dirOf('quarantine'), { files: true });
  const archiveBase = path.posix.dirname(a.dirOf('archive', '0000-00'));
  add(archiveBase, { layout: true });
  try {
    for (const m of fs.readdirSync(path.join(source.root, archiveBase), { withFileTypes: true }))
      if (m.isDirectory()) add(`${archiveBase}/${m.name}`, { files: true });
  } catch {
    // no archive yet: its creation is an event in the root
  }
  return roles;
}

/**
 * Past this many named files, or this many events of any kind, a rescan lists everything: a
 * burst this large (a checkout, a sync, an editor's temporary files) may also have overflowed
 * the kernel's event queue (16,384 events by default), which drops events silently (Node
 * does not report the overflow). A dropped event comes after a full queue, so after more
 * than this many events this process read.
 */
const MAX_NAMED = 1000;

/** Directories watched per step of `watchSteps`: a home of 200 projects has about 900. */
const WATCH_STEP = 64;

interface Watched {
  handle: fs.FSWatcher;
  ino: number;
}

export function startMonitor(dbPath: string, onDirty: () => void = () => {}): Monitor {
  const dir = watchDir(dbPath);
  const watched = new Map<string, Watched>();
  const roles = new Map<string, Role>();
  let dirty = true;
  /** Memory files named by events since the last beginScan; null: not known which (docs/freshness.md). */
  let named: Set<string> | null = null;
  /** Events of any kind read since the last beginScan, the cookies' included (MAX_NAMED). */
  let events = 0;
  /** A directory that must be watched is not (watch failed, root unusable): never vouch. */
  let blind = true;
  /**
   * This scan placed a watch on a directory not watched before (new, or replaced): what it
   * held before its watch made no event, so the scan lists everything (docs/freshness.md).
   */
  let placed = false;
  let key = '';
  let stamps: [string, number][] = [];
  /**
   * From the watches of a scan to its end. A scan run in steps lets a cookie be answered in
   * between; the index is not current until the scan ends, so it is answered "dirty".
   */
  let scanning = false;

  const setDirty = () => {
    if (!dirty) {
      dirty = true;
      onDirty();
    }
  };

  /** What one event in `d` says: a memory file by name, or that the next scan must list everything. */
  const noteEvent = (d: string, name: string | Buffer | null) => {
    events++;
    if (named !== null) {
      const role = roles.get(d);
      if (!role || typeof name !== 'string' || name.includes('/')) named = null;
      else if (role.files && name.endsWith('.md')) {
        named.add(`${d}/${name}`);
        if (named.size > MAX_NAMED) named = null;
      } else if (role.layout && !role.files) named = null;
      else if (role.layout && !name.endsWith('.md') && !name.startsWith('.')) named = null;
      // else: a temporary or hidden file beside the memories, or an audit append: no listing changes
    }
    setDirty();
  };

  const answer = (name: string) => {
    const cookie = path.join(dir, name);
    if (!fs.existsSync(cookie)) return; // the asker gave up already
    const a: Answer = !dirty && !blind && !scanning ? { clean: true, key, stamps } : { clean: false };
    const tmp = `${answerPath(cookie)}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(a));
      fs.renameSync(tmp, answerPath(cookie));
    } catch {
      // the asker times out and scans
    }
  };

  // The questions folder: where it cannot be made or watched (a read-only database folder, the
  // watch limit), this process still keeps its own index fresh but answers nobody.
  let cookies: fs.FSWatcher | null = null;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    sweep(dir);
    cookies = fs.watch(dir, { persistent: false }, (_event, name) => {
      events++;
      if (typeof name === 'string' && COOKIE_RE.test(name)) answer(name);
    });
    cookies.on('error', () => {
      blind = true;
    });
  } catch {
    cookies = null;
  }

  const dropLease = () => {
    try {
      const lease = JSON.parse(fs.readFileSync(leasePath(dbPath), 'utf8')) as Lease;
      if (lease.pid === process.pid) fs.rmSync(leasePath(dbPath), { force: true });
    } catch {
      // gone already
    }
  };
  process.on('exit', dropLease);

  const unwatch = (d: string) => {
    watched.get(d)?.handle.close();
    watched.delete(d);
  };

  function* watching(sources: FileSourceInfo[]): Steps<void> {
    scanning = true;
    let complete = true;
    const wanted = new Set<string>();
    roles.clear();
    for (const s of sources) {
      if (s.error) {
        complete = false;
        continue;
      }
      for (const [d, role] of rolesOf(s)) {
        wanted.add(d);
        const had = roles.get(d);
        roles.set(d, had ? { files: had.files || role.files, layout: had.layout || role.layout } : role);
      }
    }
    for (const d of [...watched.keys()]) if (!wanted.has(d)) unwatch(d);
    const nextStamps: [string, number][] = [];
    let n = 0;
    for (const d of [...wanted].sort()) {
      if (++n % WATCH_STEP === 0) yield;
      let st: fs.Stats;
      try {
        st = fs.statSync(d);
      } catch {
        // Missing: its creation is an event in its parent, which is wanted too (the root is
        // checked by the source itself). Stamp it as absent.
        unwatch(d);
        nextStamps.push([d, -1]);
        continue;
      }
      nextStamps.push([d, st.mtimeMs]);
      const w = watched.get(d);
      if (w && w.ino === st.ino) continue;
      unwatch(d);
      try {
        const handle = fs.watch(d, { persistent: false }, (_event, name) => noteEvent(d, name));
        handle.on('error', () => {
          blind = true;
          named = null;
          setDirty();
        });
        watched.set(d, { handle, ino: st.ino });
        placed = true;
      } catch {
        complete = false; // watch limit reached, permissions: this process cannot vouch
      }
    }
    blind = !complete;
    stamps = nextStamps;
    key = monitorKey(sources);
  }

  return {
    get dirty() {
      return dirty;
    },
    watch(sources) {
      runSteps(watching(sources));
    },
    watchSteps: watching,
    beginScan() {
      const seen = blind || placed || events > MAX_NAMED ? null : named;
      placed = false;
      dirty = false;
      named = new Set();
      events = 0;
      return seen;
    },
    endScan(ok, files) {
      scanning = false;
      if (!ok) {
        // Not current: try again once things settle (setDirty schedules it), listing everything.
        dirty = false;
        named = null;
        setDirty();
      }
      if (!cookies) return;
      const lease: Lease = { pid: process.pid, key, files };
      try {
        const tmp = `${leasePath(dbPath)}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(lease));
        fs.renameSync(tmp, leasePath(dbPath));
      } catch {
        // without a lease, askers scan as before
      }
    },
    markDirty() {
      named = null;
      setDirty();
    },
    close() {
      cookies?.close();
      for (const d of [...watched.keys()]) unwatch(d);
      process.off('exit', dropLease);
      dropLease();
    },
  };
}

/** Cookies and answers left by askers that died or gave up. */
function sweep(dir: string): void {
  const old = Date.now() - 60_000;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith('q-')) continue;
      const p = path.join(dir, name);
      try {
        if (fs.statSync(p).mtimeMs < old) fs.rmSync(p, { force: true });
      } catch {
        // raced with its owner
      }
    }
  } catch {
    // nothing to sweep
  }
}
