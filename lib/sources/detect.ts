/**
 * Layout detection (docs/layouts.md; docs/configuration.md; docs/roots.md). A root is read
 * only when it holds a layout memtrust reads — a trust-model root or a Claude Code memory
 * folder. Every other store is named and refused, never scanned as "0 files" and never
 * misread as one of the two (a canonical-file `.claude/memory/` is not a Claude Code folder).
 * Reads directory entries and at most a few KiB of a few files; writes nothing.
 */
import fs from 'node:fs';
import { OPEN_READ } from '../core/read-fd';
import path from 'node:path';
import { CATEGORIES as CATEGORY_LIST } from './canonical/types';
import { STORE_FILE } from './governed/types';
import { projectMemoryName } from './claude-config-dir';
import { readEntries } from './read-dir';

/** The categories of a canonical-file store (docs/canonical-layout.md): the adapter's own list. */
const CATEGORIES: readonly string[] = CATEGORY_LIST;

export type ReadLayout = 'trust-root' | 'claude-code';
export type RefusedLayout = 'canonical' | 'governed' | 'consolidation' | 'mcp-graph' | 'notes' | 'file' | 'unknown';

export type Detection =
  | { ok: true; layout: ReadLayout; shape: string }
  | {
      ok: false;
      layout: RefusedLayout;
      shape?: string;
      found: string /** Canonical: the store folder relative to the root (`.` or `.claude/memory`). */;
      store?: string;
    };

export const SUPPORTED_LAYOUTS =
  'memtrust reads a trust-model root (memories/, quarantine/, archive/), a Claude Code memory folder (*.md memories beside MEMORY.md), ' +
  'and as records a canonical-file project memory (.claude/memory/), a codeclone governed store and consolidation *.memory.jsonl files';

const CANONICAL_MARKERS = ['_pending.md', '_discard-ledger.md', '_resume.md', '_thread.md'];
const GOVERNED_DB = STORE_FILE;
/** Files sampled to tell notes from memories; a folder is judged on its first ones (sorted). */
const SAMPLE = 20;

function head(file: string, n = 4096): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, OPEN_READ);
    const buf = Buffer.alloc(n);
    const got = fs.readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A JSON Lines file whose first record is an MCP knowledge-graph entity or relation. */
function isMcpGraph(file: string): boolean {
  const first = head(file)
    .split('\n')
    .find((l) => l.trim() !== '');
  if (!first) return false;
  try {
    const v = JSON.parse(first) as { type?: unknown };
    return v.type === 'entity' || v.type === 'relation';
  } catch {
    return false;
  }
}

function hasFrontmatter(file: string): boolean {
  return /^\ufeff?---[ \t]*\r?\n/.test(head(file, 512));
}

function dirHasMarkdown(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((n) => n.endsWith('.md'));
  } catch {
    return false;
  }
}

function list(names: string[], max = 4): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/** `~/.claude/projects/<project>/memory` (or under `$CLAUDE_CONFIG_DIR`): Claude Code's own folder, whatever it holds yet. */
function isClaudeProjectMemory(root: string): boolean {
  const parts = path.resolve(root).split(path.sep);
  const n = parts.length;
  if (n >= 4 && parts[n - 1] === 'memory' && parts[n - 3] === 'projects' && parts[n - 4] === '.claude') return true;
  return projectMemoryName(root) !== null;
}

/** One pass over the entries (a Claude Code folder holds one per memory: detectLayout, below). */
function canonicalIn(dir: string, entries: fs.Dirent[]): { files: string[]; folders: string[]; markers: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  const markers: string[] = [];
  for (const e of entries) {
    const n = e.name;
    if (e.isFile()) {
      if (n.endsWith('.md') && CATEGORIES.includes(n.slice(0, -3))) files.push(n);
      if (CANONICAL_MARKERS.includes(n)) markers.push(n);
    } else if (e.isDirectory() && CATEGORIES.includes(n) && dirHasMarkdown(path.join(dir, n))) folders.push(`${n}/`);
  }
  return { files, folders, markers };
}

function detectFile(root: string): Detection {
  const name = path.basename(root);
  let what = 'a single file';
  if (name.endsWith('.memory.jsonl')) what = 'a consolidation store file (*.memory.jsonl)';
  else if (name.endsWith('.jsonl') && isMcpGraph(root))
    what = 'an MCP memory server knowledge graph (entity/relation lines)';
  else if (name === GOVERNED_DB) what = 'a governed memory store (engineering_memory.sqlite3)';
  else if (name.endsWith('.md')) what = 'a single Markdown file';
  return {
    ok: false,
    layout: 'file',
    found: `is a file, not a folder: ${what}; give the folder that holds the memories`,
  };
}

