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
import { sha256Hex } from '../../core/hash';
import { readHookStdin, setHookStdin } from './hook-stdin';

/** Bumped whenever an entry's meaning changes. */
const FORMAT = 1;
/** A file whose ctime is this close to the run's start may have changed inside one clock tick. */
const RACY_MS = 2_000;
/** The global through which the planner's bundle reaches the recorder of this run (if any). */
const RECORDER = Symbol.for('memtrust.session-text.recorder');

type Kind = 's' | 'e' | 't' | 'd' | 'D' | 'r' | 'k';
/** [path, kind, what was seen]: a stat's signature, existence, being a folder, a listing's names, a real path, a link. */
type Dep = [string, Kind, string];

interface Entry {
  v: number;
  key: string;
  /** The run's clock (MEMTRUST_NOW or the wall) and until when its text holds. */
  now: number;
  until: number;
  facts: [string, string | null][];
  deps: Dep[];
  out: string;
}

/** The folder memtrust keeps its caches in: the index database's (config.ts indexPath). */
export function cacheDirOf(env: NodeJS.ProcessEnv): string {
  if (env.MEMTRUST_DB) return path.dirname(path.resolve(env.MEMTRUST_DB));
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'memtrust');
}

/** `MEMTRUST_SESSION_CACHE=off` turns the kept text off (tests compare with and without). */
export function textCacheOn(env: NodeJS.ProcessEnv): boolean {
  return env.MEMTRUST_SESSION_CACHE !== 'off';
}

type RawLstat = (p: string) => ArrayLike<number> | undefined;
let rawLstat: RawLstat | null | undefined;

