/**
 * The append-only audit trail: `<root>/.memtrust/audit/<machine>.jsonl`, or the root's data
 * folder for a store inside a git checkout (lib/service/meta/places.ts; docs/audit-trail.md).
 * One file per machine so a synced root merges without write conflicts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEvent } from '../../audit/event';
import { appendDurable, mkdirp } from '../write/fs-atomic';
import { OPEN_READ, readFd } from '../../core/read-fd';
import { metaDir, metaDirsToRead } from '../meta/places';

/** Where this root's trail is appended (lib/service/meta/places.ts). */
export function auditDir(root: string): string {
  return path.join(metaDir(root), 'audit');
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

/** Every trail file of the root: the current place, then one an earlier version wrote in the root. */
export function listAuditFiles(root: string): string[] {
  return metaDirsToRead(root, 'audit').flatMap((dir) => {
    try {
      return fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .sort()
        .map((n) => path.join(dir, n));
    } catch {
      return [];
    }
  });
}

export interface AuditChunk {
  events: AuditEvent[];
  /** Offset just after the last complete line read. */
  end: number;
  size: number;
  /** Lines that were not valid events (kept on disk, skipped here). */
  bad: number;
}

/** The bytes of `file` from `offset` through its last newline, and the file's size. */
export interface AuditBytes {
  /** Complete lines only: empty when none was appended since `offset`. */
  lines: Buffer;
  size: number;
}

/** Reads complete lines from `offset` on; a partial last line (a write in progress) is left for later. */
export function readAuditBytes(file: string, offset: number): AuditBytes {
  const size = fs.statSync(file).size;
  if (size <= offset) return { lines: Buffer.alloc(0), size };
  const fd = fs.openSync(file, OPEN_READ);
  let buf: Buffer;
  try {
    buf = readFd(fd, size - offset, offset);
  } finally {
    fs.closeSync(fd);
  }
  return { lines: buf.subarray(0, buf.lastIndexOf(0x0a) + 1), size };
}

/**
 * Calls `onEvent` with each valid event of `lines`, in order; returns how many lines were
 * not valid events. Each line is decoded on its own: one non-ASCII character anywhere made
 * the whole chunk a two-byte string and every parse slower (docs/performance.md, "The
 * audit mirror"). The text is the same: a newline byte never occurs inside a UTF-8 sequence.
 */
export function eachAuditEvent(lines: Buffer, onEvent: (e: AuditEvent) => void): number {
  let bad = 0;
  for (let start = 0; start < lines.length; ) {
    const nl = lines.indexOf(0x0a, start);
    const line = lines.toString('utf8', start, nl);
    start = nl + 1;
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as AuditEvent;
      if (typeof e.id === 'string' && typeof e.memory === 'string' && typeof e.at === 'string') onEvent(e);
      else bad++;
    } catch {
      bad++;
    }
  }
  return bad;
}

/** Complete lines from `offset` on, as events; a partial last line (a write in progress) is left for later. */
export function readAuditFrom(file: string, offset: number): AuditChunk {
  const { lines, size } = readAuditBytes(file, offset);
  const events: AuditEvent[] = [];
  const bad = eachAuditEvent(lines, (e) => events.push(e));
  return { events, end: offset + lines.length, size, bad };
}
