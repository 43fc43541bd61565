/**
 * Reading a consolidation store (layout 5): every `*.memory.jsonl` file directly in
 * the root, sorted by name, one record per line (docs/consolidation-layout.md). Bad
 * lines become read problems with their file and line and are never lost: they stay
 * in the file exactly as they are. One pass over each file, one JSON.parse and one
 * scan per line, so a 50 MB file costs what its lines cost.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DetectedStore, ReadContext } from '../layout-adapter';
import type { LayoutRead, LayoutRecord, RawField, ReadProblem } from '../record';
import { capabilities, evaluate, flagsOf, tierOf, type Partner } from './map';
import { scanObject, type ObjectSpans } from './scan';
import { FILE_SUFFIX, MAX_PROBLEMS_PER_FILE, TTL_DAYS, type Evaluated, type RecordType } from './types';

/** The store's files, directly in `root`, sorted by name. */
export function storeFiles(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(FILE_SUFFIX))
    .map((e) => e.name)
    .sort();
}

export function detect(dir: string): DetectedStore | null {
  return storeFiles(dir).length > 0 ? { shape: 'jsonl' } : null;
}

/** Size, mtime and inode of every store file: changes whenever `read` could return something else. */
export function changeToken(root: string): string {
  const parts: string[] = [];
  for (const name of storeFiles(root)) {
    try {
      const st = fs.statSync(path.join(root, name));
      parts.push(`${name}:${st.size}:${st.mtimeMs}:${st.ino}`);
    } catch {
      parts.push(`${name}:gone`);
    }
  }
  return parts.join('|') || 'empty';
}

export type ParsedLine =
  | { ok: true; obj: Record<string, unknown>; spans: ObjectSpans }
  | { ok: false; problem: string };

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/** One line's text (no terminator, no BOM) as a record object with its member spans. */
export function parseRecordLine(text: string): ParsedLine {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'parse error';
    return { ok: false, problem: `is not valid JSON (${msg})` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, problem: `is JSON ${kindOf(v)}, not a record object` };
  const spans = scanObject(text);
  if (!spans) return { ok: false, problem: 'is not a single JSON object on one line' };
  return { ok: true, obj: v as Record<string, unknown>, spans };
}

/** A record line read from a file, before duplicates and conflicts are resolved. */
interface Entry {
  file: string;
  line: number;
  key: string;
  e: Evaluated;
  fields: RawField[];
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

class Problems {
  readonly list: ReadProblem[] = [];
  private perFile = new Map<string, number>();
  add(file: string, line: number, problem: string): void {
    const n = (this.perFile.get(file) ?? 0) + 1;
    this.perFile.set(file, n);
    if (n <= MAX_PROBLEMS_PER_FILE) this.list.push({ file, line, problem });
  }
  close(file: string): void {
    const n = this.perFile.get(file) ?? 0;
    if (n > MAX_PROBLEMS_PER_FILE)
      this.list.push({
        file,
        line: 0,
        problem: `${n - MAX_PROBLEMS_PER_FILE} more problems in this file not listed (first ${MAX_PROBLEMS_PER_FILE} shown)`,
      });
  }
}

function lineList(lines: number[]): string {
  const shown = lines.slice(0, 8).join(', ');
  return lines.length > 8 ? `${shown} and ${lines.length - 8} more` : shown;
}

function readFile(root: string, file: string, now: Date, problems: Problems, out: Entry[]): void {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path.join(root, file));
  } catch (e) {
    problems.add(
      file,
      0,
      `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}); none of its records are shown`,
    );
    return;
  }
  const text = buf.toString('utf8');
  if (text.includes('\ufffd') && !Buffer.from(text, 'utf8').equals(buf)) {
    problems.add(
      file,
      0,
      'holds bytes that are not valid UTF-8 (shown as \ufffd); a line holding them is never rewritten',
    );
  }
  let pos = 0;
  let lineNo = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    pos = 1;
    problems.add(file, 1, 'starts with a UTF-8 byte-order mark; read without it, kept as it is on rewrite');
  }
  const crlf: number[] = [];
  let terminated = 0;
  const blank: number[] = [];
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    lineNo++;
    let line = text.slice(pos, end);
    pos = nl === -1 ? text.length : nl + 1;
    if (nl !== -1) terminated++;
    if (line.endsWith('\r')) {
      line = line.slice(0, -1);
      if (nl !== -1) crlf.push(lineNo);
    }
    if (isBlank(line)) {
      blank.push(lineNo);
      continue;
    }
    const p = parseRecordLine(line);
    if (!p.ok) {
      if (nl === -1 && p.problem.startsWith('is not valid JSON')) {
        problems.add(
          file,
          lineNo,
          `line ${lineNo} is truncated: the file ends inside it with no newline (${p.problem.slice(3)}); kept as it is, not read`,
        );
      } else problems.add(file, lineNo, `line ${lineNo} ${p.problem}; kept as it is, not read`);
      continue;
    }
    const id = p.obj.id;
    if (typeof id !== 'string' || id.trim() === '') {
      problems.add(
        file,
        lineNo,
        `line ${lineNo} has ${id === undefined ? 'no id' : `id ${JSON.stringify(id)}, not a non-empty text`}; kept as it is, not read`,
      );
      continue;
    }
    for (const name of repeatedKeys(p.spans.members)) {
      problems.add(
        file,
        lineNo,
        `${id}: key ${name} appears more than once on line ${lineNo}; the last one is read, and the line is not rewritten for that key`,
      );
    }
    const e = evaluate(p.obj, now);
    for (const msg of e.problems) problems.add(file, lineNo, `${id}: ${msg}`);
    const fields = p.spans.members.map((m) => ({
      name: m.name,
      value: line.slice(m.valueStart, m.valueEnd),
      line: lineNo,
    }));
    out.push({ file, line: lineNo, key: id, e, fields });
  }
  if (crlf.length) {
    const mixed = crlf.length < terminated ? ` (${terminated - crlf.length} other line(s) end in LF)` : '';
    problems.add(
      file,
      crlf[0]!,
      `${crlf.length} line(s) end in CRLF${mixed}: read as usual; a rewritten line keeps its own ending`,
    );
  }
  if (blank.length) problems.add(file, blank[0]!, `blank line(s) ${lineList(blank)} skipped; kept as they are`);
}

