/**
 * The Claude Code home as one source (CONTRACT §8 "The Claude Code home is one source";
 * LAYOUTS §2 "Where they live on a real machine"; docs/roots.md "The Claude Code home").
 *
 * With no root configured, memtrust reads the folders Claude Code keeps: one auto-memory
 * folder per project under `<config>/projects/<encoded>/memory/`, the `autoMemoryDirectory`
 * of Claude Code's settings, user agent memory `<config>/agent-memory/<name>/`, and for
 * every project that still exists its `.claude/agent-memory[-local]/<name>/` folders, its
 * canonical store (`.claude/memory/`) and its codeclone store (`.codeclone/memory/`).
 *
 * Each folder names its project (path, and whether it still exists), or none for the
 * user-level folders every session shares. Reads directory entries and the first lines of
 * one transcript per project; writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../core/env';
import { OPEN_READ } from '../core/read-fd';
import { claudeConfigDir, expandHome, homeDir, projectMemoryName } from './claude-config-dir';
import { detectLayout } from './detect';
import { recorder } from '../service/session/text-cache';
import { STORE_FILE } from './governed/types';

export interface ProjectRef {
  /** The project's absolute path (decoded from the folder name when the folder is Claude Code's). */
  path: string;
  /** Whether that path is a folder on this machine now. */
  exists: boolean;
}

export type HomeFolderRole =
  | 'trust-root'
  | 'project-memory'
  | 'auto-memory-directory'
  | 'user-agent-memory'
  | 'project-agent-memory'
  | 'project-agent-memory-local'
  | 'canonical'
  | 'governed';

export interface HomeFolder {
  root: string;
  role: HomeFolderRole;
  /** The project the folder belongs to; null for a user-level folder (every session's). */
  project: ProjectRef | null;
}

export { claudeConfigDir };

/** memtrust's own trust-model root in the home (docs/configuration.md): user-level. */
export function userTrustRoot(env: Env = process.env): string {
  return path.join(homeDir(env), '.claude', 'claude-memory');
}

/** Claude Code's folder name for a project: every character other than a letter or digit is `-`. */
export function encodeProjectPath(p: string): string {
  return p.replace(/[^A-Za-z0-9]/g, '-');
}

function isDir(p: string): boolean {
  let dir: boolean;
  const rec = recorder();
  try {
    // Only this answer matters to a kept session text, not the folder's stat (text-cache.ts).
    dir = rec ? rec.quiet(() => fs.statSync(p).isDirectory()) : fs.statSync(p).isDirectory();
  } catch {
    dir = false;
  }
  rec?.isDir(p, dir);
  return dir;
}

