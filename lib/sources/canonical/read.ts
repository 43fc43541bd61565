/**
 * Detects and reads a canonical-file store (layout 3, docs/canonical-layout.md) into records: both
 * shapes, the quarantine folder and the `_pending.md` inbox, with staleness from one
 * git walk and targets re-verified in one batch (docs/canonical-layout.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { GitIndex, findCheckout, walkGit } from './git';
import { splitLines } from './lines';
import { bulletGet, flatBlocks, fmGet, listValue, readSharded } from './parse';
import { isSha, leadingDate, staleness } from './staleness';
import {
  CANONICAL_ACTIONS,
  CATEGORIES,
  NOT_ENTRIES,
  PENDING_FILE,
  QUARANTINE_DIR,
  isCategory,
  type CanonicalAction,
  type CanonicalView,
  type Category,
  type Detected,
  type MemoryRecord,
  type RawField,
  type ReadFailure,
  type ReadResult,
  type RecordFlag,
  type RecordTier,
  type Shape,
} from './types';
import { targetSpec, type TargetSpec } from './target';
import { verifyTargets } from './verify';

export class CanonicalReadError extends Error {}

function kindOf(p: string): 'file' | 'dir' | null {
  try {
    const st = fs.statSync(p);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : null;
  } catch {
    return null;
  }
}

/** Shape of each category found in `dir`; null when none of the eight is there. */
export function detect(dir: string): Detected | null {
  const categories: Detected['categories'] = {};
  for (const c of CATEGORIES) {
    if (kindOf(path.join(dir, c)) === 'dir') categories[c] = 'sharded';
    else if (kindOf(path.join(dir, `${c}.md`)) === 'file') categories[c] = 'flat';
  }
  const shapes = Object.values(categories);
  if (shapes.length === 0) return null;
  return { shape: shapes.includes('sharded') ? 'sharded' : 'flat', categories };
}

/** `source` values whose entries are verified (docs/canonical-layout.md). */
export const VERIFIED_SOURCES = ['user-instruction', 'user-feedback', 'incident', 'library-pinned'];

export interface ReadOptions {
  now: Date;
  /** Prefix of record ids (the service's source id). */
  sourceId?: string;
  /** The project checkout targets are checked against; default: nearest folder with `.git`. */
  checkout?: string | null;
  /** A history index to use instead of walking git (tests, benchmarks). */
  git?: GitIndex | null;
  /** Re-verify targets against the checkout (default true). */
  verify?: boolean;
}

interface Proto {
  category: Category | 'pending';
  shape: Shape;
  place: MemoryRecord['place'];
  file: string;
  line: number;
  endLine: number;
  fields: RawField[];
  get: (name: string) => string | null;
  headingKey: string | null;
  closedOn: string | null;
  firstBullet: string | null;
  /** The entry as written (its lines), for the validators. */
  text: string;
}

/** NUL bytes: not a Markdown entry (a damaged or binary file), reported and not parsed. */
/** An entry file's bytes, or null with the failure noted (unreadable, or binary: NUL bytes). */
function readEntryFile(root: string, rel: string, failures: ReadFailure[]): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(root, rel));
  } catch (e) {
    failures.push({ file: rel, line: 0, problem: `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
    return null;
  }
  if (!bytes.includes(0)) return bytes;
  failures.push({ file: rel, line: 0, problem: 'binary content (NUL bytes): not a Markdown entry, not read' });
  return null;
}

/** Entry files of a category folder; symlinks are reported, never followed. */
function listMd(dir: string, rel: string, failures: ReadFailure[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    failures.push({
      file: `${rel}/`,
      line: 0,
      problem: `folder unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    });
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.name.endsWith('.md')) continue;
    if (e.isSymbolicLink())
      failures.push({ file: `${rel}/${e.name}`, line: 0, problem: 'symlinked entry files are refused' });
    else if (e.isFile()) out.push(e.name);
  }
  return out.sort();
}

function readFlat(
  root: string,
  rel: string,
  category: Proto['category'],
  place: Proto['place'],
  out: Proto[],
  failures: ReadFailure[],
  prefix?: string,
) {
  const bytes = readEntryFile(root, rel, failures);
  if (!bytes) return;
  const lines = splitLines(bytes);
  for (const b of flatBlocks(lines, prefix)) {
    out.push({
      category,
      shape: 'flat',
      place,
      file: rel,
      line: b.line,
      endLine: b.endLine,
      fields: b.fields,
      get: (n) => bulletGet(b.fields, n)?.value ?? null,
      headingKey: b.key || null,
      closedOn: b.closedOn,
      firstBullet: b.firstBullet,
      text: bytes.toString('utf8', lines[b.line - 1]!.start, lines[b.endLine - 1]!.end),
    });
  }
}

