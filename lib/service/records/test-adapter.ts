/**
 * Tests only: two minimal layout adapters for the record write pipeline's tests and
 * fault suite (docs/records-write.md). Not in the registry; a test registers them
 * with `registerForTests` (lib/sources/registry.ts).
 *
 * - `testLinesAdapter` (claims the consolidation layout: `*.memory.jsonl` files in the
 *   root): one record per JSON line `{"id","status","text"}`; other lines are kept as
 *   they are. Its verbs rewrite the record's line (promote, demote, restore, archive,
 *   reaffirm), move it to `expired.jsonl` (expire: two files in one step), or move a
 *   file holding only that record to `shelf/` with its status rewritten (shelve).
 * - `testReadOnlyAdapter` (claims the governed layout: `engineering_memory.sqlite3`,
 *   here a text file with one `key status` per line): read-only, every verb refused
 *   with the owning tool's command.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LayoutAdapter, PlanContext } from '@/lib/sources/layout-adapter';
import type { FileEdit, LayoutRecord, RecordTier, ReplaceLines } from '@/lib/sources/record';
import { lineSpans } from '@/lib/sources/edits';

const VERBS = ['promote', 'demote', 'restore', 'archive', 'reaffirm', 'expire', 'shelve'] as const;
const STATUS_OF: Record<string, string> = {
  promote: 'verified',
  demote: 'quarantined',
  restore: 'active',
  archive: 'archived',
  shelve: 'shelved',
};
const TIER_OF: Record<string, RecordTier> = {
  verified: 'verified',
  active: 'inferred',
  quarantined: 'quarantined',
  archived: 'archived',
  shelved: 'archived',
};
export const EXPIRED_FILE = 'expired.jsonl';

interface Row {
  file: string;
  line: number;
  raw: string;
  eol: string;
  obj: { id: string; status: string; text: string; checked?: string };
}

function storeFiles(root: string): string[] {
  try {
    return fs
      .readdirSync(root)
      .filter((n) => n.endsWith('.memory.jsonl'))
      .sort();
  } catch {
    return [];
  }
}

function rowsOf(file: string, bytes: Buffer): Row[] {
  const out: Row[] = [];
  lineSpans(bytes).forEach(([s, e], i) => {
    const whole = bytes.toString('utf8', s, e);
    const eol = whole.endsWith('\r\n') ? '\r\n' : whole.endsWith('\n') ? '\n' : '';
    const raw = whole.slice(0, whole.length - eol.length);
    try {
      const obj = JSON.parse(raw);
      if (obj && typeof obj.id === 'string' && typeof obj.status === 'string')
        out.push({ file, line: i + 1, raw, eol, obj });
    } catch {
      // not a record line: kept as it is
    }
  });
  return out;
}

function toRecord(sourceId: string, r: Row, alone: boolean): LayoutRecord {
  const refused: Record<string, string> = {};
  for (const v of VERBS) {
    if (STATUS_OF[v] === r.obj.status) refused[v] = `already ${r.obj.status}`;
    if (v === 'shelve' && !alone) refused[v] = 'shares its file with other records';
  }
  return {
    id: `${sourceId}:${r.obj.id}`,
    layout: 'consolidation',
    key: r.obj.id,
    native: r.obj.status,
    tier: TIER_OF[r.obj.status] ?? 'inferred',
    flags: [],
    flagReasons: {},
    location: { file: r.file, line: r.line, endLine: r.line },
    origin: 'none',
    title: r.obj.text.slice(0, 80),
    text: r.obj.text,
    createdAt: null,
    verifiedAt: r.obj.checked ?? null,
    actions: VERBS.filter((v) => !refused[v]),
    refused,
    fields: Object.entries(r.obj).map(([name, value]) => ({ name, value: String(value), line: r.line })),
    detail: {},
  };
}

function lineEdit(file: string, bytes: Buffer, line: number, text: string): ReplaceLines {
  const [s, e] = lineSpans(bytes)[line - 1]!;
  return {
    kind: 'replace-lines',
    file,
    line,
    count: 1,
    expect: Buffer.from(bytes.subarray(s, e)),
    bytes: Buffer.from(text),
  };
}

export const testLinesAdapter: LayoutAdapter = {
  layout: 'consolidation',
  label: 'test line records',
  actions: VERBS,
  detect: (dir) => (storeFiles(dir).length ? { shape: 'jsonl' } : null),
  changeToken: (root) =>
    storeFiles(root)
      .map((n) => `${n}:${fs.statSync(path.join(root, n)).mtimeMs}:${fs.statSync(path.join(root, n)).size}`)
      .join('|'),
  read(root, ctx) {
    const records: LayoutRecord[] = [];
    for (const f of storeFiles(root)) {
      const rows = rowsOf(f, fs.readFileSync(path.join(root, f)));
      for (const r of rows) records.push(toRecord(ctx.sourceId, r, rows.length === 1));
    }
    return { shape: 'jsonl', records, problems: [], warnings: [] };
  },
  plan(record, action, ctx: PlanContext) {
    if (!VERBS.includes(action as (typeof VERBS)[number]))
      return { ok: false, reason: `the test layout has no action ${action}` };
    const file = record.location.file;
    const bytes = ctx.read(file);
    if (!bytes) return { ok: false, reason: `${file} is missing` };
    const row = rowsOf(file, bytes).find((r) => r.obj.id === record.key);
    if (!row || row.line !== record.location.line)
      return { ok: false, reason: `${record.key} is no longer at ${file}:${record.location.line}` };
    const summary = `${action} ${record.key} (${file}:${row.line})`;
    const memo = { file, line: row.line, status: row.obj.status };
    if (action === 'expire') {
      const edits: FileEdit[] = [{ ...lineEdit(file, bytes, row.line, ''), bytes: Buffer.alloc(0) }];
      const cur = ctx.read(EXPIRED_FILE);
      const line = Buffer.from(`${row.raw}\n`);
      if (!cur) edits.push({ kind: 'write', file: EXPIRED_FILE, expect: null, bytes: line });
      else {
        const n = lineSpans(cur).length;
        edits.push({
          kind: 'replace-lines',
          file: EXPIRED_FILE,
          line: n + 1,
          count: 0,
          expect: Buffer.alloc(0),
          bytes: cur.length && cur[cur.length - 1] !== 0x0a ? Buffer.concat([Buffer.from('\n'), line]) : line,
        });
      }
      return { ok: true, plan: { edits, memo, files: [file, EXPIRED_FILE], summary } };
    }
    const obj = { ...row.obj };
    if (action === 'reaffirm') obj.checked = ctx.now.toISOString().slice(0, 10);
    else obj.status = STATUS_OF[action]!;
    const edits: FileEdit[] = [lineEdit(file, bytes, row.line, JSON.stringify(obj) + row.eol)];
    if (action === 'shelve') edits.push({ kind: 'move', from: file, to: `shelf/${file}` });
    return { ok: true, plan: { edits, memo, files: action === 'shelve' ? [file, `shelf/${file}`] : [file], summary } };
  },
};

export const READ_ONLY_FILE = 'engineering_memory.sqlite3';

export const testReadOnlyAdapter: LayoutAdapter = {
  layout: 'governed',
  label: 'test governed records',
  actions: ['promote', 'demote', 'archive'],
  readOnly: 'testtool owns this store; memtrust never writes it',
  detect: (dir) => (fs.existsSync(path.join(dir, READ_ONLY_FILE)) ? { shape: 'sqlite' } : null),
  changeToken: (root) => String(fs.statSync(path.join(root, READ_ONLY_FILE)).mtimeMs),
  read(root, ctx) {
    const text = fs.readFileSync(path.join(root, READ_ONLY_FILE), 'utf8');
    const records = text
      .split('\n')
      .filter(Boolean)
      .map((l, i): LayoutRecord => {
        const [key = '', status = 'active'] = l.split(' ');
        const refused = Object.fromEntries(
          ['promote', 'demote', 'archive'].map((a) => [a, 'testtool owns this store; memtrust never writes it']),
        );
        return {
          id: `${ctx.sourceId}:${key}`,
          layout: 'governed',
          key,
          native: status,
          tier: 'inferred',
          flags: [],
          flagReasons: {},
          location: { file: READ_ONLY_FILE, line: 0, endLine: 0 },
          origin: 'agent',
          title: key,
          text: key,
          createdAt: null,
          verifiedAt: null,
          actions: [],
          refused,
          fields: [{ name: 'status', value: status, line: i + 1 }],
          detail: {},
        };
      });
    return { shape: 'sqlite', records, problems: [], warnings: [] };
  },
  plan: (record, action) => ({
    ok: false,
    reason: 'testtool owns this store; memtrust never writes it',
    command: `testtool ${action} ${record.key}`,
  }),
};
