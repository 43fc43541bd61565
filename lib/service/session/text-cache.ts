/**
 * The session text kept between session starts (docs/session-context.md, "The kept text").
 *
 * A session start in an unchanged project makes the same text as the last one. The run that
 * makes it records everything it depended on — each file it read or stat'ed (by its stat:
 * device, inode, mode, size, mtime and ctime to the nanosecond), each folder it listed (by the
 * names it got), each path it only tested for existence, each environment variable, the home
 * folder, the host and the working folder it asked for — and until when its clock-dependent
 * parts hold (an observation's end, the next UTC midnight). The next session start with the same
 * arguments and working folder checks those and, when every one answers as recorded, writes the
 * kept answer without loading the planner: its cost is the listing's stats, not the plan's.
 *
 * Recording wraps the functions of node:fs, node:os and process.env the run calls, installed
 * before the planner's bundle is loaded (so nothing is read past it), rather than a list of
 * inputs kept by hand that the next change to the planner would forget. Anything it cannot
 * record as a dependency — an asynchronous read, a child process, a listing through an open
 * directory, a transcript left unread for time, an error — and any file changed in the two
 * seconds before the run (a change inside the file system's clock tick could keep its stat) leaves
 * nothing kept. memtrust's own caches (the kept checks, versions, origin and code caches) are
 * not dependencies: they hold what the files say, and the answer is the same without them.
 *
 * This module is bundled into the hooks' small entries, so it imports nothing of the planner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readHookStdin, setHookStdin } from './hook-stdin';
import { beginTakenStats, keepTakenStat, lstatBinding } from '../../sources/lstat-binding';
import { replaceFile, sweepStaleTemps } from '../replace-file';

/** Bumped whenever an entry's meaning changes. */
const FORMAT = 1;
/** Files checked before the listings: the ones changed last. */
const FILES_FIRST = 8;
/** A file whose ctime is this close to the run's start may have changed inside one clock tick. */
const RACY_MS = 2_000;
/** The global through which the planner's bundle reaches the recorder of this run (if any). */
const RECORDER = Symbol.for('memtrust.session-text.recorder');

type Kind = 's' | 'e' | 't' | 'd' | 'D' | 'r' | 'k';
/** [path, kind, what was seen]: a stat's signature, existence, being a folder, a listing's names, a real path, a link. */
type Dep = [string, 's', Sig] | [string, Exclude<Kind, 's'>, string];

export interface Entry {
  v: number;
  key: string;
  /** The run's clock (MEMTRUST_NOW or the wall) and until when its text holds. */
  now: number;
  until: number;
  facts: [string, string | null][];
  deps: Dep[];
  /**
   * The files' stats (links aside, which are in deps): their paths, and their signatures' eight
   * numbers each in one flat list. Flat, because the next start parses this before it plans:
   * an array per file there was garbage the planner's run then paid to collect.
   */
  sp: string[];
  sn: number[];
  out: string;
}

/** The folder memtrust keeps its caches in: the index database's (config.ts indexPath). */
export function cacheDirOf(env: NodeJS.ProcessEnv): string {
  if (env.MEMTRUST_DB) return path.dirname(path.resolve(env.MEMTRUST_DB));
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'memtrust');
}

/**
 * Deletes every kept text in `dir` (the caches' folder). Called when the known credential values
 * change (known-values-store.ts): a kept text quotes bodies of trust-model roots, and one made
 * before a value was known to be a credential could hold it (CONTRACT §2.5: no copy anywhere).
 */
export function forgetKeptTexts(dir: string): void {
  fs.rmSync(path.join(dir, 'session-text'), { recursive: true, force: true });
}

/**
 * Set (to 1) by the refresher that makes a kept text again after a write (text-refresh.ts): the
 * run answers nothing. `off` in the stamp's environment starts no refresher.
 */
export const REFRESH_VAR = 'MEMTRUST_SESSION_REFRESH';

/** `MEMTRUST_SESSION_CACHE=off` turns the kept text off (tests compare with and without). */
export function textCacheOn(env: NodeJS.ProcessEnv): boolean {
  return env.MEMTRUST_SESSION_CACHE !== 'off';
}

type RawLstat = (p: string) => ArrayLike<number> | undefined;
let rawLstat: RawLstat | null | undefined;