function readShardedFile(
  root: string,
  rel: string,
  category: Category,
  place: Proto['place'],
  out: Proto[],
  failures: ReadFailure[],
) {
  const bytes = readEntryFile(root, rel, failures);
  if (!bytes) return;
  const s = readSharded(bytes);
  if (!s.fm) {
    failures.push({ file: rel, line: 1, problem: 'no frontmatter (a `---` line first and a closing `---`)' });
    return;
  }
  const fields = s.fm.fields;
  out.push({
    category,
    shape: 'sharded',
    place,
    file: rel,
    line: 1,
    endLine: Math.max(s.lineCount, 1),
    fields,
    get: (n) => fmGet(fields, n)?.value ?? null,
    headingKey: s.heading,
    closedOn: null,
    firstBullet: s.firstBullet,
    text: bytes.toString('utf8'),
  });
}

function view(p: Proto): CanonicalView {
  const key = p.get('key') || p.get('id') || p.headingKey || '';
  // A `path:line` key, or a key that is itself a file path (`src/cli/surface.js`).
  const pathLineKey = /^[^\s]+:\d+$/.test(key) || /^[^\s:@]*\/[^\s:@]*\.[A-Za-z0-9]+$/.test(key) ? key : null;
  const target = p.get('target') || p.get('governs') || pathLineKey;
  const targetFrom = p.get('target') ? 'target' : p.get('governs') ? 'governs' : pathLineKey ? 'key' : null;
  const va = p.get('verified-at');
  const v = p.get('verified');
  const lt = p.get('last-touched');
  const verified = va || v || lt;
  const verifiedFrom = va ? 'verified-at' : v ? 'verified' : lt ? 'last-touched' : null;
  const dateCandidates = [va, v, lt].filter((x): x is string => !!x && leadingDate(x) !== null);
  const superseded = p.get('superseded-at');
  const resolved = p.get('resolved-at');
  const closed = superseded
    ? `superseded-at ${superseded}`
    : resolved
      ? `resolved-at ${resolved}`
      : p.closedOn
        ? `CLOSED ${p.closedOn}`
        : null;
  return {
    key,
    claim: p.get('claim') || p.firstBullet,
    target,
    targetFrom,
    added: p.get('added') || p.get('raised-on'),
    verified,
    verifiedFrom,
    verifiedSha: shaOf(va),
    verifiedDate: dateCandidates[0] ?? null,
    status: p.get('status'),
    closed,
    restsOn: listValue(p.get('rests_on')),
  };
}

