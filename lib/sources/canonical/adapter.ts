/**
 * The canonical-file layout (docs/canonical-layout.md) as a LayoutAdapter (lib/sources/layout-adapter.ts):
 * the pure reader (read.ts) and planner (plan.ts) mapped onto the shared record model.
 * A configured root is either the store folder itself or a project folder whose
 * `.claude/memory/` holds the store; detection agrees with lib/sources/detect.ts, and
 * every path the adapter hands out (record locations, problems, edits) is relative to
 * the configured root, so the write pipeline applies edits there. docs/canonical-layout.md,
 * "Wiring".
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { detectLayout } from '../detect';
import type { LayoutAdapter, PlanContext, ReadContext } from '../layout-adapter';
import type { LayoutRead, LayoutRecord, ReadProblem, RecordPlan, RecordPlanResult } from '../record';
import { findCheckout } from './git';
import { statKey } from '../stat-key';
import { plan as planCanonical, type PlanInput } from './plan';
import { detect as detectStore, read as readStore } from './read';
import {
  CANONICAL_ACTIONS,
  type CanonicalAction,
  type CanonicalView,
  type Category,
  type FileEdit,
  type MemoryRecord,
  type Shape,
  type Staleness,
  type TargetCheck,
} from './types';

export interface CanonicalStore {
  /** Absolute path of the store folder. */
  dir: string;
  /** The store folder relative to the configured root: `` (the root itself) or `.claude/memory/`. */
  prefix: string;
  shape: Shape;
}

/** The store a configured root holds, as lib/sources/detect.ts names it; null when it is not canonical. */
export function canonicalStore(root: string): CanonicalStore | null {
  const d = detectLayout(root);
  if (d.ok || d.layout !== 'canonical') return null;
  const rel = d.store && d.store !== '.' ? d.store : '';
  const dir = rel ? path.join(root, rel) : path.resolve(root);
  const found = detectStore(dir);
  if (!found) return null;
  return { dir, prefix: rel ? `${rel.replace(/\/$/, '')}/` : '', shape: found.shape };
}

/** What the record carries in `detail` (JSON-safe), per docs/canonical-layout.md and the records API. */
export interface CanonicalDetail {
  category: Category | 'pending';
  shape: Shape;
  place: MemoryRecord['place'];
  staleness: Staleness | null;
  targetCheck: TargetCheck | null;
  target: string | null;
  claim: string | null;
  /** The entry's own key (the record key is `<category>/<key>`). */
  entryKey: string;
  targetFrom: CanonicalView['targetFrom'];
  added: string | null;
  verified: string | null;
  verifiedFrom: CanonicalView['verifiedFrom'];
  status: string | null;
  closed: string | null;
  restsOn: string[];
  /** The store folder relative to the root (`` or `.claude/memory/`). */
  store: string;
  /** The project checkout targets were checked against (absolute), null outside git. */
  checkout: string | null;
}

function firstLine(e: unknown): string {
  return String(e instanceof Error ? e.message : e).split('\n')[0]!;
}

export function toLayoutRecord(
  m: MemoryRecord,
  sourceId: string,
  store: string,
  checkout: string | null,
): LayoutRecord {
  const c = m.canonical;
  const detail: CanonicalDetail = {
    category: m.category,
    shape: m.shape,
    place: m.place,
    staleness: m.staleness ?? null,
    targetCheck: m.targetCheck ?? null,
    target: c.target,
    claim: c.claim,
    entryKey: m.key,
    targetFrom: c.targetFrom,
    added: c.added,
    verified: c.verified,
    verifiedFrom: c.verifiedFrom,
    status: c.status,
    closed: c.closed,
    restsOn: c.restsOn,
    store,
    checkout,
  };
  return {
    id: m.id,
    layout: 'canonical',
    key: m.id.slice(sourceId.length + 1),
    native: m.native,
    tier: m.tier,
    flags: [...m.flags],
    flagReasons: { ...m.flagReasons },
    location: { file: store + m.location.file, line: m.location.line, endLine: m.location.endLine },
    origin: m.origin,
    title: c.claim ?? m.key,
    text: c.claim ? `${c.claim}\n${m.text}` : m.text,
    createdAt: c.added,
    verifiedAt: c.verifiedDate,
    actions: [...m.actions],
    refused: { ...m.refused } as Record<string, string>,
    fields: m.fields,
    detail: detail as unknown as Record<string, unknown>,
  };
}

