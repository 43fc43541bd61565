/** Mirrors a finished transition into SQLite in one immediate transaction. */
import { rulesForLayout } from '../../validators/validation-rules';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { FileSourceInfo, ListedFile } from '../../sources';
import type { Intent } from '../write/journal';
import type { ServiceContext } from '../context';
import { eventInserter } from '../audit/audit-mirror';
import { inspect } from './inspect';
import { markConflictFor, rowWriter } from './index-rows';
import { markIndexed } from '../claude/claude-index';
import { auditFile } from '../audit/audit-log';
import type { Location } from '../../trust/tiers';

export function eventApplied(sqlite: Database.Database, source: string, op: string): boolean {
  return !!sqlite.prepare('SELECT 1 FROM audit_events WHERE source = ? AND id = ?').get(source, op);
}

function locationOf(rel: string, source: FileSourceInfo): Location {
  const dir = path.posix.dirname(rel);
  if (dir === source.adapter.files.dirOf('quarantine')) return 'quarantine';
  if (dir.startsWith(`${path.posix.dirname(source.adapter.files.dirOf('archive', '0000-00'))}/`)) return 'archive';
  return 'memories';
}

export function commitToIndex(ctx: ServiceContext, source: FileSourceInfo, intent: Intent): void {
  const sqlite = ctx.handle.sqlite;
  const writer = rowWriter(sqlite);
  const insertEvent = eventInserter(sqlite);
  const abs = path.join(source.root, intent.dst);
  let listed: ListedFile | null = null;
  let bytes: Buffer | null = null;
  try {
    bytes = fs.readFileSync(abs);
    const st = fs.statSync(abs);
    listed = {
      relPath: intent.dst,
      filename: path.posix.basename(intent.dst),
      location: locationOf(intent.dst, source),
      size: st.size,
      mtimeMs: Math.floor(st.mtimeMs),
      rules: rulesForLayout(source.kind),
    };
  } catch {
    // The next scan indexes whatever is there; the audit event is already durable.
  }
  const ins = listed && bytes ? inspect(bytes, listed, ctx.owner()) : null;
  sqlite
    .transaction(() => {
      insertEvent(source.id, intent.event);
      writer.remove(`${source.id}:${intent.src}`);
      if (listed && ins) writer.upsert(source.id, listed, ins);
      markConflictFor(sqlite, `${source.id}:${path.posix.basename(intent.dst)}`);
      // Our own append is mirrored: move the cursor past it only if nothing else was appended unseen.
      const file = auditFile(source.root, ctx.machine);
      const cur = sqlite.prepare('SELECT offset FROM audit_cursors WHERE file = ?').get(file) as
        | { offset: number }
        | undefined;
      const size = fs.statSync(file).size;
      const line = Buffer.byteLength(`${JSON.stringify(intent.event)}\n`);
      if ((cur?.offset ?? 0) + line === size) {
        sqlite
          .prepare('INSERT OR REPLACE INTO audit_cursors (file, source, offset, size) VALUES (?, ?, ?, ?)')
          .run(file, source.id, size, size);
      }
    })
    .immediate();
  if (source.adapter.files?.indexFile) markIndexed(sqlite, source);
}
