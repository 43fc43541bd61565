/**
 * Parsing of the two canonical shapes, the way the project's own hooks read them
 * (docs/canonical-layout.md, "Reading"): frontmatter is one `key: value` per line with
 * the value verbatim, flat entries are `## <key>` blocks with `- name: value` bullets.
 * Pure: bytes in, structures out.
 */
import { splitLines, type Line } from './lines';
import type { RawField } from './types';

export interface Frontmatter {
  /** 1-based line of the opening and closing `---` (both present). */
  open: number;
  close: number;
  fields: RawField[];
}

const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * `---` on the first line (after a BOM) and a later `---` line. Each line between is
 * trimmed; blank and `#` lines are skipped; the name is the text before the first
 * `: ` and the value everything after it, trimmed, quotes kept. `name:` alone is an
 * empty value; any other line (a continuation, a list item) is not a field.
 */
export function readFrontmatter(lines: Line[]): Frontmatter | null {
  if (lines.length === 0 || lines[0]!.text.replace(/^\uFEFF/, '').trim() !== '---') return null;
  const fields: RawField[] = [];
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i]!.text.trim();
    if (t === '---') return { open: 1, close: i + 1, fields };
    if (!t || t.startsWith('#')) continue;
    const sep = t.indexOf(': ');
    if (sep === -1) {
      if (t.endsWith(':') && t.length > 1) fields.push({ name: t.slice(0, -1), value: '', line: i + 1 });
      continue;
    }
    fields.push({ name: t.slice(0, sep), value: t.slice(sep + 2).trim(), line: i + 1 });
  }
  return null;
}

/** Last occurrence wins in frontmatter (the project reads it into an object). */
export function fmGet(fields: RawField[], name: string): RawField | undefined {
  for (let i = fields.length - 1; i >= 0; i--) if (fields[i]!.name === name) return fields[i];
  return undefined;
}

