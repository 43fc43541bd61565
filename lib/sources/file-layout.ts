/**
 * The two file-per-memory layouts (trust-model root, Claude Code folder) as LayoutAdapters
 * (docs/records.md, "File layouts"): one builder, so both read, detect and refuse plans the
 * same way. `read` lists the files with the layout's `files.list` and reads each through the
 * scan's own reader (lib/service/index/read-one.ts: the same bytes cap, parse, tier and
 * validators the index rows come from), then maps it to a LayoutRecord here, the one place
 * that mapping lives. Changes go through the file transitions (lib/service/write), never
 * through `plan`.
 */
import path from 'node:path';
import { MEMORY_ACTIONS } from '../trust/tiers';
import { fileRecordState } from '../trust/file-record';
import { lifecycle } from '../trust/lifecycle';
import { unrewritable, type ActionAvailability } from '../trust/allowed';
import { errorRowTier } from '../service/index/index-rows';
import { readOne } from '../service/index/read-one';
import { factsOf } from '../service/index/inspect';
import { KNOWN_KEYS } from '../memory-file/known-keys';
import { memoryActions } from '../service/index/list-actions';
import { detectLayout } from './detect';
import { statKey } from './stat-key';
import type { FileLayout, FileLayoutAdapter, ReadContext } from './layout-adapter';
import type { LayoutRead, LayoutRecord, ReadProblem, RecordFlag } from './record';
import type { ListedFile, SourceKind } from './types';

/** What a file layout's `plan` answers: its memories change through the file transitions. */
export const FILE_TRANSITION_PATH = 'lib/service/write/transition.ts';

const NO_STORE = new Set(['missing', 'unreadable', 'empty']);

export function fileLayoutAdapter(layout: SourceKind, label: string, files: FileLayout): FileLayoutAdapter {
  const adapter: FileLayoutAdapter = {
    layout,
    label,
    files,
    // detectLayout takes a missing, unreadable or empty folder as a new trust-model root
    // (docs/roots.md); `detect` confirms a store is there, so those are not one.
    detect(dir) {
      const d = detectLayout(dir);
      return d.ok && d.layout === layout && !NO_STORE.has(d.shape) ? { shape: d.shape } : null;
    },
    read: (root, ctx) => readFileLayout(adapter, root, ctx),
    // The files `read` opens, by stat data: an edit, an add, a remove or a move changes it.
    changeToken: (root) =>
      files
        .list(root)
        .map((f) => `${f.relPath}=${statKey(path.join(root, f.relPath))}`)
        .sort()
        .join('\n'),
    actions: MEMORY_ACTIONS,
    plan: (record) => ({
      ok: false,
      reason: `${record.key}: a ${label} memory changes through the file transitions (${FILE_TRANSITION_PATH}), not a record plan`,
    }),
  };
  return adapter;
}