function readdir(p: string): fs.Dirent[] {
  try {
    return fs.readdirSync(p, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Bytes read from the start of one transcript when looking for the session's `cwd`. */
const TRANSCRIPT_HEAD = 64 * 1024;
/**
 * One buffer for every transcript head, reused (the reads are synchronous and decoded at
 * once): a zero-filled 64 KiB per project was 13 MB of allocation at 200 projects, 60 ms of
 * the dashboard's first request (docs/performance-pages.md, "The first page after a start").
 */
let headBuf: Buffer | null = null;
/** Transcripts opened per project folder (newest first) before the disk walk decides. */
const TRANSCRIPTS_TRIED = 3;
/** Directories read by one disk walk: a name that matches nothing gives up early. */
const WALK_BUDGET = 400;

/** The `cwd` recorded in a transcript's first lines whose encoding is `encoded` (or an ancestor's). */
function cwdFromTranscripts(dir: string, encoded: string): string | null {
  const files = readdir(dir)
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => {
      const p = path.join(dir, e.name);
      let m = 0;
      try {
        m = fs.statSync(p).mtimeMs;
      } catch {
        // gone since the listing
      }
      return { p, m };
    })
    .sort((a, b) => b.m - a.m)
    .slice(0, TRANSCRIPTS_TRIED);
  for (const { p } of files) {
    let fd: number | undefined;
    let text = '';
    try {
      fd = fs.openSync(p, OPEN_READ);
      headBuf ??= Buffer.allocUnsafe(TRANSCRIPT_HEAD);
      text = headBuf.toString('utf8', 0, fs.readSync(fd, headBuf, 0, TRANSCRIPT_HEAD, 0));
    } catch {
      continue;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    // Lines are JSON objects; only whole lines are parsed (the last one may be cut).
    const lines = text.split('\n');
    if (text.length === TRANSCRIPT_HEAD) lines.pop();
    for (const line of lines) {
      if (!line.includes('"cwd"')) continue;
      let cwd: unknown;
      try {
        cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      } catch {
        continue;
      }
      if (typeof cwd !== 'string' || !path.isAbsolute(cwd)) continue;
      // The session may have started below the project: its ancestor with this encoding.
      for (let c = path.resolve(cwd); ; c = path.dirname(c)) {
        if (encodeProjectPath(c) === encoded) return c;
        if (path.dirname(c) === c) break;
      }
    }
  }
  return null;
}

/**
 * The existing folder whose encoding is `encoded`, found by walking from `/`: at each folder,
 * every entry whose encoded name continues the string is tried (`my.app` and `my-app` both
 * encode to `my-app`, and `a-b` may be one name or two). Null when none exists.
 */
function walkDecode(encoded: string): string | null {
  let budget = WALK_BUDGET;
  const rootDir = path.parse(process.cwd()).root;
  const visit = (dir: string, rest: string): string | null => {
    if (budget-- <= 0) return null;
    for (const e of readdir(dir)) {
      const piece = `-${encodeProjectPath(e.name)}`;
      if (!rest.startsWith(piece)) continue;
      const p = path.join(dir, e.name);
      if (rest.length === piece.length) {
        if (isDir(p)) return p;
        continue;
      }
      if (rest[piece.length] !== '-') continue;
      if (!(e.isDirectory() || (e.isSymbolicLink() && isDir(p)))) continue;
      const found = visit(p, rest.slice(piece.length));
      if (found) return found;
    }
    return null;
  };
  return encoded.startsWith('-') ? visit(rootDir, encoded) : null;
}

/**
 * Decoded project paths by Claude Code folder, for the life of the process. Kept on a global:
 * the server's start-up (lib/server/main.ts, run from the sources) and its pages (Next's
 * build) hold two copies of this module, and the first page takes the configuration start-up
 * read (lib/server/start-config.ts) — without the decodings made for it, the overview's
 * project line decoded all 200 projects again (docs/performance-pages.md).
 */
const shared = globalThis as unknown as { __memtrustDecodedProjects?: Map<string, string | null> };
shared.__memtrustDecodedProjects ??= new Map();
const decoded = shared.__memtrustDecodedProjects;

/**
 * The project a `<config>/projects/<encoded>/` folder belongs to: the `cwd` its transcripts
 * recorded, else the existing path that encodes to the name; else the naive reading (every
 * `-` a `/`), marked as not existing. Kept per process (the name never changes meaning).
 */
export function decodeProject(projectsDir: string, encoded: string): ProjectRef {
  const key = path.join(projectsDir, encoded);
  let p = decoded.get(key);
  if (p === undefined) {
    p = cwdFromTranscripts(key, encoded) ?? walkDecode(encoded);
    decoded.set(key, p);
  }
  if (p) return { path: p, exists: isDir(p) };
  return { path: encoded.replace(/-/g, '/'), exists: false };
}

/** `autoMemoryDirectory` of Claude Code's user settings (`<config>/settings.json`), when set. */
export function autoMemoryDirectory(env: Env = process.env): string | null {
  const file = path.join(claudeConfigDir(env), 'settings.json');
  let stamp: string;
  try {
    const st = fs.statSync(file);
    stamp = `${file}|${st.size}|${st.mtimeMs}|${env.HOME ?? ''}`;
  } catch {
    return null;
  }
  if (autoDirCache?.stamp === stamp) return autoDirCache.dir;
  let dir: string | null = null;
  try {
    const v = (JSON.parse(fs.readFileSync(file, 'utf8')) as { autoMemoryDirectory?: unknown }).autoMemoryDirectory;
    dir = typeof v === 'string' && v !== '' ? expandHome(v, env) : null;
  } catch {
    // Not JSON, or gone: Claude Code's own problem; no folder from it.
  }
  autoDirCache = { stamp, dir };
  return dir;
}

/** The last settings file read, by size and mtime: projectOfRoot asks once per root. */
let autoDirCache: { stamp: string; dir: string | null } | null = null;

/** The sub-folders of `dir` holding a Claude Code memory folder (agent memory). */
function agentFolders(dir: string): string[] {
  return readdir(dir)
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name))
    .filter((p) => {
      const d = detectLayout(p);
      return d.ok && d.layout === 'claude-code';
    })
    .sort();
}

/** The folders of the user's level: every session gets them, whatever its project. */
export function userFolders(env: Env = process.env): HomeFolder[] {
  const out: HomeFolder[] = [];
  const trust = userTrustRoot(env);
  if (isDir(trust)) out.push({ root: trust, role: 'trust-root', project: null });
  const auto = autoMemoryDirectory(env);
  if (auto && isDir(auto)) out.push({ root: auto, role: 'auto-memory-directory', project: null });
  for (const root of agentFolders(path.join(claudeConfigDir(env), 'agent-memory')))
    out.push({ root, role: 'user-agent-memory', project: null });
  return out;
}

/** The folders a project keeps inside itself (only when it exists). */
export function projectOwnFolders(project: ProjectRef): HomeFolder[] {
  if (!project.exists) return [];
  const out: HomeFolder[] = [];
  const p = project.path;
  for (const root of agentFolders(path.join(p, '.claude', 'agent-memory')))
    out.push({ root, role: 'project-agent-memory', project });
  for (const root of agentFolders(path.join(p, '.claude', 'agent-memory-local')))
    out.push({ root, role: 'project-agent-memory-local', project });
  const canonical = path.join(p, '.claude', 'memory');
  if (isDir(canonical)) {
    const d = detectLayout(canonical);
    if (!d.ok && d.layout === 'canonical') out.push({ root: canonical, role: 'canonical', project });
  }
  const governed = path.join(p, '.codeclone', 'memory');
  if (fs.existsSync(path.join(governed, STORE_FILE))) out.push({ root: governed, role: 'governed', project });
  return out;
}

/** The auto-memory folder of one encoded project folder, with the project, when it exists. */
function projectMemory(projectsDir: string, encoded: string): HomeFolder | null {
  const root = path.join(projectsDir, encoded, 'memory');
  if (!isDir(root)) return null;
  return { root, role: 'project-memory', project: decodeProject(projectsDir, encoded) };
}

/**
 * Every folder of the home: the user-level ones, then per project (by folder name) its
 * auto-memory folder and the folders inside the project. A project known only by its
 * transcripts (no memory/ folder) adds its own folders when it exists.
 */
export function homeFolders(env: Env = process.env): HomeFolder[] {
  const out = userFolders(env);
  const projectsDir = path.join(claudeConfigDir(env), 'projects');
  const seen = new Set(out.map((f) => f.root));
  const projects = new Set<string>();
  for (const e of readdir(projectsDir).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!e.isDirectory()) continue;
    const mem = projectMemory(projectsDir, e.name);
    const project = mem?.project ?? decodeProject(projectsDir, e.name);
    // Two encoded folders can name one project (a moved config, a renamed folder): one set of its own folders.
    const own = project.exists && !projects.has(project.path) ? projectOwnFolders(project) : [];
    if (project.exists) projects.add(project.path);
    for (const f of [...(mem ? [mem] : []), ...own]) {
      if (seen.has(f.root)) continue;
      seen.add(f.root);
      out.push(f);
    }
  }
  return out;
}