/** The layout's own record back from a LayoutRecord (what plan.ts needs), paths relative to the store. */
function fromLayoutRecord(r: LayoutRecord): MemoryRecord {
  const d = r.detail as unknown as CanonicalDetail;
  const store = d.store ?? '';
  const file = r.location.file.startsWith(store) ? r.location.file.slice(store.length) : r.location.file;
  return {
    id: r.id,
    layout: 'canonical',
    key: d.entryKey,
    native: r.native,
    tier: r.tier,
    flags: r.flags,
    flagReasons: r.flagReasons,
    location: { file, line: r.location.line, endLine: r.location.endLine },
    origin: r.origin,
    actions: r.actions as CanonicalAction[],
    refused: r.refused,
    fields: r.fields,
    canonical: {
      key: d.entryKey,
      claim: d.claim,
      target: d.target,
      targetFrom: d.targetFrom,
      added: d.added,
      verified: d.verified,
      verifiedFrom: d.verifiedFrom,
      verifiedSha: null,
      verifiedDate: r.verifiedAt,
      status: d.status,
      closed: d.closed,
      restsOn: d.restsOn ?? [],
    },
    shape: d.shape,
    category: d.category,
    place: d.place,
    staleness: d.staleness ?? undefined,
    targetCheck: d.targetCheck ?? undefined,
    text: r.text,
  };
}

function read(root: string, ctx: ReadContext): LayoutRead {
  const store = (() => {
    try {
      return canonicalStore(root);
    } catch {
      return null;
    }
  })();
  if (!store) {
    return {
      shape: 'missing',
      records: [],
      problems: [
        {
          file: '.',
          line: 0,
          problem: 'no canonical-file store here (none of its eight categories, here or in .claude/memory/)',
        },
      ],
      warnings: [],
    };
  }
  try {
    const r = readStore(store.dir, { now: ctx.now, sourceId: ctx.sourceId });
    const problems: ReadProblem[] = r.failures.map((f) => ({
      file: store.prefix + f.file,
      line: f.line,
      problem: f.problem,
    }));
    const warnings: string[] = [];
    if (r.ignored.length)
      warnings.push(`not read (not part of a canonical store): ${r.ignored.map((f) => store.prefix + f).join(', ')}`);
    if (!r.checkout)
      warnings.push('no git checkout around the store: staleness goes by dates only and targets are not re-verified');
    return {
      shape: r.detected.shape,
      records: r.records.map((m) => toLayoutRecord(m, ctx.sourceId, store.prefix, r.checkout)),
      problems,
      warnings,
    };
  } catch (e) {
    return {
      shape: store.shape,
      records: [],
      problems: [{ file: store.prefix || '.', line: 0, problem: `store unreadable: ${firstLine(e)}` }],
      warnings: [],
    };
  }
}