/** The SHA a `verified-at` value starts with (quotes and a trailing `# note` allowed). */
function shaOf(value: string | null): string | null {
  const token = (value ?? '')
    .trim()
    .split(/\s+/)[0]!
    .replace(/^['"]|['"]$/g, '');
  return isSha(token) ? token : null;
}

function tierOf(p: Proto, c: CanonicalView): RecordTier {
  if (p.place === 'quarantine') return 'quarantined';
  if (p.place === 'inbox') return 'inferred';
  if (c.closed) return 'archived';
  const src = /^[a-z-]+/.exec((p.get('source') ?? '').trim().toLowerCase())?.[0];
  if (src && VERIFIED_SOURCES.includes(src)) return 'verified';
  if (src) return 'inferred';
  return p.shape === 'flat' && (p.get('verified-at') || p.get('verified')) ? 'verified' : 'inferred';
}

export function read(root: string, opts: ReadOptions): ReadResult {
  const t0 = performance.now();
  const detected = detect(root);
  if (!detected)
    throw new CanonicalReadError(
      `${root}: not a canonical-file memory store (none of ${CATEGORIES.join(', ')} is there as a file or folder)`,
    );
  const protos: Proto[] = [];
  const failures: ReadFailure[] = [];
  const ignored: string[] = [];

  for (const [c, shape] of Object.entries(detected.categories) as [Category, Shape][]) {
    if (shape === 'flat') readFlat(root, `${c}.md`, c, 'store', protos, failures);
    else
      for (const f of listMd(path.join(root, c), c, failures))
        readShardedFile(root, `${c}/${f}`, c, 'store', protos, failures);
  }
  const qdir = path.join(root, QUARANTINE_DIR);
  if (kindOf(qdir) === 'dir') {
    for (const e of fs.readdirSync(qdir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const base = e.name.replace(/\.md$/, '');
      if (!isCategory(base)) {
        ignored.push(`${QUARANTINE_DIR}/${e.name}`);
        continue;
      }
      const rel = `${QUARANTINE_DIR}/${base}`;
      if (e.isFile() && e.name.endsWith('.md')) readFlat(root, `${rel}.md`, base, 'quarantine', protos, failures);
      else if (e.isDirectory()) {
        for (const f of listMd(path.join(qdir, base), rel, failures)) {
          readShardedFile(root, `${rel}/${f}`, base, 'quarantine', protos, failures);
        }
      }
    }
  }
  if (kindOf(path.join(root, PENDING_FILE)) === 'file')
    readFlat(root, PENDING_FILE, 'pending', 'inbox', protos, failures, 'CANDIDATE:');
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    const base = e.name.replace(/\.md$/, '');
    if (e.name.startsWith('.') || e.name === QUARANTINE_DIR || e.name === PENDING_FILE) continue;
    if ((NOT_ENTRIES as readonly string[]).includes(e.name)) continue;
    if (isCategory(base) && detected.categories[base] === (e.isDirectory() ? 'sharded' : 'flat')) continue;
    ignored.push(e.isDirectory() ? `${e.name}/` : e.name);
  }
  ignored.sort();

  const views = protos.map(view);
  const keep: number[] = [];
  views.forEach((v, i) => {
    if (v.key) keep.push(i);
    else
      failures.push({
        file: protos[i]!.file,
        line: protos[i]!.line,
        problem: 'entry has no key (no `key`, `id` or heading)',
      });
  });
  const t1 = performance.now();

  // One history walk, one batch of target checks.
  const checkout = opts.checkout === undefined ? findCheckout(root) : opts.checkout;
  const git = opts.git !== undefined ? opts.git : checkout ? toIndex(walkGit(checkout)) : null;
  const t2 = performance.now();
  const specs: TargetSpec[] = keep.map((i) =>
    targetSpec(views[i]!.target, views[i]!.targetFrom, protos[i]!.get('symbol')),
  );
  const wanted = (i: number, k: number) =>
    protos[i]!.place === 'store' && !views[i]!.closed && (specs[k]!.paths.length > 0 || specs[k]!.pathLine !== null);
  const verifyIdx = checkout && opts.verify !== false ? keep.flatMap((i, k) => (wanted(i, k) ? [k] : [])) : [];
  const checks =
    checkout && verifyIdx.length
      ? verifyTargets(
          verifyIdx.map((k) => specs[k]!),
          checkout,
        )
      : [];
  const checkOf = new Map(verifyIdx.map((k, j) => [k, checks[j]!]));
  const t3 = performance.now();

  // Constraints whose state is false: entries resting on them are suspect.
  const falseConstraints = new Set<string>();
  keep.forEach((i) => {
    const p = protos[i]!;
    const holds = (p.get('state') ?? '').trim().toLowerCase();
    if (p.category === 'constraints' && p.place === 'store' && holds === 'false') falseConstraints.add(views[i]!.key);
  });

  const seen = new Map<string, number>();
  const byGroup = new Map<string, number[]>();
  const records: MemoryRecord[] = keep.map((i, k) => {
    const p = protos[i]!;
    const c = views[i]!;
    const group = `${p.category === 'pending' ? '_pending' : p.category}/${c.key}`;
    const n = (seen.get(group) ?? 0) + 1;
    seen.set(group, n);
    byGroup.set(group, [...(byGroup.get(group) ?? []), k]);
    const tier = tierOf(p, c);
    const active = p.place === 'store' && !c.closed;
    const st =
      p.place === 'inbox'
        ? undefined
        : staleness(
            {
              category: p.category,
              closed: c.closed,
              verifiedSha: c.verifiedSha,
              verifiedDate: c.verifiedDate,
              targetPaths: specs[k]!.paths,
            },
            git,
            opts.now,
          );
    const flags: RecordFlag[] = [];
    const flagReasons: MemoryRecord['flagReasons'] = {};
    if (p.place === 'inbox') {
      flags.push('inbox');
      flagReasons.inbox = 'candidate in _pending.md, awaiting the project\u2019s own curation';
    }
    if (active && st?.stale) {
      flags.push('stale');
      flagReasons.stale = st.reason;
    }
    const check = checkOf.get(k);
    const suspect: string[] = [...(check && !check.ok ? check.problems : [])];
    if (active)
      for (const r of c.restsOn)
        if (falseConstraints.has(r)) suspect.push(`rests on constraint ${r}, whose state is false`);
    if (suspect.length) {
      flags.push('suspect');
      flagReasons.suspect = suspect.join('; ');
    }
    return {
      id: `${opts.sourceId ?? 'canonical'}:${group}${n > 1 ? `@${p.file}:${p.line}` : ''}`,
      layout: 'canonical',
      key: c.key,
      native:
        p.place === 'inbox'
          ? 'candidate'
          : c.closed
            ? `closed (${c.closed})`
            : `${p.place === 'quarantine' ? 'quarantined, ' : ''}${c.status ?? 'open'}`,
      tier,
      flags,
      flagReasons,
      location: { file: p.file, line: p.line, endLine: p.endLine },
      origin: p.get('source') ?? 'none',
      actions: [],
      refused: {},
      fields: p.fields,
      canonical: c,
      shape: p.shape,
      category: p.category,
      place: p.place,
      staleness: st,
      targetCheck: check,
      text: p.text,
    };
  });
  // Same key twice in a category (in the store and in quarantine, or twice in one place).
  for (const [group, ks] of byGroup) {
    if (ks.length < 2) continue;
    for (const k of ks) {
      const r = records[k]!;
      r.flags.push('conflict');
      r.flagReasons.conflict = `${group} appears ${ks.length} times: ${ks.map((j) => `${records[j]!.location.file}:${records[j]!.location.line}`).join(', ')}`;
    }
  }
  records.forEach((r, k) => {
    Object.assign(r, capabilities(r));
    // A target that was not checked (no checkout read) cannot be reaffirmed: plan() refuses it too.
    const spec = specs[k]!;
    if (r.actions.includes('reaffirm') && !r.targetCheck && (spec.pathLine || spec.paths.length)) {
      r.actions = r.actions.filter((a) => a !== 'reaffirm');
      r.refused.reaffirm =
        'the target was not re-verified (no project checkout was read); reaffirm needs a fresh check';
    }
  });
  return {
    detected,
    records,
    failures,
    ignored,
    checkout: checkout ?? null,
    head: git ? git.head.slice(0, 7) : null,
    timings: { parseMs: t1 - t0, gitMs: t2 - t1, verifyMs: t3 - t2, recordsMs: performance.now() - t3 },
  };
}

function toIndex(data: ReturnType<typeof walkGit>): GitIndex | null {
  return data ? new GitIndex(data) : null;
}

/** Which actions apply to a record now, and why the others do not. */
export function capabilities(
  r: Pick<MemoryRecord, 'place' | 'category' | 'flags' | 'flagReasons' | 'canonical'>,
): Pick<MemoryRecord, 'actions' | 'refused'> {
  const refused: MemoryRecord['refused'] = {};
  const all = (why: string) => {
    for (const a of CANONICAL_ACTIONS) refused[a] = why;
  };
  if (r.place === 'inbox')
    all('a _pending.md candidate is read-only here: the project curates its inbox with its own flush step');
  else if (r.flags.includes('conflict')) all(`the key is not unique: ${r.flagReasons.conflict}`);
  else if (r.canonical.closed) all(`closed (${r.canonical.closed}); reopening is an undo of the closing edit`);
  else if (r.place === 'quarantine') {
    for (const a of ['reaffirm', 'archive', 'close', 'demote'] as const) refused[a] = 'quarantined: restore it first';
  } else {
    refused.restore = 'not quarantined';
    if (r.category === 'backlog') refused.archive = 'a backlog entry closes as picked-up or dropped (close)';
    else refused.close = 'only backlog entries close as picked-up or dropped; use archive';
    if (r.flags.includes('suspect')) refused.reaffirm = `the target does not re-verify: ${r.flagReasons.suspect}`;
  }
  const actions = CANONICAL_ACTIONS.filter((a: CanonicalAction) => !refused[a]);
  return { actions, refused };
}