/** lstat through the binding (lib/sources/lstat-binding.ts), undefined for a missing path. */
function binding(): RawLstat | null {
  const raw = lstatBinding();
  return raw && ((p) => raw(p, false));
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * A stat as numbers: device, mode, inode, size, mtime (s, ns), ctime (s, ns); [] when nothing is
 * there, [-1] when the stat failed otherwise; a link's own stat followed by its target's. Numbers,
 * not text: a large project's run makes some 1,300 of them and keeps none when a file just changed.
 */
export type Sig = number[];

function sigOfArray(a: ArrayLike<number>): Sig {
  return [a[0]!, a[1]!, a[7]!, a[8]!, a[12]!, a[13]!, a[14]!, a[15]!];
}

function sigOfStats(st: fs.BigIntStats): Sig {
  const b = 1_000_000_000n;
  const n = Number;
  return [
    n(st.dev),
    n(st.mode),
    n(st.ino),
    n(st.size),
    n(st.mtimeNs / b),
    n(st.mtimeNs % b),
    n(st.ctimeNs / b),
    n(st.ctimeNs % b),
  ];
}

/** lstat's signature; a link's is followed by its target's. */
export function statSig(p: string): Sig {
  if (rawLstat === undefined) rawLstat = binding();
  let own: Sig;
  let link: boolean;
  try {
    if (rawLstat) {
      const a = rawLstat(p);
      if (!a) return [];
      own = sigOfArray(a);
      link = ((a[1] as number) & S_IFMT) === S_IFLNK;
    } else {
      const st = fs.lstatSync(p, { bigint: true, throwIfNoEntry: false });
      if (!st) return [];
      own = sigOfStats(st);
      link = st.isSymbolicLink();
    }
  } catch {
    return [-1];
  }
  if (!link) return own;
  try {
    const t = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
    return t ? own.concat(sigOfStats(t)) : own;
  } catch {
    return own.concat([-1]);
  }
}

/**
 * -1 when `p`'s stat is the eight numbers of `sn` at `at`, else the ctime (ms) it has now (0 when
 * it is gone or not a plain stat any more). Without an array per file (the binding's answer is read in place).
 */
function statDiffers(p: string, sn: number[], at: number): number {
  if (rawLstat === undefined) rawLstat = binding();
  if (rawLstat) {
    let a: ArrayLike<number> | undefined;
    try {
      a = rawLstat(p);
    } catch {
      return 0;
    }
    if (!a) return 0;
    // For the listing of the run that plans, should the check fail (lstat-binding.ts).
    keepTakenStat(at / 8, a);
    if (
      a[0] === sn[at] &&
      a[1] === sn[at + 1] &&
      a[7] === sn[at + 2] &&
      a[8] === sn[at + 3] &&
      a[12] === sn[at + 4] &&
      a[13] === sn[at + 5] &&
      a[14] === sn[at + 6] &&
      a[15] === sn[at + 7]
    )
      return -1;
    return a[14]! * 1000 + a[15]! / 1e6;
  }
  const sig = statSig(p);
  if (sig.length === 8 && sameSig(sig, sn.slice(at, at + 8))) return -1;
  return ctimeMsOf(sig);
}

function sameSig(a: Sig, b: Sig): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The ctime in ms a signature holds (the newest of a link and its target). */
export function ctimeMsOf(sig: Sig): number {
  let newest = 0;
  for (let i = 0; i + 8 <= sig.length; i += 8) newest = Math.max(newest, sig[i + 6]! * 1000 + sig[i + 7]! / 1e6);
  return newest;
}

/** The names themselves, not a hash: cheaper to compare than to hash in a cold process. */
function namesSig(names: readonly string[]): string {
  return names.join('\0');
}

function listingSig(dir: string, withTypes: boolean): string {
  try {
    if (!withTypes) return namesSig(fs.readdirSync(dir));
    return namesSig(fs.readdirSync(dir, { withFileTypes: true }).map((e) => `${e.name}/${direntType(e)}`));
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

function direntType(e: fs.Dirent): string {
  return e.isFile() ? 'f' : e.isDirectory() ? 'd' : e.isSymbolicLink() ? 'l' : 'o';
}

/** What each kind of dependency answers now. */
function seenNow(p: string, kind: Exclude<Kind, 's'>): string | null {
  switch (kind) {
    case 'e':
      return fs.existsSync(p) ? '1' : '0';
    case 't':
      try {
        return fs.statSync(p).isDirectory() ? '1' : '0';
      } catch {
        return '0';
      }
    case 'd':
      return listingSig(p, false);
    case 'D':
      return listingSig(p, true);
    case 'r':
      try {
        return fs.realpathSync(p);
      } catch (e) {
        return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
      }
    case 'k':
      try {
        return fs.readlinkSync(p);
      } catch (e) {
        return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
      }
    default:
      return null; // a kind this code cannot check (a corrupt entry): never equal to what was kept
  }
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** The facts a run may ask of the process beside the file system, as they are now. */
function factNow(name: string): string | null {
  if (name.startsWith('env:')) return process.env[name.slice(4)] ?? null;
  switch (name) {
    case 'os.homedir':
      return os.homedir();
    case 'os.hostname':
      return os.hostname();
    case 'os.tmpdir':
      return os.tmpdir();
    case 'os.userInfo':
      try {
        const u = os.userInfo();
        return `${u.username}:${u.uid}:${u.homedir}`;
      } catch {
        return null;
      }
    case 'cwd':
      return process.cwd();
    default:
      return `?${name}`; // a fact this code cannot ask: never equal to what was kept
  }
}

/** The key of a session start: the code's identity, its arguments and the session's working folder. */
function keyOf(code: string, argv: readonly string[], stdin: string): string {
  let cwd: string | null = null;
  try {
    const o = JSON.parse(stdin) as { cwd?: unknown };
    if (o && typeof o.cwd === 'string' && o.cwd !== '') cwd = o.cwd;
  } catch {
    // no cwd: the run takes the process's (a recorded fact)
  }
  return JSON.stringify([FORMAT, code, process.version, process.platform, argv, cwd]);
}

/**
 * The entry's file name: two FNV-1a hashes of the key. Not a cryptographic hash (the JavaScript
 * SHA-256 costs a cold process more than the rest of a kept answer's check); the entry holds its
 * whole key, so two keys sharing a name only take turns.
 */
function entryFile(dir: string, key: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return path.join(dir, 'session-text', `${hex(a)}${hex(b)}.json`);
}

/** The kept answer when every dependency answers as recorded and the clock is inside its span. */
export function keptAnswer(e: Entry, key: string): string | null {
  const r = checkEntry(e, key, 0);
  return 'out' in r ? r.out : null;
}

/**
 * keptAnswer, and when it fails on a file whose stat changed less than `racyMs` ago, which one:
 * this run could not keep its text either (a file changed in the last clock tick), so it need not
 * record what it reads. Dependencies are checked cheapest and likeliest to have changed first
 * (keep() stores them so: listings, then files by ctime, newest first).
 */
function checkEntry(
  e: Entry,
  key: string,
  racyMs: number,
  /** false for a head, which holds no answer. */
  answer = true,
  /** Keep the files' stats for the planner's listing, should the check fail (lstat-binding.ts). */
  take = false,
): { out: string } | { racy: string | null } {
  const no = { racy: null };
  if (e.v !== FORMAT || e.key !== key) return no;
  for (const [name, value] of e.facts) if (factNow(name) !== value) return no;
  // With MEMTRUST_NOW among the facts (equal, just checked) the run's clock is the same instant.
  const fixedClock = e.facts.some(([n, v]) => n === 'env:MEMTRUST_NOW' && v !== null);
  const now = fixedClock ? e.now : Date.now();
  if (!(now >= e.now && now < e.until)) return no;
  const { sp, sn } = e;
  if (!Array.isArray(sp) || !Array.isArray(sn) || sn.length !== sp.length * 8) return no;
  // The hook's check only (lookUp): its stats serve the listing of the run that follows at once.
  if (take) beginTakenStats(sp);
  const file = (i: number): { racy: string | null } | null => {
    // The binding asserts on a path that is not a string: the process would abort.
    if (typeof sp[i] !== 'string') return no;
    const ctime = statDiffers(sp[i]!, sn, i * 8);
    if (ctime < 0) return null;
    return { racy: racyMs > 0 && ctime > Date.now() - racyMs ? sp[i]! : null };
  };
  // The few files changed last first: after a memory was written, the check ends at once.
  const first = Math.min(FILES_FIRST, sp.length);
  for (let i = 0; i < first; i++) {
    const r = file(i);
    if (r) return r;
  }
  for (const d of e.deps) {
    if (typeof d[0] !== 'string') return no;
    if (d[1] !== 's') {
      if (typeof d[2] !== 'string' || seenNow(d[0], d[1]) !== d[2]) return no;
      continue;
    }
    const sig = statSig(d[0]);
    if (sameSig(sig, d[2])) continue;
    return { racy: racyMs > 0 && ctimeMsOf(sig) > Date.now() - racyMs ? d[0] : null };
  }
  for (let i = first; i < sp.length; i++) {
    const r = file(i);
    if (r) return r;
  }
  if (!answer) return { out: '' };
  // What is written must be one JSON answer, whatever the entry holds (a hook always answers JSON).
  if (typeof e.out !== 'string' || !isJson(e.out)) return no;
  return { out: e.out };
}

/** RACY_MS, or MEMTRUST_SESSION_CACHE_RACY_MS for tests that change files and run again at once. */
export function racyMsOf(env: NodeJS.ProcessEnv): number {
  const raw = env.MEMTRUST_SESSION_CACHE_RACY_MS;
  return raw && /^\d+$/.test(raw) ? Number(raw) : RACY_MS;
}

export interface HookStart {
  /** True when the kept answer was written: the hook is done. */
  served: boolean;
}

/**
 * The hook entries' first step: reads stdin (handed on to the planner), writes the kept answer
 * when it still holds, else installs the recorder for the run that follows. `code` names the
 * bundle that will run (its identity; a changed bundle is also a dependency of the run).
 */
export async function startHook(code: string, argv: readonly string[], write: (s: string) => void): Promise<HookStart> {
  const env = process.env;
  // Refresh mode (text-refresh.ts): make the kept text again, answer nothing. Taken out of the
  // environment before anything is recorded: the session start it prepares runs without it.
  const refresh = env[REFRESH_VAR] === '1';
  delete env[REFRESH_VAR];
  if (!textCacheOn(env)) return { served: refresh };
  const stdin = await readHookStdin();
  setHookStdin(stdin);
  let dir: string;
  try {
    dir = cacheDirOf(env);
  } catch {
    return { served: false };
  }
  // The code that answers: this bundle (a new one is a new key); the planner's is a dependency.
  const key = keyOf(`${code}:${__filename}:${statSig(__filename).join(':')}`, argv, stdin);
  const file = entryFile(dir, key);
  const explain = env.MEMTRUST_SESSION_CACHE === 'explain';
  const racyMs = racyMsOf(env);
  // A project whose text was never kept has no session start to prepare for.
  if (refresh && !fs.existsSync(file)) return { served: true };
  try {
    const r = lookUp(file, key, racyMs);
    if ('out' in r) {
      if (explain) process.stderr.write(`memtrust: session text from ${file}\n`);
      if (!refresh) write(r.out);
      return { served: true };
    }
    // A file changed since: a later write's refresher (or the session start) makes it.
    if (r.racy !== null && refresh) return { served: true };
    if (r.racy !== null) {
      // Nothing this run reads could be kept: no recorder, no cost (a memory just written).
      if (explain)
        process.stderr.write(`memtrust: session text not kept: ${r.racy} changed less than ${racyMs} ms ago\n`);
      return { served: false };
    }
  } catch {
    // none kept, or unreadable: made below
  }
  startRecording(dir, key, file, racyMs, explain);
  return { served: false };
}

/**
 * An entry's head (`….head.json`): its key, facts, clock and the files changed last, without the
 * rest. Read first: after a memory was written the check ends there, without parsing an entry
 * that in a project of 1,221 memories is 270 KB. Only ever a reason to plan; the entry itself
 * is checked whole before its text is used.
 */
const headOf = (file: string) => file.replace(/\.json$/, '.head.json');

function lookUp(file: string, key: string, racyMs: number): { out: string } | { racy: string | null } {
  try {
    const head = JSON.parse(fs.readFileSync(headOf(file), 'utf8')) as Entry;
    const r = checkEntry({ ...head, deps: [] }, key, racyMs, false);
    if (!('out' in r)) return r;
  } catch {
    // no head (or unreadable): the entry decides
  }
  return checkEntry(JSON.parse(fs.readFileSync(file, 'utf8')) as Entry, key, racyMs, true, true);
}

/** What the planner's bundle may tell the recorder (through the global RECORDER). */
export interface Recorder {
  /**
   * The text holds only until the instant `horizon()` returns (the clock-dependent parts:
   * docs/session-context.md); asked only when the text is kept.
   */
  until(horizon: () => number): void;
  /** This run depends on something that cannot be recorded: keep nothing. */
  dirty(why: string): void;
  /** Runs `fn` without recording its file-system calls (the caller records what it relies on). */
  quiet<T>(fn: () => T): T;
  /** `p` was found to exist or not; only that is relied on. */
  exists(p: string, seen: boolean): void;
  /** `p` was found to be a folder (following links) or not; only that is relied on. */
  isDir(p: string, seen: boolean): void;
  /** A stat the caller made itself through the binding (stat-quick.ts). */
  raw(p: string, a: ArrayLike<number>): void;
  /** A path whose stat, taken now, is a dependency ([] while nothing is there): a file the run wrote that a later run reads, a `.git` lstat found. */
  file(p: string): void;
  /** Keeps `out` as the answer of this run, when nothing made it dirty. */
  keep(out: string, now: number): void;
}

export function recorder(): Recorder | undefined {
  return (globalThis as Record<symbol, Recorder | undefined>)[RECORDER];
}

/** Installs the recorder: wraps node:fs, node:os, process.cwd and process.env. */
function startRecording(dir: string, key: string, file: string, racyMs: number, explain: boolean): void {
  const started = Date.now();
  /** A stat whose ctime is after this changed in the last clock tick: it may change again unseen. */
  const racyAfter = started - racyMs;
  const loadedAtStart = new Set((process as unknown as { moduleLoadList?: string[] }).moduleLoadList ?? []);
  // One map per kind, keyed by the path as the run gave it made absolute (not normalised: a
  // normalising path.resolve per file was a tenth of a large project's session start).
  const deps: Record<Kind, Map<string, Dep>> = {
    s: new Map(),
    e: new Map(),
    t: new Map(),
    d: new Map(),
    D: new Map(),
    r: new Map(),
    k: new Map(),
  };
  const facts = new Map<string, string | null>();
  const rawPaths: string[] = [];
  const rawNums: number[] = [];
  const horizons: (() => number)[] = [];
  let dirtyWhy: string | null = null;
  let quiet = 0;
  // memtrust's own caches in the data folder, their listings too: what they hold is what the files say.
  const under = dir + path.sep;
  const own = ['session-checks', 'versions', 'session-text', 'code-cache'].map((d) => under + d + path.sep);
  // The origin cache and its temp name while it is replaced (replace-file.ts opens that through fs.openSync).
  const ownFiles = [`${under}origin-cache.json`];
  // A bundle's V8 code cache (`<bundle>.cjs[.<key>].v8`, code-cache.ts and the launcher's): by its
  // whole name, not the suffix alone, which a memory folder's name may end with too.
  const codeCache = (abs: string) => abs.endsWith('.v8') && abs.lastIndexOf('.cjs.') > abs.lastIndexOf(path.sep);
  const excluded = (abs: string) =>
    codeCache(abs) ||
    (abs.startsWith(under) &&
      (ownFiles.some((o) => abs.startsWith(o)) ||
        own.some((o) => abs.startsWith(o) || abs + path.sep === o) ||
        abs.startsWith(`${under}index.sqlite`)));
  const absolute = (p: string) => (p.charCodeAt(0) === 47 /* / */ ? p : path.resolve(p));

  const add = (p: unknown, kind: Kind, seen: (abs: string) => string | Sig | (() => string)) => {
    if (quiet > 0 || dirtyWhy !== null) return;
    if (typeof p !== 'string') {
      if (p instanceof URL || Buffer.isBuffer(p)) dirtyWhy = 'a path not given as a string';
      return; // a file descriptor: what it reads was recorded when it was opened
    }
    const abs = absolute(p);
    const m = deps[kind];
    if (m.has(abs) || excluded(abs)) return;
    // The signature's own calls (statSig, a listing) go through the wrapped functions too.
    quiet++;
    try {
      m.set(abs, [abs, kind, seen(abs)] as Dep);
    } finally {
      quiet--;
    }
  };
  const fact = (name: string, value: string | null) => {
    if (quiet === 0 && !facts.has(name)) facts.set(name, value);
  };

  const f = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const wrap = (name: string, after: (args: unknown[], result: unknown, threw: boolean) => void) => {
    const orig = f[name];
    if (typeof orig !== 'function') return;
    const w = function (this: unknown, ...args: unknown[]) {
      let result: unknown;
      try {
        result = orig.apply(this, args);
      } catch (e) {
        after(args, undefined, true);
        throw e;
      }
      after(args, result, false);
      return result;
    };
    Object.defineProperties(w, Object.getOwnPropertyDescriptors(orig));
    f[name] = w;
  };
  const bySig = (args: unknown[]) => add(args[0], 's', statSig);
  for (const name of ['readFileSync', 'openSync', 'lstatSync', 'statSync']) wrap(name, bySig);
  wrap('existsSync', (args, result) => add(args[0], 'e', () => (result ? '1' : '0')));
  // By its stat, not its existence: what access answers moves with the mode and owner, which existsSync
  // does not see (a chmod changes the ctime).
  wrap('accessSync', bySig);
  wrap('readdirSync', (args, result, threw) => {
    const opts = args[1] as { withFileTypes?: boolean; recursive?: boolean } | undefined;
    if (opts && typeof opts === 'object' && opts.recursive) {
      dirtyWhy ??= 'a recursive listing';
      return;
    }
    const typed = !!(opts && typeof opts === 'object' && opts.withFileTypes);
    add(args[0], typed ? 'D' : 'd', (abs) => {
      if (threw) return listingSig(abs, typed);
      const list = result as (string | fs.Dirent)[];
      // Made into text only by keep(): a listing of 1,222 names costs more than the rest of its recording.
      return () =>
        namesSig(
          typed ? (list as fs.Dirent[]).map((e) => `${e.name}/${direntType(e)}`) : (list as string[]).map(String),
        );
    });
  });
  const real = fs.realpathSync;
  wrap('realpathSync', (args, result, threw) =>
    add(args[0], 'r', (abs) => (threw ? seenNow(abs, 'r')! : String(result))),
  );
  (fs.realpathSync as unknown as { native: unknown }).native = (...args: unknown[]) => {
    const r = (real.native as (...a: unknown[]) => string)(...args);
    add(args[0], 'r', () => r);
    return r;
  };
  wrap('readlinkSync', (args, result, threw) =>
    add(args[0], 'k', (abs) => (threw ? seenNow(abs, 'k')! : String(result))),
  );
  for (const name of [
    'opendirSync',
    'readFile',
    'stat',
    'lstat',
    'readdir',
    'open',
    'access',
    'exists',
    'opendir',
    'realpath',
    'readlink',
    'watch',
    'watchFile',
  ])
    wrap(name, () => {
      dirtyWhy ??= `fs.${name}`;
    });
  const o = os as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['homedir', 'hostname', 'tmpdir', 'userInfo']) {
    const orig = o[name]!;
    o[name] = (...args: unknown[]) => {
      const r = orig(...args);
      if (args.length === 0) {
        const u = r as os.UserInfo<string>;
        fact(`os.${name}`, name === 'userInfo' ? `${u.username}:${u.uid}:${u.homedir}` : String(r));
      } else dirtyWhy ??= `os.${name} with options`;
      return r;
    };
  }
  const cwd = process.cwd;
  process.cwd = () => {
    const r = cwd();
    fact('cwd', r);
    return r;
  };
  const env = process.env;
  process.env = new Proxy(env, {
    get(t, k) {
      if (typeof k === 'string') fact(`env:${k}`, t[k] ?? null);
      return Reflect.get(t, k);
    },
    has(t, k) {
      if (typeof k === 'string') fact(`env:${k}`, t[k] ?? null);
      return Reflect.has(t, k);
    },
    ownKeys(t) {
      dirtyWhy ??= 'the whole environment';
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, k) {
      if (typeof k === 'string') fact(`env:${k}`, t[k] ?? null);
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
  });

  const rec: Recorder = {
    until(horizon) {
      horizons.push(horizon);
    },
    dirty(why) {
      dirtyWhy ??= why;
    },
    quiet(fn) {
      quiet++;
      try {
        return fn();
      } finally {
        quiet--;
      }
    },
    exists(p, seen) {
      add(p, 'e', () => (seen ? '1' : '0'));
    },
    isDir(p, seen) {
      add(p, 't', () => (seen ? '1' : '0'));
    },
    raw(p, a) {
      // The listing's stat of every memory file: kept as numbers in two flat lists and made into
      // dependencies only by keep(), which most runs after a change never reach (a file just changed).
      if (quiet > 0 || dirtyWhy !== null) return;
      if (((a[1] as number) & S_IFMT) === S_IFLNK) return add(p, 's', statSig);
      // Changed in the last clock tick: nothing of this run can be kept (keep()), so the rest of it
      // records nothing — a session start right after a memory was written, a common case.
      if ((a[14] as number) * 1000 + (a[15] as number) / 1e6 > racyAfter) {
        dirtyWhy = `${p} changed less than ${racyMs} ms ago`;
        return;
      }
      rawPaths.push(p);
      rawNums.push(a[0]!, a[1]!, a[7]!, a[8]!, a[12]!, a[13]!, a[14]!, a[15]!);
    },
    file(p) {
      const abs = absolute(p);
      deps.s.set(abs, [abs, 's', statSig(abs)]);
    },
    keep(out, now) {
      // MEMTRUST_SESSION_CACHE=explain says on stderr why nothing was kept (read before the proxy).
      const why = (reason: string) => {
        if (explain) process.stderr.write(`memtrust: session text not kept: ${reason}\n`);
      };
      // Loaded during the run (never by a plain session start): a child process or a promise read
      // could have read anything. Not wrapped: loading those modules to wrap them costs more than the run.
      const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList ?? [];
      for (const m of ['NativeModule child_process', 'NativeModule internal/fs/promises'])
        if (loaded.includes(m) && !loadedAtStart.has(m)) dirtyWhy ??= `${m.slice(13)} loaded`;
      if (dirtyWhy !== null) return why(dirtyWhy);
      // A file changed in the last clock tick may change again without a new stat: keep nothing
      // (the listing's stats were held to this as they came, in raw()).
      for (const [p, , seen] of deps.s.values())
        if (ctimeMsOf(seen as Sig) > racyAfter) return why(`${p} changed less than ${racyMs} ms ago`);
      quiet++; // the rest reads nothing the next run depends on
      for (let i = 0; i < rawPaths.length; i++) {
        const abs = absolute(rawPaths[i]!);
        if (!deps.s.has(abs) && !excluded(abs)) deps.s.set(abs, [abs, 's', rawNums.slice(i * 8, i * 8 + 8)]);
      }
      // At most to the next UTC midnight, where every day count moves: also a finite end when
      // there is no memory to ask (JSON has no Infinity: it would be kept as null and never hold).
      let until = (Math.floor(now / 86_400_000) + 1) * 86_400_000;
      for (const h of horizons) until = Math.min(until, h());
      if (!(until > now)) return why('its clock ends now');
      // Checked in this order at the next start: what is cheapest and likeliest to have changed first.
      const rest = [deps.e, deps.t, deps.d, deps.D, deps.r, deps.k].flatMap((m) => [...m.values()]);
      for (const d of rest) if (typeof d[2] === 'function') d[2] = (d[2] as () => string)();
      const stats = [...deps.s.values()];
      const links = stats.filter((d) => (d[2] as Sig).length !== 8);
      const files = stats.filter((d) => (d[2] as Sig).length === 8);
      files.sort((a, b) => ctimeMsOf(b[2] as Sig) - ctimeMsOf(a[2] as Sig));
      const list = [...rest, ...links];
      const sp = files.map((d) => d[0]);
      const sn = files.flatMap((d) => d[2] as Sig);
      const entry: Entry = { v: FORMAT, key, now, until, facts: [...facts], deps: list, sp, sn, out };
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        replaceFile(file, JSON.stringify(entry), { mode: 0o600 });
        const n = Math.min(FILES_FIRST, sp.length);
        const head: Entry = { ...entry, deps: [], sp: sp.slice(0, n), sn: sn.slice(0, n * 8), out: '' };
        replaceFile(headOf(file), JSON.stringify(head), { mode: 0o600 });
        sweepStaleTemps(path.dirname(file)); // a killed session start's temp files (replace-file.ts)
        if (explain) process.stderr.write(`memtrust: session text kept: ${file} (${list.length} dependencies)\n`);
      } catch (e) {
        why(String(e)); // the next session start makes it again
      }
    },
  };
  (globalThis as Record<symbol, Recorder | undefined>)[RECORDER] = rec;
}