/** Same filename in memories/ and quarantine/ (archived copies never count): the index's rule (index-rows.ts markConflicts). */
function conflicts(listed: readonly ListedFile[]): Set<string> {
  const seen = new Map<string, number>();
  for (const f of listed) if (f.location !== 'archive') seen.set(f.filename, (seen.get(f.filename) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}

function readFileLayout(adapter: FileLayoutAdapter, root: string, ctx: ReadContext): LayoutRead {
  const listed = adapter.files.list(root);
  const twice = conflicts(listed);
  const owner = ctx.owner ?? { emails: [] };
  const records: LayoutRecord[] = [];
  const problems: ReadProblem[] = [];
  for (const f of listed) {
    const conflict = f.location !== 'archive' && twice.has(f.filename);
    const r = readOne(root, f, owner);
    if ('gone' in r || 'touched' in r) continue;
    if ('error' in r) {
      problems.push({ file: f.relPath, line: 0, problem: r.error });
      records.push(errorRecord(adapter, ctx, f, r.error, conflict));
      continue;
    }
    const { ins, bytes } = r;
    const facts = { ...ins.facts, conflict };
    const state = fileRecordState({
      location: f.location,
      trustLevel: ins.fields['trust-level'],
      conflict,
      lifecycle: lifecycle(facts, ctx.now),
    });
    // A file whose frontmatter memtrust cannot read or rewrite is still a memory (the index lists it), and a problem.
    const broken = unrewritable(ins.findings);
    if (broken) problems.push({ file: f.relPath, line: broken.line ?? 0, problem: broken.message });
    records.push({
      ...identity(adapter, ctx, f),
      native: state.native,
      tier: ins.tier,
      flags: state.flags as RecordFlag[],
      flagReasons: state.flagReasons as LayoutRecord['flagReasons'],
      location: { file: f.relPath, line: 1, endLine: lineCount(bytes) },
      origin: ins.fields.originSessionId ? `session ${ins.fields.originSessionId}` : 'none',
      title: ins.display.name ?? f.filename,
      text: ins.body,
      createdAt: ins.fields['created-at'] ?? null,
      verifiedAt: ins.fields['last-verified'] ?? null,
      ...verbs(
        memoryActions(adapter, facts, ctx.now, {
          validateExit: ins.verdicts.validate.exit,
          secretExit: ins.verdicts.secret.exit,
          findings: ins.findings,
        }),
      ),
      fields: [
        ...SHOWN.filter((k) => ins.fields[k] !== undefined).map((name) => ({
          name,
          value: ins.fields[name]!,
          line: 0,
        })),
        ...Object.entries(defined(ins.display)).map(([name, value]) => ({ name, value, line: 0 })),
      ],
      detail: {
        location: f.location,
        type: ins.fields.type ?? null,
        sha256: ins.sha256,
        validate: ins.verdicts.validate.exit,
        secret: ins.verdicts.secret.exit,
        injection: ins.verdicts.injection.exit,
        findings: ins.findings.filter((x) => x.label !== 'PASS').length,
        needsBackfill: ins.needsBackfill,
      },
    });
  }
  const d = detectLayout(root);
  return { shape: d.shape ?? 'empty', records, problems, warnings: [] };
}

/**
 * The fields a record shows: the trust keys as written, and the free text as the index holds
 * it (name, description, quarantine reason withheld when they carry a secret). Other raw
 * values never leave the read (lib/service/index/inspect.ts `Inspected.fields`).
 */
const FREE_TEXT = new Set<string>(['name', 'description', 'quarantine-reason']);
const SHOWN = KNOWN_KEYS.filter((k) => !FREE_TEXT.has(k));

function identity(adapter: FileLayoutAdapter, ctx: ReadContext, f: ListedFile) {
  return { id: `${ctx.sourceId}:${f.filename}`, layout: adapter.layout, key: f.filename };
}

/** A file the scan indexes as an error row (a symlink, too large, unreadable): listed, offering nothing. */
function errorRecord(
  adapter: FileLayoutAdapter,
  ctx: ReadContext,
  f: ListedFile,
  error: string,
  conflict: boolean,
): LayoutRecord {
  const state = fileRecordState({
    location: f.location,
    trustLevel: null,
    conflict,
    lifecycle: lifecycle(factsOf({}, f, conflict), ctx.now),
  });
  return {
    ...identity(adapter, ctx, f),
    native: state.native,
    tier: errorRowTier(f.location),
    flags: state.flags as RecordFlag[],
    flagReasons: state.flagReasons as LayoutRecord['flagReasons'],
    location: { file: f.relPath, line: 0, endLine: 0 },
    origin: 'none',
    title: f.filename,
    text: '',
    createdAt: null,
    verifiedAt: null,
    actions: [],
    refused: Object.fromEntries(adapter.actions.map((a) => [a, error])),
    fields: [],
    detail: { location: f.location, error },
  };
}

function verbs(all: ActionAvailability[]): { actions: string[]; refused: Record<string, string> } {
  return {
    actions: all.filter((a) => a.allowed).map((a) => a.action),
    refused: Object.fromEntries(
      all.filter((a) => !a.allowed).map((a) => [a.action, a.reason ?? `${a.action} does not apply now`]),
    ),
  };
}

function lineCount(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return bytes[bytes.length - 1] === 0x0a ? n : n + 1;
}

function defined(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;
}
