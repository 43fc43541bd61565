/**
 * Plans the actions of a canonical store as file edits (docs/canonical-layout.md,
 * "Actions and their edits"): sharded entries get frontmatter line edits and moves,
 * flat entries get line-range edits of their block. Every byte outside the named lines
 * stays as it was, and one shape is never rewritten into the other. Pure: the files are
 * read through `input.read`, nothing is written; `applyEdits` and `invertEdits`
 * (lib/sources/edits.ts, shared by every layout) compute the result and the undo in memory.
 */
import { REASON_MAX_CODE_POINTS } from '../../trust/tiers';
import { today } from '../../trust/dates';
import { dominantEol, oneLine, sliceLines, splitLines, type Line } from './lines';
import { bulletGet, flatBlocks, readFrontmatter, fmGet, bulletFields } from './parse';
import { targetSpec } from './target';
import {
  QUARANTINE_DIR,
  type CanonicalAction,
  type FileEdit,
  type MemoryRecord,
  type Plan,
  type PlanResult,
  type ReplaceLines,
} from './types';

export interface PlanInput {
  /** Current bytes of a file relative to the store, null when absent. */
  read: (file: string) => Buffer | null;
  /** Short SHA of the checkout's HEAD (reaffirm stamps it); null outside git. */
  head?: string | null;
  /** Demote: why (one line). */
  reason?: string;
  /** Backlog close: how it closed. */
  status?: 'picked-up' | 'dropped';
  /** Restore of a flat block: where it stood, as recorded by the demote plan's memo. */
  restoreAt?: { line?: number; beforeKey?: string };
}

export const QUARANTINED_AT = 'quarantined-at';
export const QUARANTINE_REASON = 'quarantine-reason';

type Fail = { ok: false; reason: string };
const fail = (reason: string): Fail => ({ ok: false, reason });

interface Loaded {
  bytes: Buffer;
  lines: Line[];
}

function load(input: PlanInput, file: string): Loaded | null {
  const bytes = input.read(file);
  return bytes ? { bytes, lines: splitLines(bytes) } : null;
}

function replace(file: string, f: Loaded, line: number, count: number, text: string | Buffer): ReplaceLines {
  return {
    kind: 'replace-lines',
    file,
    line,
    count,
    expect: count ? sliceLines(f.bytes, f.lines, line, line + count - 1) : Buffer.alloc(0),
    bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
  };
}

/** Field edits of one entry, as (line, count, text) against the original file. */
interface LineOp {
  line: number;
  count: number;
  text: string;
}

/** Set or add `name: value` lines in a sharded entry's frontmatter; new ones go before its closing `---`. */
function fmSet(f: Loaded, pairs: [string, string][]): LineOp[] | Fail {
  const fm = readFrontmatter(f.lines);
  if (!fm) return fail('the entry lost its frontmatter since it was read');
  const eol = dominantEol(f.lines);
  const ops: LineOp[] = [];
  let added = '';
  for (const [name, value] of pairs) {
    const have = fmGet(fm.fields, name);
    if (have) {
      const l = f.lines[have.line - 1]!;
      const indent = /^\s*/.exec(l.text)![0];
      ops.push({ line: have.line, count: 1, text: `${indent}${have.name}: ${value}${l.eol}` });
    } else added += `${name}: ${value}${eol}`;
  }
  if (added) ops.push({ line: fm.close, count: 0, text: added });
  return ops;
}

function fmRemove(f: Loaded, name: string): LineOp | null {
  const fm = readFrontmatter(f.lines);
  const have = fm && fmGet(fm.fields, name);
  return have ? { line: have.line, count: 1, text: '' } : null;
}

/** Last line of a flat block that is content (not blank, not a `---` separator). */
function lastContentLine(lines: Line[], from: number, to: number): number {
  for (let i = to; i > from; i--) {
    const t = lines[i - 1]!.text.trim();
    if (t && !/^(-{3,}|\*{3,}|_{3,})$/.test(t)) return i;
  }
  return from;
}

