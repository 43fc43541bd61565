/**
 * Changes made outside memtrust (CONTRACT §5.1; docs/versions.md): a file another program
 * deleted, rewrote or added since the last scan is an audit event with actor `outside`,
 * unless a memtrust event (the write pipeline's, the hooks') already names those bytes. One
 * scan's outside events of a root share a batch; one that deletes or rewrites more than 10
 * files or a quarter of the root is a mass change (mass-change.ts).
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { SourceInfo } from '../../sources';
import type { AuditEvent, EventTier } from '../../audit/event';
import { auditFile } from '../audit/audit-log';
import { appendDurable, mkdirp } from '../write/fs-atomic';
import path from 'node:path';
import { mirrorAudit } from '../audit/audit-mirror';
import { linesChanged } from './lines-changed';
import type { VersionStore } from './version-store';
import { recordMassChange } from './mass-change';

export type OutsideKind = 'deleted' | 'rewritten' | 'added';

export interface OutsideChange {
  kind: OutsideKind;
  id: string;
  rel: string;
  filename: string;
  before: string | null;
  after: string | null;
  fromTier: string | null;
  toTier: string | null;
  /** The new version as stored (credential values replaced), for the lines-changed count. */
  afterText: string | null;
}

const TIERS = new Set(['verified', 'inferred', 'quarantined', 'archived']);
const tierOf = (t: string | null): EventTier => (t && TIERS.has(t) ? (t as EventTier) : null);

/** More than this many files deleted or rewritten at once is a mass change. */
export const MASS_FILES = 10;
/** ... or more than this share of the root's files. */
export const MASS_SHARE = 0.25;

export function isMassChange(hit: number, rootFiles: number): boolean {
  return hit > MASS_FILES || (rootFiles > 0 && hit > rootFiles * MASS_SHARE);
}

export function recordOutside(
  sqlite: Database.Database,
  store: VersionStore,
  source: SourceInfo,
  changes: OutsideChange[],
  ctx: { at: string; machine: string; batch: string; rootFiles: number },
): AuditEvent[] {
  // Events appended by memtrust since the last mirror (another process's write, a hook, another
  // machine's over a sync) are read first. A deletion is memtrust's when an event starts from
  // those bytes: a move (a transition on another machine) leaves the old place empty.
  mirrorAudit(sqlite, source.id, source.root);
  const ownAfter = sqlite.prepare(
    'SELECT 1 FROM audit_events WHERE source = ? AND memory = ? AND after_sha256 = ? AND actor != ? LIMIT 1',
  );
  const ownBefore = sqlite.prepare(
    'SELECT 1 FROM audit_events WHERE source = ? AND memory = ? AND before_sha256 = ? AND actor != ? LIMIT 1',
  );
  // A root synced between machines: each machine's scan sees the same change; the first to
  // record it speaks for all (an event of another machine with the same memory and bytes).
  const otherMachine = sqlite.prepare(
    "SELECT 1 FROM audit_events WHERE source = ? AND memory = ? AND actor = 'outside' AND action = ? AND before_sha256 IS ? AND after_sha256 IS ? AND machine != ? LIMIT 1",
  );
  const lines = store.linesOf(source.root, new Set(changes.map((c) => c.rel)));
  const textOf = (rel: string, sha: string | null): string | null => {
    if (!sha) return null;
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i]!;
      if (l.rel === rel && l.sha === sha) return store.bytesOf(l)?.toString('utf8') ?? null;
    }
    return null;
  };
  const events: AuditEvent[] = [];
  for (const c of changes) {
    const own =
      c.after !== null
        ? ownAfter.get(source.id, c.filename, c.after, 'outside')
        : ownBefore.get(source.id, c.filename, c.before, 'outside');
    if (own || otherMachine.get(source.id, c.filename, c.kind, c.before, c.after, ctx.machine)) continue;
    const beforeText = c.kind === 'added' ? null : textOf(c.rel, c.before);
    const n =
      c.kind === 'added'
        ? linesChanged(null, c.afterText)
        : beforeText === null
          ? null
          : linesChanged(beforeText, c.afterText);
    events.push({
      v: 1,
      id: crypto.randomUUID(),
      at: ctx.at,
      machine: ctx.machine,
      actor: 'outside',
      action: c.kind,
      memory: c.filename,
      from: tierOf(c.fromTier),
      to: tierOf(c.toTier),
      reason: `${c.kind} outside memtrust${n === null ? '' : `: ${n} line${n === 1 ? '' : 's'} changed`}`,
      findings: [],
      before_sha256: c.before,
      after_sha256: c.after,
      recovered: false,
      batch: ctx.batch,
      files: [c.rel],
      ...(n === null ? {} : { lines_changed: n }),
    });
  }
  // One durable append for the whole scan's events: one fsync, not one per file.
  if (events.length > 0) appendAuditMany(source.root, ctx.machine, events);
  if (events.length > 0) mirrorAudit(sqlite, source.id, source.root);
  const hit = events.filter((e) => e.action !== 'added').length;
  if (isMassChange(hit, ctx.rootFiles))
    recordMassChange(store, {
      batch: ctx.batch,
      source: source.id,
      root: source.root,
      at: ctx.at,
      deleted: events.filter((e) => e.action === 'deleted').length,
      rewritten: events.filter((e) => e.action === 'rewritten').length,
    });
  return events;
}

/** Appends `events` as lines of the machine's audit file in one durable write (docs/audit-trail.md). */
function appendAuditMany(root: string, machine: string, events: AuditEvent[]): void {
  const file = auditFile(root, machine);
  mkdirp(path.dirname(file));
  appendDurable(file, Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join('')));
}
