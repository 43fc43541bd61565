/**
 * Does any page show a credential value in clear? (issue 33: "the browser shows no credential
 * value on any page of the real folders"; docs/credentials.md §3, "The pages check").
 *
 *   npx tsx bench/real-credentials/pages-check.ts [--data /work/realdata] [--tune-dir DIR[,DIR…]] [--locations] [--keep] [--no-build] [--explain]
 *
 * --explain prints, for each detected value shown, its page text around it with the value masked.
 *
 * Copies the real folders (DATA/tune/<id>, DATA/unseen/<id>; README.md here) into a temp
 * folder outside the repository, each as a Claude Code memory folder
 * (`<tmp>/home/.claude/projects/-real-<id>/memory/`, files in subfolders brought to its top
 * level as `a__b.md`, so every labelled file is a memory the pages show), configures them as
 * the roots (MEMTRUST_ROOT), indexes them with the CLI, starts the built dashboard on a free
 * 127.0.0.1 port and reads every page a user sees: the overview, the tier pages, every page
 * of the review inbox (and its preview of each labelled memory), the MEMORY.md pages,
 * /context, /audit, the report exports (HTML, Markdown, JSON), the CLI's `list --json` and `roots --json`, and the page
 * and `show --json` of every memory whose file holds one of the values (a memory's page shows
 * that file only, so the others cannot show one; they are counted).
 *
 * The values looked for are taken at run time from the labelled lines of labels.tsv, held in
 * memory only, never printed or written:
 * - a labelled line with a credential finding (the secret check as the dashboard runs it,
 *   with the roots' known values) is "detected": its values are the findings' values;
 * - a labelled line without one is "undetected": its values are the line's tokens that could
 *   be a secret (6+ characters with a digit or symbol, not a date, time, URL or path), an
 *   approximation.
 * Every other credential value the check finds in the folders is looked for too. A detected
 * value on a page is a masking defect ("detected but shown", which must be 0); an undetected
 * one is the rule's miss. Output: per page kind, counts, and for each value shown its
 * folder/file:line and the page, never the value. Locations of undetected labels of the
 * unseen folds are printed only with --locations (README.md: nobody lists their misses).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readFolders, readLabels, type RealLabel } from './folders';

const PROJECT = path.resolve(__dirname, '..', '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const DATA = path.resolve(arg('--data', '/work/realdata'));
const LOCATIONS = process.argv.includes('--locations');
const KEEP = process.argv.includes('--keep');
/** --explain: where each detected-but-shown value stands on its first page, the value itself replaced by ⟦value⟧. */
const EXPLAIN = process.argv.includes('--explain');

// ---------- 1. the copies ----------

interface Copied {
  folder: string;
  fold: 'tune' | 'unseen';
  root: string;
  /** original relative path → the memory's filename in the copy */
  names: Map<string, string>;
}

const flatName = (rel: string) => rel.split('/').join('__');
const ownKey = (root: string, name: string) => `${root}\0${name}`;

function walk(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name), rel));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/** --tune-dir DIR[,DIR…]: more folders of the tune fold (`DIR/<id>/…`), where a spent fold's copies are kept. */
const TUNE_DIRS = arg('--tune-dir', '')
  .split(',')
  .filter(Boolean)
  .map((d) => path.resolve(d));

function copyFolders(tmp: string): Copied[] {
  const out: Copied[] = [];
  const sources: Array<['tune' | 'unseen', string]> = [
    ['tune', path.join(DATA, 'tune')],
    ['unseen', path.join(DATA, 'unseen')],
    ...TUNE_DIRS.map((d): ['tune', string] => ['tune', d]),
  ];
  for (const [fold, dir] of sources) {
    if (!fs.existsSync(dir)) continue;
    for (const folder of fs.readdirSync(dir).sort()) {
      const src = path.join(dir, folder);
      if (!fs.statSync(src).isDirectory()) continue;
      const root = path.join(tmp, 'home', '.claude', 'projects', `-real-${folder}`, 'memory');
      fs.mkdirSync(root, { recursive: true });
      const names = new Map<string, string>();
      for (const rel of walk(src)) {
        const name = flatName(rel);
        fs.copyFileSync(path.join(src, rel), path.join(root, name));
        names.set(rel, name);
      }
      out.push({ folder, fold, root, names });
    }
  }
  return out;
}