/** Set or add `- name: value` bullets inside a flat block [from, to]; new ones follow its last content line. */
function bulletSet(f: Loaded, from: number, to: number, pairs: [string, string][]): LineOp[] {
  const fields = bulletFields(f.lines, from + 1, to);
  const eol = dominantEol(f.lines);
  const ops: LineOp[] = [];
  let added = '';
  for (const [name, value] of pairs) {
    const have = bulletGet(fields, name);
    if (have) {
      const l = f.lines[have.line - 1]!;
      const m = /^(\s*-\s+[A-Za-z][A-Za-z0-9_-]*\s*:\s*)/.exec(l.text)!;
      ops.push({ line: have.line, count: 1, text: `${m[1]}${value}${l.eol}` });
    } else added += `- ${name}: ${value}${eol}`;
  }
  if (!added) return ops;
  const after = lastContentLine(f.lines, from, to);
  const prev = f.lines[after - 1]!;
  if (prev.eol) ops.push({ line: after + 1, count: 0, text: added });
  else {
    // The last line of a file may have no terminator: it gets one, then the bullets.
    const same = ops.find((o) => o.line === after);
    if (same) same.text += eol + added;
    else ops.push({ line: after, count: 1, text: `${prev.text}${eol}${added}` });
  }
  return ops;
}

function bulletRemove(f: Loaded, from: number, to: number, name: string): LineOp | null {
  const have = bulletGet(bulletFields(f.lines, from + 1, to), name);
  return have ? { line: have.line, count: 1, text: '' } : null;
}

/** Line ops → edits, bottom-up so each one's line numbers still hold when applied in order. */
function toEdits(file: string, f: Loaded, ops: LineOp[]): ReplaceLines[] {
  const sorted = [...ops].sort((a, b) => b.line - a.line || b.count - a.count);
  for (let i = 1; i < sorted.length; i++) {
    const below = sorted[i - 1]!;
    const above = sorted[i]!;
    if (above.line + above.count > below.line && !(above.count === 0 && below.count === 0))
      throw new Error(`overlapping edits in ${file}`);
  }
  return sorted.map((o) => replace(file, f, o.line, o.count, o.text));
}

/** Applies ops to a block's own bytes (lines [from, to] of f) and returns the new block. */
function editBlock(f: Loaded, from: number, to: number, ops: LineOp[]): Buffer {
  const parts: Buffer[] = [];
  const sorted = [...ops].sort((a, b) => a.line - b.line || a.count - b.count);
  let at = from;
  for (const o of sorted) {
    parts.push(sliceLines(f.bytes, f.lines, at, o.line - 1));
    parts.push(Buffer.from(o.text, 'utf8'));
    at = o.line + o.count;
  }
  parts.push(sliceLines(f.bytes, f.lines, at, to));
  return Buffer.concat(parts);
}

function isFail(x: unknown): x is Fail {
  return typeof x === 'object' && x !== null && (x as Fail).ok === false;
}

/** The record is still where it was read: same key at the same place. */
function locate(record: MemoryRecord, input: PlanInput): { f: Loaded; from: number; to: number } | Fail {
  const file = record.location.file;
  const f = load(input, file);
  if (!f) return fail(`${file} is gone; read the store again`);
  if (record.shape === 'sharded') {
    const fm = readFrontmatter(f.lines);
    if (!fm) return fail(`${file} lost its frontmatter; read the store again`);
    const key = fmGet(fm.fields, 'key')?.value || fmGet(fm.fields, 'id')?.value;
    if (key && key !== record.key) return fail(`${file} no longer holds ${record.key}; read the store again`);
    return { f, from: 1, to: f.lines.length };
  }
  const block = flatBlocks(f.lines).find((b) => b.line === record.location.line);
  const key = block && (bulletGet(block.fields, 'key')?.value || bulletGet(block.fields, 'id')?.value || block.key);
  if (!block || key !== record.key)
    return fail(`${file}:${record.location.line} no longer holds ${record.key}; read the store again`);
  return { f, from: block.line, to: block.endLine };
}