/** `[a, b]` → ['a', 'b']; `a, b` → ['a', 'b']; empty → []. */
export function listValue(value: string | null | undefined): string[] {
  if (!value) return [];
  const v = value.trim();
  const inner = v.startsWith('[') && v.endsWith(']') ? v.slice(1, -1) : v;
  return inner
    .split(',')
    .map((s) => s.trim().replace(/^['"`]|['"`]$/g, ''))
    .filter(Boolean);
}

const BULLET_FIELD_RE = /^(\s*)-\s+([A-Za-z][A-Za-z0-9_-]*)\s*:(?:\s+(.*?))?\s*$/;
const BULLET_RE = /^\s{0,1}[-*]\s+(.*\S)\s*$/;

export interface FlatBlock {
  /** Heading text after `## `, trimmed. */
  heading: string;
  key: string;
  /** `— CLOSED <date>` (or `-- CLOSED`) suffix, the date; null when open. */
  closedOn: string | null;
  /** 1-based inclusive span: heading line up to the line before the next heading. */
  line: number;
  endLine: number;
  /** Bullet fields in order (names as written); lookups are case-insensitive, first wins. */
  fields: RawField[];
  /** Text of the first top-level bullet that is not a bookkeeping field. */
  firstBullet: string | null;
}

/** Bookkeeping bullet names: never taken as the claim. */
const NOT_CLAIM = new Set([
  'source',
  'status',
  'verified-at',
  'verified',
  'last-touched',
  'raised-on',
  'added',
  'superseded-at',
  'resolved-at',
  'caveat',
  'scope',
  'category',
  'key',
  'id',
  'governs',
  'target',
  'rests_on',
  'quarantined-at',
  'quarantine-reason',
  'route',
  'weight',
]);

const CLOSED_RE = /\s+(?:\u2014|--)\s*CLOSED\s+(\S+)\s*$/;

/** A flat heading's key: its text before the first ` — `, after a CLOSED suffix is cut. */
export function headingKey(heading: string): { key: string; closedOn: string | null } {
  const m = CLOSED_RE.exec(heading);
  const rest = m ? heading.slice(0, m.index) : heading;
  const dash = rest.indexOf(' \u2014 ');
  return { key: (dash === -1 ? rest : rest.slice(0, dash)).trim(), closedOn: m ? m[1]! : null };
}

export function firstBulletOf(lines: Line[], from: number, to: number): string | null {
  let fence = false;
  for (let i = from; i <= to; i++) {
    const t = lines[i - 1]!.text;
    if (FENCE_RE.test(t)) fence = !fence;
    if (fence) continue;
    const f = BULLET_FIELD_RE.exec(t);
    if (f && f[1]!.length <= 1 && NOT_CLAIM.has(f[2]!.toLowerCase())) continue;
    const b = BULLET_RE.exec(t);
    if (b) return b[1]!;
  }
  return null;
}

/** `- name: value` bullets in lines [from, to], outside code fences. */
export function bulletFields(lines: Line[], from: number, to: number): RawField[] {
  const out: RawField[] = [];
  let fence = false;
  for (let i = from; i <= to; i++) {
    const t = lines[i - 1]!.text;
    if (FENCE_RE.test(t)) fence = !fence;
    if (fence) continue;
    const m = BULLET_FIELD_RE.exec(t);
    if (m && m[3] !== undefined) out.push({ name: m[2]!, value: m[3]!, line: i });
  }
  return out;
}

/** Case-insensitive, first occurrence (the project's `getField`). */
export function bulletGet(fields: RawField[], name: string): RawField | undefined {
  const n = name.toLowerCase();
  return fields.find((f) => f.name.toLowerCase() === n);
}

/**
 * The `## ` blocks of a flat file. The file's own frontmatter is skipped; a `# ` or
 * `## ` heading ends a block; headings inside code fences are text. `prefix` selects
 * blocks (`CANDIDATE:` for the inbox) and is cut from the heading.
 */
export function flatBlocks(lines: Line[], prefix?: string): FlatBlock[] {
  const fm = readFrontmatter(lines);
  const first = fm ? fm.close + 1 : 1;
  const heads: { line: number; level: number; text: string }[] = [];
  let fence = false;
  for (let i = first; i <= lines.length; i++) {
    const t = lines[i - 1]!.text;
    if (FENCE_RE.test(t)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const m = /^(#{1,2})\s+(\S.*?)\s*$/.exec(t);
    if (m) heads.push({ line: i, level: m[1]!.length, text: m[2]! });
  }
  const out: FlatBlock[] = [];
  for (let h = 0; h < heads.length; h++) {
    const head = heads[h]!;
    if (head.level !== 2) continue;
    let heading = head.text;
    if (prefix !== undefined) {
      if (!heading.startsWith(prefix)) continue;
      heading = heading.slice(prefix.length).trim();
    }
    const endLine = h + 1 < heads.length ? heads[h + 1]!.line - 1 : lines.length;
    const { key, closedOn } = prefix !== undefined ? { key: heading, closedOn: null } : headingKey(heading);
    out.push({
      heading,
      key,
      closedOn,
      line: head.line,
      endLine,
      fields: bulletFields(lines, head.line + 1, endLine),
      firstBullet: firstBulletOf(lines, head.line + 1, endLine),
    });
  }
  return out;
}

export interface ShardedEntry {
  fm: Frontmatter | null;
  /** First `#`/`##` heading of the body, for entries with no key or id. */
  heading: string | null;
  firstBullet: string | null;
  lineCount: number;
}

export function readSharded(bytes: Buffer): ShardedEntry {
  const lines = splitLines(bytes);
  const fm = readFrontmatter(lines);
  const bodyFrom = fm ? fm.close + 1 : 1;
  let heading: string | null = null;
  for (let i = bodyFrom; i <= lines.length && heading === null; i++) {
    const m = /^#{1,2}\s+(\S.*?)\s*$/.exec(lines[i - 1]!.text);
    if (m) heading = m[1]!;
  }
  return { fm, heading, firstBullet: firstBulletOf(lines, bodyFrom, lines.length), lineCount: lines.length };
}
