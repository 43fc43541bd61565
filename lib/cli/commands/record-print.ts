/**
 * How the CLI prints records of record roots (docs/records.md, "CLI"): the `list` line,
 * the `list --json` item with the docs/records.md fields, and `show` as text or JSON.
 */
import { recordHistory } from '../../service/records/history';
import type { Io } from '../io';
import { isFileSource, type SourceInfo } from '../../sources';
import type { LayoutRead } from '../../sources/record';
import { layoutAdapter } from '../../sources/registry';
import type { ServiceContext } from '../../service/context';
import { recordActionStates, type RecordView } from '../../service/records/read';

function place(r: RecordView): string {
  const { file, line, endLine } = r.location;
  if (!line) return file;
  return endLine > line ? `${file}:${line}-${endLine}` : `${file}:${line}`;
}

/** One `list` line: tier, place, title, then layout, native state and flags. */
export function recordLine(r: RecordView): string {
  const tags = [r.layout, r.native !== r.tier ? r.native : null, ...r.flags].filter(Boolean).join(' · ');
  return `${r.tier.padEnd(12)} ${place(r).padEnd(48)} ${r.title}  [${tags}]`;
}

/** Exit codes the secret and injection checks would give this text (docs/validators.md), as `list --json` gives memories. */
function exits(r: RecordView): { secret: number; injection: number } {
  return {
    secret: r.findings.some((f) => f.check === 'secret') ? 1 : 0,
    injection: r.findings.some((f) => f.check === 'injection') ? 3 : 0,
  };
}

/** A `list --json` item: today's item fields where they apply, plus layout, key, native, flags, actions and location. */
export function recordItem(r: RecordView, source: SourceInfo | undefined): Record<string, unknown> {
  return {
    id: r.id,
    key: r.key,
    layout: r.layout,
    project: source?.project ?? null,
    native: r.native,
    file: r.location.file,
    root: source?.root,
    location: r.location,
    tier: r.tier,
    flags: r.flags,
    flagReasons: r.flagReasons,
    name: r.title,
    origin: r.origin,
    createdAt: r.createdAt,
    lastVerified: r.verifiedAt,
    validate: null,
    ...exits(r),
    findings: r.findings.length,
    // A read-only layout allows memtrust no verb (docs/records.md); what its owner allows is in ownerActions.
    ...(layoutAdapter(r.layout)?.readOnly ? { actions: [], ownerActions: r.actions } : { actions: r.actions }),
    refused: r.refused,
  };
}

/** `show --json` of a record: the record, its root, and every verb with why it is refused (and the owner's command). */
export function recordShowJson(ctx: ServiceContext, source: SourceInfo, r: RecordView): Record<string, unknown> {
  return {
    ...r,
    root: source.root,
    project: source.project,
    label: source.label,
    shape: source.shape,
    ...exits(r),
    actionStates: recordActionStates(ctx, source, r),
    // Newest first, the same query as `memtrust history ID` (docs/records.md, "History and reports").
    history: recordHistory(ctx, source.id, r.key),
  };
}

export function printRecord(io: Io, ctx: ServiceContext, source: SourceInfo, r: RecordView): void {
  io.out(`${r.key}  [${r.tier}]  ${source.root}/${place(r)}`);
  io.out(`  id: ${r.id}`);
  io.out(`  layout: ${r.layout} (${source.label}, ${source.shape})`);
  io.out(`  native: ${r.native}`);
  io.out(`  title: ${r.title}`);
  io.out(`  origin: ${r.origin}`);
  io.out(`  created: ${r.createdAt ?? '—'}`);
  io.out(`  verified: ${r.verifiedAt ?? '—'}`);
  if (r.fields.length) io.out('fields:');
  for (const f of r.fields) io.out(`  ${f.name}: ${f.value}${f.line ? ` (line ${f.line})` : ''}`);
  io.out(r.flags.length ? 'flags:' : 'flags: none');
  for (const f of r.flags) io.out(`  ${f} — ${r.flagReasons[f] ?? ''}`);
  const { secret, injection } = exits(r);
  io.out(`verdicts: secret-check ${secret} · injection-check ${injection}`);
  for (const f of r.findings) io.out(`  ${f.label}: ${f.message}${f.line ? ` (line ${f.line})` : ''}`);
  io.out('actions:');
  for (const a of recordActionStates(ctx, source, r)) {
    io.out(
      `  ${a.allowed ? '✓' : '✗'} ${a.action}${a.reason ? ` — ${a.reason}` : ''}${a.command && !a.reason?.includes(a.command) ? `; the owner's command: ${a.command}` : ''}`,
    );
  }
  const history = recordHistory(ctx, source.id, r.key);
  if (history.length) io.out('history:');
  for (const h of history)
    io.out(
      `  ${h.at} ${h.actor} ${h.recordAction ?? h.action} ${h.from ?? '—'} → ${h.to ?? '—'}${h.reason ? ` (${h.reason})` : ''}`,
    );
}

/** For `roots`: how many records a record root holds, read through its adapter (no index there). */
export function recordCount(
  s: SourceInfo,
  now: Date,
): { count: number; problems: number; error?: string; read?: Pick<LayoutRead, 'problems' | 'warnings'> } {
  if (isFileSource(s) || s.error) return { count: 0, problems: 0, ...(s.error ? { error: s.error } : {}) };
  try {
    const r = s.adapter.read(s.root, { sourceId: s.id, now });
    return {
      count: new Set(r.records.map((x) => x.id)).size,
      problems: r.problems.length,
      read: { problems: r.problems, warnings: r.warnings },
    };
  } catch (e) {
    return {
      count: 0,
      problems: 0,
      error: `cannot read ${s.root}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`,
    };
  }
}