export function plan(record: MemoryRecord, action: CanonicalAction, now: Date, input: PlanInput): PlanResult {
  if (!record.actions.includes(action)) return fail(record.refused[action] ?? `${action} does not apply to this entry`);
  const at = locate(record, input);
  if (isFail(at)) return at;
  const { f, from, to } = at;
  const file = record.location.file;
  const day = today(now);
  const set = (pairs: [string, string][]) =>
    record.shape === 'sharded' ? fmSet(f, pairs) : bulletSet(f, from, to, pairs);
  const has = (name: string) =>
    record.shape === 'sharded'
      ? !!fmGet(readFrontmatter(f.lines)?.fields ?? [], name)
      : !!bulletGet(bulletFields(f.lines, from + 1, to), name);

  const inPlace = (ops: LineOp[] | Fail, summary: string, memo: Plan['memo'] = {}): PlanResult => {
    if (isFail(ops)) return ops;
    return { ok: true, plan: { edits: toEdits(file, f, ops), memo, files: [file], summary } };
  };

  switch (action) {
    case 'reaffirm': {
      const check = record.targetCheck;
      if (check && !check.ok) return fail(`the target does not re-verify: ${check.problems.join('; ')}`);
      const spec = targetSpec(record.canonical.target, record.canonical.targetFrom);
      if (!check && (spec.pathLine || spec.paths.length)) {
        return fail('the target was not re-verified (no project checkout was read); reaffirm needs a fresh check');
      }
      const pairs: [string, string][] = [];
      if (input.head) pairs.push(['verified-at', input.head]);
      pairs.push(['last-touched', day]);
      if (has('verified')) pairs.push(['verified', day]);
      return inPlace(
        set(pairs),
        `reaffirmed ${record.key}: verified-at ${input.head ?? '(no git)'}, last-touched ${day}`,
      );
    }
    case 'archive': {
      const field = record.category === 'pending-questions' ? 'resolved-at' : 'superseded-at';
      return inPlace(set([[field, day]]), `archived ${record.key}: ${field} ${day}`);
    }
    case 'close': {
      if (input.status !== 'picked-up' && input.status !== 'dropped')
        return fail('close needs a status: picked-up or dropped');
      return inPlace(
        set([
          ['status', input.status],
          ['superseded-at', day],
        ]),
        `closed ${record.key} as ${input.status}`,
      );
    }
    case 'demote':
      return demote(record, input, f, from, to, day);
    case 'restore':
      return restore(record, input, f, from, to);
  }
}

function checkReason(raw: string | undefined): string | Fail {
  const r = oneLine(raw ?? '');
  if (!r) return fail('demote needs a reason');
  if ([...r].length > REASON_MAX_CODE_POINTS)
    return fail(`the reason is longer than ${REASON_MAX_CODE_POINTS} characters`);
  return r;
}

function demote(record: MemoryRecord, input: PlanInput, f: Loaded, from: number, to: number, day: string): PlanResult {
  const reason = checkReason(input.reason);
  if (isFail(reason)) return reason;
  const file = record.location.file;
  if (record.shape === 'sharded') {
    const dest = `${QUARANTINE_DIR}/${file}`;
    if (input.read(dest)) return fail(`${dest} already exists`);
    const ops = fmSet(f, [
      [QUARANTINED_AT, day],
      [QUARANTINE_REASON, reason],
    ]);
    if (isFail(ops)) return ops;
    const edits: FileEdit[] = [...toEdits(file, f, ops), { kind: 'move', from: file, to: dest }];
    return {
      ok: true,
      plan: { edits, memo: { from: file, to: dest }, files: [file, dest], summary: `demoted ${record.key} to ${dest}` },
    };
  }
  const block = editBlock(
    f,
    from,
    to,
    bulletSet(f, from, to, [
      [QUARANTINED_AT, day],
      [QUARANTINE_REASON, reason],
    ]),
  );
  const next = flatBlocks(f.lines).find((b) => b.line === to + 1);
  const dest = `${QUARANTINE_DIR}/${record.category}.md`;
  const edits: FileEdit[] = [replace(file, f, from, to - from + 1, Buffer.alloc(0)), appendTo(input, dest, block)];
  const memo = { from: file, to: dest, line: from, beforeKey: next?.key ?? '' };
  return { ok: true, plan: { edits, memo, files: [file, dest], summary: `demoted ${record.key} to ${dest}` } };
}