export function detectLayout(root: string): Detection {
  let st: fs.Stats;
  try {
    st = fs.statSync(root);
  } catch {
    // Missing or unreadable: reported as the source's error, not as a layout.
    return { ok: true, layout: 'trust-root', shape: 'missing' };
  }
  if (!st.isDirectory()) return detectFile(root);
  let entries: fs.Dirent[];
  try {
    entries = readEntries(root);
  } catch {
    return { ok: true, layout: 'trust-root', shape: 'unreadable' };
  }
  // What the rules below ask of the names, in one pass: a Claude Code folder holds one entry per
  // memory (1,222 in the bench home's largest project), and a pass per question, with a sort, was
  // most of a session start's layout detection (docs/performance.md, "The hooks"). The names are
  // sorted only where a rule lists them or samples the first ones.
  let memoriesDir = false;
  let claudeDir = false;
  let hasIndex = false;
  let governedHere = false;
  const jsonl: string[] = [];
  for (const e of entries) {
    const n = e.name;
    if (n === 'memories' && e.isDirectory()) memoriesDir = true;
    if (n === '.claude' && e.isDirectory()) claudeDir = true;
    if (n === 'MEMORY.md') hasIndex = true;
    if (n === GOVERNED_DB) governedHere = true;
    if (n.endsWith('.jsonl')) jsonl.push(n);
  }
  jsonl.sort();
  if (memoriesDir) return { ok: true, layout: 'trust-root', shape: 'folders' };

  // Stores of the later layouts (docs/layouts.md): named, refused until their adapters land.
  const governed = fs.existsSync(path.join(root, '.codeclone', 'memory', GOVERNED_DB))
    ? `.codeclone/memory/${GOVERNED_DB}`
    : governedHere
      ? GOVERNED_DB
      : null;
  if (governed)
    return {
      ok: false,
      layout: 'governed',
      found: `found a governed memory store (${governed}), which memtrust does not read yet`,
    };
  const consolidation = jsonl.filter((n) => n.endsWith('.memory.jsonl'));
  if (consolidation.length)
    return {
      ok: false,
      layout: 'consolidation',
      found: `found a consolidation store (${list(consolidation)}), which memtrust does not read yet`,
    };
  const graph = jsonl.filter((n) => isMcpGraph(path.join(root, n)));
  if (graph.length)
    return {
      ok: false,
      layout: 'mcp-graph',
      found: `found an MCP memory server knowledge graph (${list(graph)}: entity/relation lines), which memtrust does not read`,
    };

  const own = canonicalIn(root, entries);
  const underClaude = path.basename(path.dirname(path.resolve(root))) === '.claude' && path.basename(root) === 'memory';
  const canonical =
    own.folders.length > 0 ||
    own.markers.length > 0 ||
    own.files.length >= 2 ||
    (own.files.length === 1 && underClaude && !hasIndex);
  if (canonical && !isClaudeProjectMemory(root)) {
    const shape = own.folders.length > 0 ? 'sharded' : 'flat';
    const what = [...own.files, ...own.folders, ...own.markers];
    return {
      ok: false,
      layout: 'canonical',
      shape,
      store: '.',
      found: `found a canonical-file project memory (${shape}: ${list(what)}), which memtrust does not read yet`,
    };
  }
  if (claudeDir && !hasIndex) {
    const inner = path.join(root, '.claude', 'memory');
    let innerEntries: fs.Dirent[] = [];
    try {
      innerEntries = fs.readdirSync(inner, { withFileTypes: true });
    } catch {
      // no .claude/memory
    }
    const c = canonicalIn(inner, innerEntries);
    if (c.files.length || c.folders.length || c.markers.length) {
      const shape = c.folders.length > 0 ? 'sharded' : 'flat';
      return {
        ok: false,
        layout: 'canonical',
        shape,
        store: '.claude/memory',
        found: `found a project with a canonical-file memory in .claude/memory/ (${shape}: ${list([...c.files, ...c.folders, ...c.markers])}), which memtrust does not read yet`,
      };
    }
  }

  if (hasIndex || isClaudeProjectMemory(root))
    return { ok: true, layout: 'claude-code', shape: hasIndex ? 'index' : 'no-index' };
  const names = entries.map((e) => e.name).sort();
  const md = names.filter((n) => n.endsWith('.md') && entries.find((e) => e.name === n)?.isFile());
  if (md.length > 0) {
    if (md.slice(0, SAMPLE).some((n) => hasFrontmatter(path.join(root, n))))
      return { ok: true, layout: 'claude-code', shape: 'no-index' };
    return {
      ok: false,
      layout: 'notes',
      found: `found a folder of ${md.length} Markdown ${md.length === 1 ? 'note' : 'notes'} without frontmatter and no MEMORY.md`,
    };
  }
  // A fresh root (empty, or only memtrust's own folders) becomes a trust-model root.
  const other = names.filter((n) => !n.startsWith('.') && n !== 'quarantine' && n !== 'archive');
  if (other.length === 0)
    return {
      ok: true,
      layout: 'trust-root',
      shape: names.includes('quarantine') || names.includes('archive') ? 'folders' : 'empty',
    };
  return { ok: false, layout: 'unknown', found: `found no memory files (${list(other)})` };
}

/** The one line a refused root is reported with (CLI exit 64, dashboard notice). */
export function refusalLine(root: string, d: Extract<Detection, { ok: false }>): string {
  return `memory root refused: ${root}: ${d.found}; ${SUPPORTED_LAYOUTS}`;
}