/** The binding fs.lstatSync calls (lib/sources/stat-quick.ts): no Stats object, no four Dates. */
function binding(): RawLstat | null {
  if (process.platform === 'win32') return null;
  const pending = (a: string) => a.includes('--pending-deprecation');
  if (process.execArgv.some(pending) || pending(process.env.NODE_OPTIONS ?? '')) return null;
  try {
    const b = (process as unknown as { binding(name: string): { lstat?: unknown } }).binding('fs');
    const lstat = b.lstat;
    if (typeof lstat !== 'function') return null;
    // (path, bigint, no request: synchronous, throwIfNoEntry false: undefined for a missing path).
    return (p) => lstat.call(b, p, false, undefined, false) as ArrayLike<number> | undefined;
  } catch {
    return null;
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function sigOfArray(a: ArrayLike<number>): string {
  // dev, mode, ino, size, mtime s.ns, ctime s.ns
  return `${a[0]}:${a[1]}:${a[7]}:${a[8]}:${a[12]}.${a[13]}:${a[14]}.${a[15]}`;
}

function sigOfStats(st: fs.BigIntStats): string {
  const s = (ns: bigint) => `${ns / 1_000_000_000n}.${ns % 1_000_000_000n}`;
  return `${st.dev}:${st.mode}:${st.ino}:${st.size}:${s(st.mtimeNs)}:${s(st.ctimeNs)}`;
}

/** lstat's signature ('-' when nothing is there); a link's is followed by its target's. */
export function statSig(p: string): string {
  if (rawLstat === undefined) rawLstat = binding();
  let own: string;
  let link: boolean;
  try {
    if (rawLstat) {
      const a = rawLstat(p);
      if (!a) return '-';
      own = sigOfArray(a);
      link = ((a[1] as number) & S_IFMT) === S_IFLNK;
    } else {
      const st = fs.lstatSync(p, { bigint: true, throwIfNoEntry: false });
      if (!st) return '-';
      own = sigOfStats(st);
      link = st.isSymbolicLink();
    }
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  if (!link) return own;
  try {
    const t = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
    return `${own}>${t ? sigOfStats(t) : '-'}`;
  } catch (e) {
    return `${own}>!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/** The ctime in ms a signature holds (the newest of a link and its target). */
function ctimeMsOf(sig: string): number {
  let newest = 0;
  for (const part of sig.split('>')) {
    const f = part.split(':');
    if (f.length < 6) continue;
    newest = Math.max(newest, Number(f[5]) * 1000);
  }
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
function seenNow(p: string, kind: Kind): string {
  switch (kind) {
    case 's':
      return statSig(p);
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

function entryFile(dir: string, key: string): string {
  return path.join(dir, 'session-text', `${sha256Hex(key).slice(0, 32)}.json`);
}

/** The kept answer when every dependency answers as recorded and the clock is inside its span. */
function validOut(e: Entry, key: string): string | null {
  if (e.v !== FORMAT || e.key !== key) return null;
  for (const [name, value] of e.facts) if (factNow(name) !== value) return null;
  // With MEMTRUST_NOW among the facts (equal, just checked) the run's clock is the same instant.
  const fixedClock = e.facts.some(([n, v]) => n === 'env:MEMTRUST_NOW' && v !== null);
  const now = fixedClock ? e.now : Date.now();
  if (!(now >= e.now && now < e.until)) return null;
  for (const [p, kind, seen] of e.deps) if (seenNow(p, kind) !== seen) return null;
  return e.out;
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
  if (!textCacheOn(env)) return { served: false };
  const stdin = await readHookStdin();
  setHookStdin(stdin);
  let dir: string;
  try {
    dir = cacheDirOf(env);
  } catch {
    return { served: false };
  }
  // The code that answers: this bundle (a new one is a new key); the planner's is a dependency.
  const key = keyOf(`${code}:${__filename}:${statSig(__filename)}`, argv, stdin);
  const file = entryFile(dir, key);
  try {
    const out = validOut(JSON.parse(fs.readFileSync(file, 'utf8')) as Entry, key);
    if (out !== null) {
      write(out);
      return { served: true };
    }
  } catch {
    // none kept, or unreadable: made below
  }
  startRecording(dir, key, file);
  return { served: false };
}

/** What the planner's bundle may tell the recorder (through the global RECORDER). */
export interface Recorder {
  /** The text holds only until `ms` (the clock-dependent parts: docs/session-context.md). */
  until(ms: number): void;
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
  /** A file the run wrote that a later run reads (its stat is a dependency, taken now). */
  file(p: string): void;
  /** Keeps `out` as the answer of this run, when nothing made it dirty. */
  keep(out: string, now: number): void;
}

export function recorder(): Recorder | undefined {
  return (globalThis as Record<symbol, Recorder | undefined>)[RECORDER];
}

/** Installs the recorder: wraps node:fs, node:os, process.cwd and process.env. */
function startRecording(dir: string, key: string, file: string): void {
  const started = Date.now();
  const deps = new Map<string, Dep>();
  const facts = new Map<string, string | null>();
  let until = Number.POSITIVE_INFINITY;
  let dirtyWhy: string | null = null;
  let quiet = 0;
  const own = [path.join(dir, 'session-checks'), path.join(dir, 'versions'), path.join(dir, 'session-text'), path.join(dir, 'code-cache')];
  const ownFiles = new Set([path.join(dir, 'origin-cache.json')]);
  const excluded = (abs: string) =>
    abs.endsWith('.v8') || ownFiles.has(abs) || own.some((o) => abs === o || abs.startsWith(o + path.sep)) || abs.startsWith(path.join(dir, 'index.sqlite'));

  const add = (p: unknown, kind: Kind, seen: () => string) => {
    if (quiet > 0 || dirtyWhy !== null) return;
    // The signature's own calls (statSig, a listing) go through the wrapped functions too.
    quiet++;
    try {
      addNow(p, kind, seen);
    } finally {
      quiet--;
    }
  };
  const addNow = (p: unknown, kind: Kind, seen: () => string) => {
    if (typeof p !== 'string') {
      if (p instanceof URL || Buffer.isBuffer(p)) dirtyWhy = 'a path not given as a string';
      return; // a file descriptor: what it reads was recorded when it was opened
    }
    const abs = path.resolve(p);
    if (excluded(abs)) return;
    const k = `${kind}\0${abs}`;
    if (!deps.has(k)) deps.set(k, [abs, kind, seen()]);
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
  const bySig = (args: unknown[]) => add(args[0], 's', () => statSig(path.resolve(args[0] as string)));
  for (const name of ['readFileSync', 'openSync', 'lstatSync', 'statSync']) wrap(name, bySig);
  wrap('existsSync', (args, result) => add(args[0], 'e', () => (result ? '1' : '0')));
  wrap('accessSync', (args, _r, threw) => add(args[0], 'e', () => (threw ? '0' : '1')));
  wrap('readdirSync', (args, result, threw) => {
    const opts = args[1] as { withFileTypes?: boolean; recursive?: boolean } | undefined;
    if (opts && typeof opts === 'object' && opts.recursive) return void (dirtyWhy ??= 'a recursive listing');
    const typed = !!(opts && typeof opts === 'object' && opts.withFileTypes);
    add(args[0], typed ? 'D' : 'd', () => {
      if (threw) return listingSig(path.resolve(args[0] as string), typed);
      const list = result as (string | fs.Dirent)[];
      return namesSig(typed ? (list as fs.Dirent[]).map((e) => `${e.name}/${direntType(e)}`) : (list as string[]).map(String));
    });
  });
  const real = fs.realpathSync;
  wrap('realpathSync', (args, result, threw) => add(args[0], 'r', () => (threw ? seenNow(path.resolve(args[0] as string), 'r') : String(result))));
  (fs.realpathSync as unknown as { native: unknown }).native = (...args: unknown[]) => {
    const r = (real.native as (...a: unknown[]) => string)(...args);
    add(args[0], 'r', () => r);
    return r;
  };
  wrap('readlinkSync', (args, result, threw) => add(args[0], 'k', () => (threw ? seenNow(path.resolve(args[0] as string), 'k') : String(result))));
  for (const name of ['opendirSync', 'readFile', 'stat', 'lstat', 'readdir', 'open', 'access', 'exists', 'opendir', 'realpath', 'readlink', 'watch', 'watchFile'])
    wrap(name, () => void (dirtyWhy ??= `fs.${name}`));
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const name of Object.keys(promises)) {
    const orig = promises[name];
    if (typeof orig !== 'function') continue;
    promises[name] = (...args: unknown[]) => {
      dirtyWhy ??= `fs.promises.${name}`;
      return (orig as (...a: unknown[]) => unknown)(...args);
    };
  }
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
  const cp = require('node:child_process') as Record<string, unknown>;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    const orig = cp[name];
    if (typeof orig !== 'function') continue;
    cp[name] = (...args: unknown[]) => {
      dirtyWhy ??= `child_process.${name}`;
      return (orig as (...a: unknown[]) => unknown)(...args);
    };
  }
  const env = process.env;
  const explain = env.MEMTRUST_SESSION_CACHE === 'explain';
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
    until(ms) {
      if (ms < until) until = ms;
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
      add(p, 's', () => {
        const own = sigOfArray(a);
        return ((a[1] as number) & S_IFMT) === S_IFLNK ? statSig(path.resolve(p)) : own;
      });
    },
    file(p) {
      const abs = path.resolve(p);
      deps.set(`s\0${abs}`, [abs, 's', statSig(abs)]);
    },
    keep(out, now) {
      // MEMTRUST_SESSION_CACHE=explain says on stderr why nothing was kept (read before the proxy).
      const why = (reason: string) => {
        if (explain) process.stderr.write(`memtrust: session text not kept: ${reason}\n`);
      };
      if (dirtyWhy !== null) return why(dirtyWhy);
      if (!(until > now)) return why('its clock ends now');
      const list = [...deps.values()];
      // A file changed in the last clock tick may change again without a new stat: keep nothing.
      for (const [p, kind, seen] of list)
        if (kind === 's' && ctimeMsOf(seen) > started - RACY_MS) return why(`${p} changed less than 2 s ago`);
      const entry: Entry = { v: FORMAT, key, now, until, facts: [...facts], deps: list, out };
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
        fs.renameSync(tmp, file);
        if (explain) process.stderr.write(`memtrust: session text kept: ${file} (${list.length} dependencies)\n`);
      } catch (e) {
        why(String(e)); // the next session start makes it again
      }
    },
  };
  (globalThis as Record<symbol, Recorder | undefined>)[RECORDER] = rec;
}