/**
 * The folders one session in `projectDir` gets: the user-level ones and that project's own,
 * found without reading any other project's folder (the hook runs at every session start).
 */
export function projectHomeFolders(projectDir: string, env: Env = process.env): HomeFolder[] {
  const out = userFolders(env);
  const project: ProjectRef = { path: path.resolve(projectDir), exists: isDir(projectDir) };
  const mem = path.join(claudeConfigDir(env), 'projects', encodeProjectPath(project.path), 'memory');
  if (isDir(mem)) out.push({ root: mem, role: 'project-memory', project });
  out.push(...projectOwnFolders(project));
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.root) && seen.add(f.root));
}

/** realpath of `p`, else of its nearest existing ancestor with the missing tail appended. */
function realOrAncestor(p: string): string {
  const missing: string[] = [];
  for (let cur = p; ; cur = path.dirname(cur)) {
    try {
      return path.join(fs.realpathSync(cur), ...missing.reverse());
    } catch {
      if (path.dirname(cur) === cur) return p;
      missing.push(path.basename(cur));
    }
  }
}

/** Folders under which a project keeps memory of its own (projectOwnFolders), as path segments. */
const OWN_STORES: readonly (readonly [string, string])[] = [
  ['.claude', 'agent-memory'],
  ['.claude', 'agent-memory-local'],
  ['.claude', 'memory'],
  ['.codeclone', 'memory'],
];

/**
 * The home's roots one write to `file` can land in (the pre-write guard and the stamp run on
 * every assistant write, docs/hooks.md): the user-level folders, and of the project folders
 * only those on the file's own path, lexical or real — the file's
 * `<config>/projects/<encoded>/memory`, or the stores inside a project Claude Code knows
 * (`<project>/.claude/agent-memory/<name>/…`). The same roots homeFolders gives that can
 * hold `file`, found without listing or decoding any other project; a project folder
 * reached only through a symlink from elsewhere is not among them.
 */
