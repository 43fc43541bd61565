/**
 * A small layout used only by tests (docs/records.md, "Test layout"): one JSON object
 * per line in `*.testrecords.jsonl` (writable) or `*.testrecords-ro.jsonl` (read-only,
 * like a store another tool owns). It exercises the record service, the index, the CLI
 * and the pages before the real layouts' adapters are registered, and after. Registered
 * only through registerForTests or MEMTRUST_TEST_LAYOUT=1 (registry.ts).
 *
 * A line: {"key":"k1","native":"active","tier":"inferred","title":"…","text":"…",
 * "origin":"agent","created":"2026-11-01","verified":null,"flags":["stale"],
 * "reasons":{"stale":"…"}}. A line that is not such an object is a read problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LayoutAdapter, PlanContext, ReadContext } from '../layout-adapter';
import {
  RECORD_FLAGS,
  type LayoutName,
  type LayoutRead,
  type LayoutRecord,
  type RecordFlag,
  type RecordPlanResult,
  type RecordTier,
} from '../record';
import { oneLinePlan } from '../edits';

const TIERS: readonly RecordTier[] = ['verified', 'inferred', 'quarantined', 'archived'];

export interface TestLayoutAdapter extends LayoutAdapter {
  /** How many times `read` ran (the cache tests count them). */
  reads: number;
}

interface Options {
  layout: string;
  suffix: string;
  label: string;
  readOnly?: string;
}

function storeFiles(root: string, suffix: string): string[] {
  try {
    return fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(suffix))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function makeTestLayout(opts: Options): TestLayoutAdapter {
  const actionsOf = (tier: RecordTier): { actions: string[]; refused: Record<string, string> } => {
    if (opts.readOnly) return { actions: [], refused: { archive: opts.readOnly, restore: opts.readOnly } };
    return tier === 'archived'
      ? { actions: ['restore'], refused: { archive: 'already archived' } }
      : { actions: ['archive'], refused: { restore: 'not archived' } };
  };

  const adapter: TestLayoutAdapter = {
    reads: 0,
    layout: opts.layout as LayoutName,
    label: opts.label,
    actions: ['archive', 'restore'],
    ...(opts.readOnly ? { readOnly: opts.readOnly } : {}),
    detect(dir) {
      return storeFiles(dir, opts.suffix).length > 0 ? { shape: 'jsonl' } : null;
    },
    changeToken(root) {
      return storeFiles(root, opts.suffix)
        .map((n) => {
          const st = fs.statSync(path.join(root, n));
          return `${n}:${st.size}:${st.mtimeMs}`;
        })
        .join('|');
    },
    read(root: string, ctx: ReadContext): LayoutRead {
      adapter.reads++;
      const out: LayoutRead = { shape: 'jsonl', records: [], problems: [], warnings: [] };
      for (const file of storeFiles(root, opts.suffix)) {
        const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
        lines.forEach((raw, i) => {
          const line = i + 1;
          if (raw.trim() === '') return;
          let o: Record<string, unknown>;
          try {
            o = JSON.parse(raw) as Record<string, unknown>;
          } catch {
            out.problems.push({ file, line, problem: 'not a JSON object' });
            return;
          }
          const key = str(o?.key);
          if (!o || typeof o !== 'object' || !key) {
            out.problems.push({ file, line, problem: 'no "key"' });
            return;
          }
          const tier = TIERS.includes(o.tier as RecordTier) ? (o.tier as RecordTier) : 'inferred';
          const flags = (Array.isArray(o.flags) ? o.flags : []).filter((f): f is RecordFlag =>
            RECORD_FLAGS.includes(f as RecordFlag),
          );
          const reasons = (o.reasons && typeof o.reasons === 'object' ? o.reasons : {}) as Partial<
            Record<RecordFlag, string>
          >;
          const rec: LayoutRecord = {
            id: `${ctx.sourceId}:${key}`,
            layout: opts.layout as LayoutName,
            key,
            native: str(o.native) ?? tier,
            tier,
            flags,
            flagReasons: Object.fromEntries(flags.map((f) => [f, reasons[f] ?? `${f} (test store)`])),
            location: { file, line, endLine: line },
            origin: str(o.origin) ?? 'none',
            title: str(o.title) ?? key,
            text: str(o.text) ?? '',
            createdAt: str(o.created),
            verifiedAt: str(o.verified),
            ...actionsOf(tier),
            fields: Object.entries(o).map(([name, value]) => ({
              name,
              value: typeof value === 'string' ? value : JSON.stringify(value),
              line,
            })),
            detail: { file, readAt: ctx.now.toISOString() },
          };
          out.records.push(rec);
        });
      }
      return out;
    },
    plan(record: LayoutRecord, action: string, ctx: PlanContext): RecordPlanResult {
      if (opts.readOnly) return { ok: false, reason: opts.readOnly, command: `testtool ${action} ${record.key}` };
      if (!record.actions.includes(action))
        return { ok: false, reason: record.refused[action] ?? `${action} is not an action of this layout` };
      const file = record.location.file;
      const bytes = ctx.read(file);
      if (!bytes) return { ok: false, reason: `${file} is gone` };
      const line = bytes.toString('utf8').split('\n')[record.location.line - 1] ?? '';
      const o = JSON.parse(line) as Record<string, unknown>;
      o.tier = action === 'archive' ? 'archived' : 'inferred';
      return oneLinePlan(
        file,
        record.location.line,
        Buffer.from(`${line}\n`),
        Buffer.from(`${JSON.stringify(o)}\n`),
        { line: record.location.line },
        `${action} ${record.key}`,
      );
    },
  };
  return adapter;
}

/** The writable test layout and its read-only twin. */
export const testLayoutAdapter = makeTestLayout({
  layout: 'test-layout',
  suffix: '.testrecords.jsonl',
  label: 'test records',
});
export const readOnlyTestLayoutAdapter = makeTestLayout({
  layout: 'test-layout-ro',
  suffix: '.testrecords-ro.jsonl',
  label: 'read-only test records',
  readOnly: 'the test tool owns this store; memtrust only reads it',
});
export const TEST_LAYOUT_ADAPTERS: readonly TestLayoutAdapter[] = [testLayoutAdapter, readOnlyTestLayoutAdapter];
