/**
 * The write path's three touches of the SQLite index, for a context that may have none
 * (docs/install.md, "Hooks without the index"): the plugin's hooks run where better-sqlite3
 * was never compiled. Files are the truth, so without the index an operation id is looked
 * up in the audit files themselves, and the dashboard's next scan mirrors the event and
 * re-reads the file (the index is its cache).
 */
import fs from 'node:fs';
import type { SourceInfo } from '../../sources';
import type { ServiceContext } from '../context';
import { mirrorAudit } from '../audit/audit-mirror';
import { listAuditFiles } from '../audit/audit-log';
import { eventApplied } from './index-commit';

/** Brings the index's copy of the audit trail up to date; nothing to do without an index. */
export function mirrorIfIndexed(ctx: ServiceContext, source: SourceInfo): void {
  if (!ctx.noIndex) mirrorAudit(ctx.handle.sqlite, source.id, source.root);
}

/** Whether operation `op` is already in the audit trail of `source`. */
export function opApplied(ctx: ServiceContext, source: SourceInfo, op: string): boolean {
  if (!ctx.noIndex) return eventApplied(ctx.handle.sqlite, source.id, op);
  return auditHasOp(source.root, op);
}

/**
 * Scans the audit files for an event line whose `id` is `op`. An id inside a string value
 * would be escaped (`\"id\":…`), so the unescaped key-value pair is only ever an event's own id.
 */
export function auditHasOp(root: string, op: string): boolean {
  const needle = Buffer.from(`"id":${JSON.stringify(op)}`);
  for (const file of listAuditFiles(root)) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue;
    }
    if (bytes.includes(needle)) return true;
  }
  return false;
}