/** Names that appear more than once among a line's members (a handful of keys: pairwise; many: a set). */
function repeatedKeys(members: { name: string }[]): string[] {
  const out: string[] = [];
  if (members.length <= 32) {
    for (let i = 1; i < members.length; i++) {
      const n = members[i]!.name;
      let seen = false;
      for (let j = 0; j < i && !seen; j++) seen = members[j]!.name === n;
      if (seen && !out.includes(n)) out.push(n);
    }
    return out;
  }
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const m of members) {
    if (seen.has(m.name)) twice.add(m.name);
    seen.add(m.name);
  }
  return [...twice];
}

export function read(root: string, ctx: ReadContext): LayoutRead {
  const now = ctx.now;
  const problems = new Problems();
  const warnings: string[] = [];
  const files = storeFiles(root);
  if (!files.length) warnings.push(`no *${FILE_SUFFIX} files in ${root}`);
  const entries: Entry[] = [];
  for (const file of files) readFile(root, file, now, problems, entries);

  // Duplicate ids: the last line (in file-name, then line order) is the record; the
  // earlier ones are reported and kept in their files as they are.
  const lastAt = new Map<string, number>();
  const count = new Map<string, number>();
  entries.forEach((en, i) => {
    if (lastAt.has(en.key)) count.set(en.key, (count.get(en.key) ?? 1) + 1);
    lastAt.set(en.key, i);
  });
  const winners: Entry[] = [];
  const dupes = new Map<string, { file: string; line: number }[]>();
  entries.forEach((en, i) => {
    const li = lastAt.get(en.key)!;
    if (li === i) {
      winners.push(en);
      return;
    }
    const last = entries[li]!;
    const at = last.file === en.file ? `line ${last.line}` : `${last.file} line ${last.line}`;
    problems.add(
      en.file,
      en.line,
      `duplicate id ${en.key} (${count.get(en.key)} lines hold it): the last one, ${at}, is the record; line ${en.line} is kept as it is and ignored`,
    );
    const d = dupes.get(en.key) ?? [];
    d.push({ file: en.file, line: en.line });
    dupes.set(en.key, d);
  });

  for (const file of files) problems.close(file);

  const statusOf = new Map<string, string | null>();
  const reverse = new Map<string, Set<string>>();
  for (const w of winners) {
    statusOf.set(w.key, w.e.status);
    for (const other of w.e.conflictsWith) {
      const s = reverse.get(other) ?? new Set<string>();
      s.add(w.key);
      reverse.set(other, s);
    }
  }

  const records: LayoutRecord[] = winners.map((w) => {
    const e = w.e;
    const rev = reverse.get(w.key);
    const ids =
      e.conflictsWith.length || rev
        ? [...new Set([...e.conflictsWith, ...(rev ?? [])])].filter((x) => x !== w.key)
        : [];
    const partners: Partner[] = ids.map((id) => ({
      id,
      status: statusOf.has(id) ? (statusOf.get(id) ?? 'no status') : null,
    }));
    const { flags, reasons } = flagsOf(e, now, partners);
    const { actions, refused } = capabilities(e, now);
    return {
      id: `${ctx.sourceId}:${w.key}`,
      layout: 'consolidation',
      key: w.key,
      native: [e.status ?? 'no-status', e.confidence].filter(Boolean).join('/'),
      tier: tierOf(e, now),
      flags,
      flagReasons: reasons,
      location: { file: w.file, line: w.line, endLine: w.line },
      origin: e.sourceStep ?? 'none',
      title: e.statement ?? '(no statement)',
      text: [e.statement ?? '', ...e.evidence].join('\n'),
      createdAt: e.createdAt,
      verifiedAt: e.verifiedAt,
      actions,
      refused,
      fields: w.fields,
      detail: {
        type: e.type,
        statement: e.statement,
        evidence: e.evidence,
        confidence: e.confidence,
        sensitivity: e.sensitivity,
        sourceStep: e.sourceStep,
        status: e.status,
        expiresAt: e.expiryIso,
        expiryBasis: e.expiryBasis,
        ttlDays: e.type && e.type in TTL_DAYS ? TTL_DAYS[e.type as RecordType] : null,
        conflictsWith: ids,
        conflictNote: e.conflictNote,
        reviewNote: e.reviewNote,
        writeRules: e.broken,
        duplicates: dupes.get(w.key) ?? [],
        file: w.file,
      },
    };
  });
  return { shape: 'jsonl', records, problems: problems.list, warnings };
}