// ---------- 2. the values (in memory only) ----------

/** A value looked for, and where it comes from. */
interface Sought {
  value: string;
  where: string;
  fold: 'tune' | 'unseen';
  /** true: the check finds it as a credential; false: a labelled line the check misses. */
  detected: boolean;
  labelled: boolean;
  /**
   * A detected value the product does not propagate (words joined by `-`/`_`, docs/credentials.md
   * §8 "What propagates"): masked in its own file only, by decision. Its copy root and file name;
   * shown on another file's page it is counted apart, not as a masking defect.
   */
  own?: string;
}

const DATE_TIME = /^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?|v?\d+(?:\.\d+)+)$/;

/**
 * The tokens of an undetected labelled line that could be its value (an approximation): 6 to
 * 200 characters with a letter and a digit or a symbol such as `!#$%&*+=?^~`, not a date, time,
 * version, address, host, path, URL or file name.
 */
function tokensOf(line: string): string[] {
  const out = new Set<string>();
  for (const raw of line.split(/[\s`"'()[\]{}<>,;|]+/)) {
    if (/:\/\//.test(raw)) continue; // a URL: its password, if any, is a detector's
    for (let t of [raw, ...raw.split(/[:=@]|\/(?=.)/)]) {
      t = t.replace(/^[*_~]+|[*_~.!?:]+$/g, '');
      if (t.length < 6 || t.length > 200 || !/[A-Za-z]/.test(t)) continue;
      if (!/[0-9]/.test(t) && !/[!#$%&*+=?^~]/.test(t)) continue;
      if (DATE_TIME.test(t) || /^\d{4}-\d{2}/.test(t) || /^[\d.]+$/.test(t)) continue;
      if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(t) && !/[A-Z].*\d|\d.*[A-Z]/.test(t)) continue; // a host or a file name
      if (t.includes('/')) continue; // a path
      out.add(t);
    }
  }
  return [...out];
}

async function collectValues(
  copies: Copied[],
  labels: RealLabel[],
): Promise<{ sought: Sought[]; labelsRead: number; labelsDetected: number; labelsMissingFile: number }> {
  const { secretCandidates } = await import('../../lib/validators/secrets');
  const { credentialValue, KNOWN_VALUE_CODE } = await import('../../lib/validators/known-values');
  const { findingClass } = await import('../../lib/validators/types');
  const { lineStarts, lineAt } = await import('../../lib/validators/scan-text');
  const { ownerIdentity } = await import('../../lib/core/identity');
  const owner = ownerIdentity(process.env);
  const byFolder = new Map(copies.map((c) => [c.folder, c]));
  const sought: Sought[] = [];
  const seen = new Set<string>();
  const add = (s: Sought) => {
    const k = `${s.detected ? 1 : 0}\0${s.value}\0${s.own ?? ''}`;
    if (seen.has(k)) return;
    seen.add(k);
    sought.push(s);
  };
  const labelled = new Map<string, Set<number>>();
  for (const l of labels) {
    const k = `${l.folder}/${l.file}`;
    if (!labelled.has(k)) labelled.set(k, new Set());
    labelled.get(k)!.add(l.line);
  }
  let labelsRead = 0;
  let labelsDetected = 0;
  let labelsMissingFile = 0;
  for (const c of copies) {
    for (const [rel, name] of c.names) {
      const text = fs.readFileSync(path.join(c.root, name), 'utf8');
      const starts = lineStarts(text);
      const creds = secretCandidates(text, owner, starts).filter((x) => findingClass(x.code) === 'credential');
      const onLine = new Map<number, { value: string; own?: string }[]>();
      for (const x of creds) {
        const v = x.code === KNOWN_VALUE_CODE ? text.slice(x.start, x.end) : credentialValue(text, x);
        const value = v ?? text.slice(x.start, x.end);
        if (value.includes('\n') || value.length < 6) continue; // a key block is masked whole; too short to search
        const line = lineAt(starts, x.start);
        if (!onLine.has(line)) onLine.set(line, []);
        onLine
          .get(line)!
          .push({ value, own: v === null && x.code !== KNOWN_VALUE_CODE ? ownKey(c.root, name) : undefined });
      }
      const want = labelled.get(`${c.folder}/${rel}`) ?? new Set<number>();
      for (const [line, values] of onLine)
        for (const { value, own } of values)
          add({
            value,
            own,
            where: `${c.folder}/${rel}:${line}`,
            fold: c.fold,
            detected: true,
            labelled: want.has(line),
          });
      for (const line of want) {
        labelsRead++;
        if (onLine.has(line)) {
          labelsDetected++;
          continue;
        }
        const s = starts[line - 1] ?? text.length;
        const e = starts[line] ?? text.length;
        for (const value of tokensOf(text.slice(s, e)))
          add({ value, where: `${c.folder}/${rel}:${line}`, fold: c.fold, detected: false, labelled: true });
      }
    }
  }
  for (const l of labels) {
    const c = byFolder.get(l.folder);
    if (c && !c.names.has(l.file)) labelsMissingFile++;
  }
  // A detected value is never also counted as an undetected one.
  const detected = new Set(sought.filter((s) => s.detected).map((s) => s.value));
  return {
    sought: sought.filter((s) => s.detected || !detected.has(s.value)),
    labelsRead,
    labelsDetected,
    labelsMissingFile,
  };
}

// ---------- 3. finding values in text ----------

const HTML_ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decodeEntities(s: string): string {
  return s.replace(HTML_ENTITY, (_m, d, h, n) =>
    d ? String.fromCodePoint(Number(d)) : h ? String.fromCodePoint(Number.parseInt(h, 16)) : NAMED[n]!,
  );
}
function jsUnescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
    if (e[0] === 'u' && e.length === 5) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (e[0] === 'x' && e.length === 3) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return e === 'n' ? '\n' : e === 't' ? '\t' : e;
  });
}
/**
 * The page without its style classes (`class="…"` and the RSC payload's `"className":"…"`): the
 * dashboard's own Tailwind classes (`md:grid-cols-2`) are no memory text, and a value a note
 * shares with one is not shown by being in the markup.
 */
function withoutStyles(body: string): string {
  return body.replace(/ class="[^"]*"/g, '').replace(/\\*"className\\*":\\*"[^"\\]*\\*"/g, '');
}
/** The forms a value may take in a page: as is, HTML-decoded, as text between tags, inside JS/JSON strings (RSC payload). */
function variants(served: string): string[] {
  const body = withoutStyles(served);
  const once = jsUnescape(body);
  return [body, decodeEntities(body), decodeEntities(body.replace(/<[^>]*>/g, '')), once, jsUnescape(once)];
}

/** Finds which sought values occur in a text: candidates by their first three UTF-16 units, then compared. */
class Finder {
  private byHead = new Map<number, number[]>();
  constructor(private values: readonly string[]) {
    values.forEach((v, i) => {
      const k = head(v, 0);
      const list = this.byHead.get(k);
      if (list) list.push(i);
      else this.byHead.set(k, [i]);
    });
  }
  /**
   * Occurrences glued to a letter or digit (`500001` inside `1775000500001`) are another token,
   * not the value (docs/credentials.md §8, "Matching"). Restated here on purpose, and looser than
   * the product's run boundaries (known-values.ts ends a run at Han, kana and Hangul too): the
   * check is an oracle for the masking, so it must not share the code it checks.
   */
  find(text: string, into: Set<number>, at?: Map<number, number[]>): void {
    for (let i = 0; i + 6 <= text.length; i++) {
      const list = this.byHead.get(head(text, i));
      if (!list) continue;
      for (const j of list) {
        const v = this.values[j]!;
        if ((into.has(j) && !at) || !text.startsWith(v, i)) continue;
        if (
          glued(v.charCodeAt(0), text.charCodeAt(i - 1)) ||
          glued(v.charCodeAt(v.length - 1), text.charCodeAt(i + v.length))
        )
          continue;
        into.add(j);
        if (at) at.set(j, [...(at.get(j) ?? []), i]);
      }
    }
  }
}
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const glued = (edge: number, next: number) => isAlnum(edge) && isAlnum(next);
const head = (s: string, i: number) => s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);

/** The first place a value stands in a page's forms, 60 characters around it, the value masked. */
function explain(body: string, value: string, finder: Finder, j: number): string {
  for (const v of variants(body)) {
    const at = new Map<number, number[]>();
    finder.find(v, new Set(), at);
    const i = at.get(j)?.[0];
    if (i === undefined) continue;
    const around = `${v.slice(Math.max(0, i - 60), i)}⟦value⟧${v.slice(i + value.length, i + value.length + 60)}`;
    return JSON.stringify(around);
  }
  return '(not found again)';
}

// ---------- 4. the server and the pages ----------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(
  env: NodeJS.ProcessEnv,
): Promise<{ base: string; log: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(PROJECT, 'lib/server/start.mjs')], {
    env: { ...env, PORT: String(port), MEMTRUST_NO_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the dashboard exited (${child.exitCode}):\n${log}`);
    if (log.includes('memtrust dashboard:')) break;
    if (Date.now() > deadline) throw new Error(`the dashboard did not start in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The CLI in this process, with the dashboard's environment: what `memtrust ARGS` prints. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const { main } = await import('../../lib/cli/main');
  const parts: string[] = [];
  const code = await main(args, {
    out: (l) => {
      parts.push(`${l}\n`);
    },
    write: (t) => {
      parts.push(t);
    },
    err: () => {},
    isTTY: false,
  });
  return { code, out: parts.join('') };
}

interface Page {
  kind: string;
  url: string;
  body: string;
  /** The one memory file a memory page, `show` or inbox preview shows (ownKey). */
  own?: string;
}

async function get(base: string, url: string): Promise<string> {
  // A kept-alive connection the server closed meanwhile fails once: asked again on a new one.
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(base + url, { redirect: 'follow' });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return await r.text();
    } catch (e) {
      if (attempt >= 3 || /^HTTP/.test((e as Error).message))
        throw new Error(`${url}: ${(e as Error).message}`, { cause: (e as { cause?: unknown }).cause });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A page and every further page of the same listing its pager links to (`page=N`). */
async function paged(base: string, kind: string, start: string, into: Page[]): Promise<void> {
  const seen = new Set([start]);
  const todo = [start];
  const pathOf = (u: string) => u.split('?')[0];
  while (todo.length) {
    const url = todo.shift()!;
    const body = await get(base, url);
    into.push({ kind, url, body });
    for (const m of body.matchAll(/href="([^"]+)"/g)) {
      const href = decodeEntities(m[1]!);
      if (pathOf(href) !== pathOf(start) || !/[?&]page=\d+/.test(href) || seen.has(href)) continue;
      seen.add(href);
      todo.push(href);
    }
  }
}

// ---------- 5. the run ----------

async function run(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-pages-check-'));
  const copies = copyFolders(tmp);
  if (copies.length === 0) throw new Error(`no folders under ${DATA}/tune or ${DATA}/unseen (README.md, "Running")`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: path.join(tmp, 'home'),
    MEMTRUST_ROOT: copies.map((c) => c.root).join(path.delimiter),
    MEMTRUST_DB: path.join(tmp, 'data', 'memtrust', 'index.sqlite'),
    XDG_CONFIG_HOME: path.join(tmp, 'config'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    MEMTRUST_MACHINE: 'pages-check',
    MEMTRUST_PROJECT_DIR: PROJECT,
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
  };
  // The CLI and the checks below run in this process with the dashboard's environment.
  for (const k of Object.keys(process.env))
    if (k.startsWith('MEMTRUST_') || k.startsWith('OWNER_')) delete process.env[k];
  Object.assign(process.env, env);
  const t0 = Date.now();
  const scan = await cli(['scan']);
  if (scan.code !== 0) throw new Error(`memtrust scan exited ${scan.code}`);
  const folders = new Map(readFolders().map((f) => [f.id, f]));
  const labels = readLabels().filter((l) => l.kind === 'credential');
  const present = new Set(copies.map((c) => c.folder));
  const here = labels.filter((l) => present.has(l.folder));
  const { sought, labelsRead, labelsDetected, labelsMissingFile } = await collectValues(copies, here);
  const finder = new Finder(sought.map((s) => s.value));

  const { buildIfNeeded } = (await import(path.join(PROJECT, 'lib/server/build-if-needed.mjs'))) as {
    buildIfNeeded: (dir: string) => void;
  };
  if (!process.argv.includes('--no-build')) buildIfNeeded(PROJECT);
  const server = await startServer(env);
  const pages: Page[] = [];
  let skippedMemories = 0;
  try {
    const listed = await cli(['list', '--json']);
    const items = (JSON.parse(listed.out) as { items?: Record<string, unknown>[] }).items ?? [];
    pages.push({ kind: 'cli list --json', url: 'memtrust list --json', body: listed.out });
    await paged(server.base, 'overview', '/', pages);
    for (const tier of ['verified', 'inferred', 'quarantined', 'archived'])
      await paged(server.base, 'tier pages', `/tiers/${tier}`, pages);
    await paged(server.base, 'review inbox', '/review', pages);
    await paged(server.base, 'audit', '/audit', pages);
    pages.push({ kind: 'context', url: '/context', body: await get(server.base, '/context') });
    for (const f of ['html', 'md', 'json'])
      pages.push({ kind: 'report exports', url: `/report/${f}`, body: await get(server.base, `/report/${f}`) });
    const rootsOut = await cli(['roots', '--json']);
    pages.push({ kind: 'cli roots --json', url: 'memtrust roots --json', body: rootsOut.out });
    const configured = (JSON.parse(rootsOut.out) as { configured: { root: string; id: string; error?: unknown }[] })
      .configured;
    const folderOf = new Map<string, Copied>();
    for (const r of configured) {
      const c = copies.find((x) => x.root === r.root);
      if (c) folderOf.set(r.id, c);
    }
    const labelledFiles = new Set(here.map((l) => `${l.folder}/${flatName(l.file)}`));
    // A memory's page and `show` show that file only: a file whose bytes hold none of the values cannot show one.
    const copyOf = new Map(copies.map((c) => [c.root, c]));
    const holding = items.filter((it) => {
      const c = copyOf.get(String(it.root));
      if (!c) return true;
      const found = new Set<number>();
      finder.find(fs.readFileSync(path.join(c.root, String(it.file)), 'utf8'), found);
      return found.size > 0;
    });
    console.error(`memory pages: ${holding.length} of ${items.length} memories hold a value`);
    skippedMemories = items.length - holding.length;
    let n = 0;
    for (const it of holding) {
      if (++n % 100 === 0) console.error(`memory pages: ${n} of ${holding.length}`);
      const id = String(it.id);
      const c = copyOf.get(String(it.root));
      const own = ownKey(String(it.root), String(it.file));
      const url = `/memories/${encodeURIComponent(id)}`;
      pages.push({ kind: 'memory pages', url, body: await get(server.base, url), own });
      const show = await cli(['show', id, '--json']);
      pages.push({ kind: 'cli show --json', url: `memtrust show ${id} --json`, body: show.out, own });
      if (c && labelledFiles.has(`${c.folder}/${String(it.file)}`)) {
        const sel = `/review?sel=${encodeURIComponent(id)}`;
        pages.push({ kind: 'review inbox', url: sel, body: await get(server.base, sel), own });
      }
    }
    for (const [id, c] of folderOf) {
      if (!fs.existsSync(path.join(c.root, 'MEMORY.md'))) continue;
      const url = `/memories/${encodeURIComponent(`${id}:MEMORY.md`)}`;
      pages.push({ kind: 'MEMORY.md pages', url, body: await get(server.base, url) });
    }
    console.error(`read: ${items.length} memories listed; roots not read: ${configured.filter((r) => r.error).length}`);
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    throw new Error(`${(e as Error).message}${cause ? ` (${String(cause)})` : ''}\n${server.log().slice(-3000)}`);
  } finally {
    await server.stop();
  }

  // ---------- 6. the report ----------
  const kinds = [...new Set(pages.map((p) => p.kind))];
  const shown = new Map<number, { kind: string; url: string }[]>();
  const elsewhere = new Map<number, { kind: string; url: string }[]>();
  const perKind = new Map<
    string,
    { pages: number; detected: Set<number>; undetected: Set<number>; other: Set<number> }
  >();
  for (const k of kinds) perKind.set(k, { pages: 0, detected: new Set(), undetected: new Set(), other: new Set() });
  for (const p of pages) {
    const found = new Set<number>();
    for (const v of variants(p.body)) finder.find(v, found);
    const k = perKind.get(p.kind)!;
    k.pages++;
    for (const j of found) {
      const own = sought[j]!.own;
      if (own !== undefined && p.own !== own) {
        k.other.add(j);
        if (!elsewhere.has(j)) elsewhere.set(j, []);
        elsewhere.get(j)!.push({ kind: p.kind, url: p.url });
        continue;
      }
      (sought[j]!.detected ? k.detected : k.undetected).add(j);
      if (!shown.has(j)) shown.set(j, []);
      shown.get(j)!.push({ kind: p.kind, url: p.url });
    }
  }
  const d = sought.filter((s) => s.detected);
  console.log(
    `folders ${copies.length} (${copies.filter((c) => c.fold === 'tune').length} tune, ${copies.filter((c) => c.fold === 'unseen').length} unseen), files ${copies.reduce((n, c) => n + c.names.size, 0)}, pages and outputs read ${pages.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  console.log(
    `memory pages and show --json: for the memories whose file holds a value (${skippedMemories} hold none, so their pages cannot show one)`,
  );
  console.log(
    `credential labels: ${labels.length} in labels.tsv, ${here.length} in the folders present (${labels.length - here.length} in folders not copied), ${labelsMissingFile} on files absent from the copy; ${labelsDetected} of ${labelsRead} detected by today's check`,
  );
  console.log(
    `values looked for: ${d.length} detected credential values (${d.filter((s) => s.labelled).length} on labelled lines), ${sought.length - d.length} tokens of undetected labelled lines`,
  );
  console.log('');
  console.log('page kind            pages  detected but shown  undetected shown  unpropagated, elsewhere');
  for (const k of kinds) {
    const x = perKind.get(k)!;
    console.log(
      `${k.padEnd(20)} ${String(x.pages).padStart(5)}  ${String(x.detected.size).padStart(18)}  ${String(x.undetected.size).padStart(16)}  ${String(x.other.size).padStart(23)}`,
    );
  }
  const detShown = [...shown.keys()].filter((j) => sought[j]!.detected);
  const undShown = [...shown.keys()].filter((j) => !sought[j]!.detected);
  const undLabels = new Set(undShown.map((j) => sought[j]!.where));
  console.log('');
  console.log(`detected but shown: ${detShown.length} values`);
  for (const j of detShown) {
    const s = sought[j]!;
    const at = shown.get(j)!;
    console.log(`  ${s.where}  on ${at.length} pages, e.g. ${at[0]!.kind}: ${at[0]!.url}`);
    if (EXPLAIN) console.log(`    ${explain(pages.find((p) => p.url === at[0]!.url)!.body, s.value, finder, j)}`);
  }
  console.log(
    `unpropagated values (words joined by - or _, masked in their own file only: docs/credentials.md §8) standing on another file's or a list's page: ${elsewhere.size}`,
  );
  for (const [j, at] of elsewhere) {
    console.log(`  ${sought[j]!.where}  on ${at.length} pages, e.g. ${at[0]!.kind}: ${at[0]!.url}`);
    if (EXPLAIN)
      console.log(`    ${explain(pages.find((p) => p.url === at[0]!.url)!.body, sought[j]!.value, finder, j)}`);
  }
  console.log(`undetected (the rule's misses), shown: ${undLabels.size} labelled lines`);
  for (const where of [...undLabels].sort()) {
    const folder = where.split('/')[0]!;
    if (folders.get(folder)?.fold !== 'tune' && !LOCATIONS) continue;
    const j = undShown.find((x) => sought[x]!.where === where)!;
    console.log(`  ${where}  e.g. ${shown.get(j)![0]!.url}`);
  }
  if (!LOCATIONS) console.log('  (unseen folds: counts only; --locations prints them)');
  if (KEEP) console.log(`kept: ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = detShown.length > 0 ? 1 : 0;
}

run().catch((e) => {
  console.error(`pages-check: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
});