export function targetHomeRoots(file: string, env: Env = process.env): string[] {
  const out = userFolders(env).map((f) => f.root);
  if (file === '') return out; // no file named: the user-level folders only
  const projectsDir = path.join(claudeConfigDir(env), 'projects');
  const abs = path.resolve(file);
  const forms = [...new Set([abs, realOrAncestor(abs)])];
  const bases = [...new Set([projectsDir, realOrAncestor(projectsDir)])];
  for (const f of forms) {
    for (const base of bases) {
      if (!f.startsWith(base + path.sep)) continue;
      const parts = f.slice(base.length + 1).split(path.sep);
      const mem = path.join(projectsDir, parts[0]!, 'memory');
      if (parts.length >= 3 && parts[1] === 'memory' && isDir(mem)) out.push(mem);
    }
    const parts = f.split(path.sep);
    for (let i = 1; i + 1 < parts.length; i++) {
      if (!OWN_STORES.some(([a, b]) => parts[i] === a && parts[i + 1] === b)) continue;
      const p = parts.slice(0, i).join(path.sep) || path.sep;
      // homeFolders adds a project's own folders only for a project Claude Code has a folder for.
      if (!isDir(p) || !isDir(path.join(projectsDir, encodeProjectPath(p)))) continue;
      for (const own of projectOwnFolders({ path: p, exists: true })) out.push(own.root);
    }
  }
  return [...new Set(out)];
}

/** Whether the home holds any folder homeFolders would give, looked for one at a time (the common answer comes at the first project). */
export function homeHasFolders(env: Env = process.env): boolean {
  if (userFolders(env).length > 0) return true;
  const projectsDir = path.join(claudeConfigDir(env), 'projects');
  for (const e of readdir(projectsDir))
    if (e.isDirectory() && isDir(path.join(projectsDir, e.name, 'memory'))) return true;
  // Only projects known by their transcripts: the full walk decides (rare).
  return homeFolders(env).length > 0;
}

/**
 * The project a root belongs to, read from where it lies (any root: configured or found):
 * `<config>/projects/<encoded>/memory`, `<project>/.claude/agent-memory[-local]/<name>`,
 * `<project>/.claude/memory`, `<project>/.codeclone/memory[/…]`, or a project folder holding
 * one of those stores. Null for a user-level root (a trust-model root, user agent memory,
 * the `autoMemoryDirectory`).
 */
export function projectOfRoot(root: string, env: Env = process.env): ProjectRef | null {
  const abs = path.resolve(root);
  const encoded = projectMemoryName(abs, env);
  if (encoded) return decodeProject(path.join(claudeConfigDir(env), 'projects'), encoded);
  if (isUserLevel(abs, env)) return null;
  const parts = abs.split(path.sep);
  const n = parts.length;
  const at = (p: string) => ({ path: p, exists: isDir(p) });
  if (
    n >= 4 &&
    parts[n - 3] === '.claude' &&
    (parts[n - 2] === 'agent-memory' || parts[n - 2] === 'agent-memory-local')
  )
    return at(parts.slice(0, n - 3).join(path.sep) || path.sep);
  if (n >= 3 && parts[n - 1] === 'memory' && (parts[n - 2] === '.claude' || parts[n - 2] === '.codeclone'))
    return at(parts.slice(0, n - 2).join(path.sep) || path.sep);
  if (n >= 2 && parts[n - 1] === '.codeclone') return at(path.dirname(abs));
  const codeclone = parts.indexOf('.codeclone');
  if (codeclone > 0 && parts[codeclone + 1] === 'memory') return at(parts.slice(0, codeclone).join(path.sep));
  if (fs.existsSync(path.join(abs, '.codeclone', 'memory', STORE_FILE))) return at(abs);
  const inner = path.join(abs, '.claude', 'memory');
  if (isDir(inner) && !fs.existsSync(path.join(abs, 'MEMORY.md'))) {
    const d = detectLayout(abs);
    if (!d.ok && d.layout === 'canonical') return at(abs);
  }
  return null;
}

function isUserLevel(abs: string, env: Env): boolean {
  if (abs === userTrustRoot(env) || abs === autoMemoryDirectory(env)) return true;
  return path.dirname(abs) === path.join(claudeConfigDir(env), 'agent-memory');
}

/** Whether a root is read by a session in `projectDir`: a user-level root, or one of that project's. */
export function rootBelongsTo(root: string, projectDir: string, env: Env = process.env): boolean {
  const abs = path.resolve(root);
  // A Claude Code project folder is compared by its name: no decoding on the hook's path.
  const encoded = projectMemoryName(abs, env);
  if (encoded) return encoded === encodeProjectPath(path.resolve(projectDir));
  const p = projectOfRoot(abs, env);
  return p === null || path.resolve(p.path) === path.resolve(projectDir);
}