function readText(p: string): string | null {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

/** The git folder of a checkout (`.git`, or where a worktree's `.git` file points). */
function gitDir(checkout: string): string | null {
  const dotGit = path.join(checkout, '.git');
  const text = readText(dotGit);
  if (text === null) return fs.existsSync(dotGit) ? dotGit : null;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return m ? path.resolve(checkout, m[1]!) : null;
}

/** HEAD's ref and SHA from the files alone (no git process): `ref: refs/heads/main=<sha>`. */
export function headState(checkout: string): string {
  const dir = gitDir(checkout);
  if (!dir) return 'no-git';
  const head = (readText(path.join(dir, 'HEAD')) ?? '').trim();
  const ref = /^ref:\s*(\S+)/.exec(head)?.[1];
  if (!ref) return head || 'no-head';
  const common = (readText(path.join(dir, 'commondir')) ?? '').trim();
  const bases = [dir, ...(common ? [path.resolve(dir, common)] : [])];
  for (const b of bases) {
    const sha = readText(path.join(b, ref));
    if (sha) return `${ref}=${sha.trim()}`;
  }
  for (const b of bases) {
    const packed = readText(path.join(b, 'packed-refs'));
    const line = packed?.split('\n').find((l) => l.endsWith(` ${ref}`));
    if (line) return `${ref}=${line.split(' ')[0]}`;
  }
  return `${ref}=unborn`;
}

/** Stat data of every file and folder of the store (names, sizes, mtimes, inodes) and the checkout's HEAD. */
function changeToken(root: string): string {
  const store = canonicalStore(root);
  if (!store) return 'none';
  const hash = crypto.createHash('sha1');
  const walk = (dir: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      hash.update(`${rel}!\n`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      hash.update(`${rel}${e.name} ${statKey(p)}\n`);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
    }
  };
  hash.update(`store ${statKey(store.dir)}\n`);
  walk(store.dir, '');
  const checkout = findCheckout(store.dir);
  hash.update(`head ${checkout ? headState(checkout) : 'no-git'}\n`);
  return `${store.shape}:${hash.digest('hex')}`;
}

/** Short SHA of the checkout's HEAD now (reaffirm stamps it); null outside git. */
function currentHead(checkout: string | null): string | null {
  if (!checkout) return null;
  try {
    const out = execFileSync('git', ['-C', checkout, 'rev-parse', '--short=7', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
    return out.trim() || null;
  } catch {
    return null;
  }
}

function restoreHint(v: unknown): PlanInput['restoreAt'] {
  let o = v;
  if (typeof o === 'string') {
    try {
      o = JSON.parse(o);
    } catch {
      return undefined;
    }
  }
  if (!o || typeof o !== 'object') return undefined;
  const { line, beforeKey } = o as { line?: unknown; beforeKey?: unknown };
  const out: NonNullable<PlanInput['restoreAt']> = {};
  if (typeof line === 'number' || (typeof line === 'string' && /^\d+$/.test(line))) out.line = Number(line);
  if (typeof beforeKey === 'string' && beforeKey) out.beforeKey = beforeKey;
  return out;
}

function prefixed(prefix: string, e: FileEdit): FileEdit {
  if (!prefix) return e;
  return e.kind === 'move' ? { ...e, from: prefix + e.from, to: prefix + e.to } : { ...e, file: prefix + e.file };
}

function plan(record: LayoutRecord, action: string, ctx: PlanContext): RecordPlanResult {
  if (!(CANONICAL_ACTIONS as readonly string[]).includes(action)) {
    return { ok: false, reason: `canonical entries have no ${action}; the verbs are ${CANONICAL_ACTIONS.join(', ')}` };
  }
  if (record.layout !== 'canonical') return { ok: false, reason: `${record.id} is not a canonical entry` };
  const d = record.detail as unknown as CanonicalDetail;
  const prefix = d.store ?? '';
  const opts = ctx.options ?? {};
  const status = opts.status === 'picked-up' || opts.status === 'dropped' ? opts.status : undefined;
  const input: PlanInput = {
    read: (file) => ctx.read(prefix + file),
    head: typeof opts.head === 'string' ? opts.head : action === 'reaffirm' ? currentHead(d.checkout) : null,
    reason: ctx.reason,
    status,
    restoreAt: restoreHint(opts.restoreAt),
  };
  let r: ReturnType<typeof planCanonical>;
  try {
    r = planCanonical(fromLayoutRecord(record), action as CanonicalAction, ctx.now, input);
  } catch (e) {
    return { ok: false, reason: `${record.location.file}: ${firstLine(e)}` };
  }
  if (!r.ok) return { ok: false, reason: r.reason };
  const memo: RecordPlan['memo'] = { ...r.plan.memo };
  for (const k of ['from', 'to'] as const) if (typeof memo[k] === 'string') memo[k] = prefix + memo[k];
  return {
    ok: true,
    plan: {
      edits: r.plan.edits.map((e) => prefixed(prefix, e)),
      memo,
      files: r.plan.files.map((f) => prefix + f),
      summary: r.plan.summary,
    },
  };
}

export const canonicalLayout: LayoutAdapter = {
  layout: 'canonical',
  label: 'canonical-file project memory',
  detect(dir) {
    try {
      const s = canonicalStore(dir);
      return s ? { shape: s.shape } : null;
    } catch {
      return null;
    }
  },
  read,
  changeToken,
  actions: CANONICAL_ACTIONS,
  plan,
};
