/**
 * The append-only audit trail: `<root>/.memtrust/audit/<machine>.jsonl` (docs/audit-trail.md).
 * One file per machine so a synced root merges without write conflicts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEvent } from '../../audit/event';
import { appendDurable, mkdirp } from '../write/fs-atomic';

export function auditDir(root: string): string {
  return path.join(root, '.memtrust', 'audit');
}

export function auditFile(root: string, machine: string): string {
  return path.join(auditDir(root), `${machine}.jsonl`);
}

/** Appends one event line and fsyncs it: the event is durable before we report success. */
export function appendAudit(root: string, machine: string, event: AuditEvent): void {
  const file = auditFile(root, machine);
  mkdirp(path.dirname(file));
  // Through the write path's fs layer: each call is a fault point (docs/crash-safety.md).
  appendDurable(file, Buffer.from(`${JSON.stringify(event)}\n`));
}

export function listAuditFiles(root: string): string[] {
  try {
    return fs
      .readdirSync(auditDir(root))
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .map((n) => path.join(auditDir(root), n));
  } catch {
    return [];
  }
}

export interface AuditChunk {
  events: AuditEvent[];
  /** Offset just after the last complete line read. */
  end: number;
  size: number;
  /** Lines that were not valid events (kept on disk, skipped here). */
  bad: number;
}

/** Complete lines from `offset` on; a partial last line (a write in progress) is left for later. */
export function readAuditFrom(file: string, offset: number): AuditChunk {
  const size = fs.statSync(file).size;
  if (size <= offset) return { events: [], end: offset, size, bad: 0 };
  const fd = fs.openSync(file, 'r');
  let buf: Buffer;
  try {
    buf = Buffer.alloc(size - offset);
    fs.readSync(fd, buf, 0, buf.length, offset);
  } finally {
    fs.closeSync(fd);
  }
  const lastNl = buf.lastIndexOf(0x0a);
  if (lastNl === -1) return { events: [], end: offset, size, bad: 0 };
  const events: AuditEvent[] = [];
  let bad = 0;
  for (const line of buf.subarray(0, lastNl).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as AuditEvent;
      if (typeof e.id === 'string' && typeof e.memory === 'string' && typeof e.at === 'string') events.push(e);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { events, end: offset + lastNl + 1, size, bad };
}