/** Appends a block at the end of a file (creating it), ending the last line first if needed. */
function appendTo(input: PlanInput, file: string, block: Buffer): FileEdit {
  const q = load(input, file);
  if (!q) return { kind: 'write', file, expect: null, bytes: block };
  const last = q.lines.at(-1);
  if (last && !last.eol) {
    const n = q.lines.length;
    return replace(
      file,
      q,
      n,
      1,
      Buffer.concat([sliceLines(q.bytes, q.lines, n, n), Buffer.from(dominantEol(q.lines)), block]),
    );
  }
  return replace(file, q, q.lines.length + 1, 0, block);
}

function restore(record: MemoryRecord, input: PlanInput, f: Loaded, from: number, to: number): PlanResult {
  const file = record.location.file;
  const home = file.slice(QUARANTINE_DIR.length + 1);
  if (record.shape === 'sharded') {
    if (input.read(home)) return fail(`${home} already exists; restore would overwrite it`);
    const ops = [fmRemove(f, QUARANTINE_REASON), fmRemove(f, QUARANTINED_AT)].filter((o): o is LineOp => o !== null);
    const edits: FileEdit[] = [...toEdits(file, f, ops), { kind: 'move', from: file, to: home }];
    return {
      ok: true,
      plan: {
        edits,
        memo: { from: file, to: home },
        files: [file, home],
        summary: `restored ${record.key} to ${home}`,
      },
    };
  }
  const ops = [bulletRemove(f, from, to, QUARANTINE_REASON), bulletRemove(f, from, to, QUARANTINED_AT)].filter(
    (o): o is LineOp => o !== null,
  );
  let block = editBlock(f, from, to, ops);
  const wholeFile = from === 1 && to === f.lines.length && !readFrontmatter(f.lines);
  const out: FileEdit[] = [
    wholeFile ? { kind: 'remove', file, expect: f.bytes } : replace(file, f, from, to - from + 1, Buffer.alloc(0)),
  ];
  const cat = load(input, home);
  if (!cat) out.push({ kind: 'write', file: home, expect: null, bytes: block });
  else {
    const blocks = flatBlocks(cat.lines);
    const hint = input.restoreAt ?? {};
    // Before the entry that followed it, else at its old line if that is still a heading
    // (a block boundary) or the end, else at the end of the file.
    const atBoundary = (n: number) =>
      n === cat.lines.length + 1 || (n >= 1 && n <= cat.lines.length && /^#{1,2}\s/.test(cat.lines[n - 1]!.text));
    const before =
      (hint.beforeKey ? blocks.find((b) => b.key === hint.beforeKey)?.line : undefined) ??
      (hint.line && atBoundary(hint.line) ? hint.line : undefined);
    if (before === undefined || before > cat.lines.length) out.push(appendTo(input, home, block));
    else {
      // A block cut from the end of a file may lack a terminator; mid-file it needs one.
      if (block.length && block[block.length - 1] !== 0x0a)
        block = Buffer.concat([block, Buffer.from(dominantEol(cat.lines))]);
      out.push(replace(home, cat, before, 0, block));
    }
  }
  return {
    ok: true,
    plan: {
      edits: out,
      memo: { from: file, to: home },
      files: [file, home],
      summary: `restored ${record.key} to ${home}`,
    },
  };
}

// Applying and inverting edits lives in one place for every layout (lib/sources/edits.ts,
// docs/records-write.md); re-exported here for the layout's tests and tools.
export { applyEdits, EditConflict, invertEdits, replaceLines } from '../edits';
