/**
 * Generated audit history (docs/audit-trail.md). Each planned file gets the events that
 * explain its current frontmatter; they are grouped per machine into
 * `.memtrust/audit/<machine>.jsonl`, in chronological order.
 */
import type { Actor, AuditAction, AuditEvent, AuditFindingRef, EventTier } from '../audit/event';
import { isoSec } from './render';

export interface EventDraft {
  at: Date;
  machine: string;
  actor: Actor;
  action: AuditAction;
  from: EventTier;
  to: EventTier;
  reason?: string | null;
  findings?: AuditFindingRef[];
}

/** An event already serialised (keeps 100k-file corpora light on memory). */
export interface StampedEvent {
  at: number;
  id: string;
  machine: string;
  line: string;
}

/** Completes drafts into AuditEvent lines; the last one carries the file's real sha256 when given. */
export function toEvents(
  memory: string,
  drafts: EventDraft[],
  nextId: () => string,
  finalSha: string | null,
): StampedEvent[] {
  return drafts.map((d, i) => {
    const event: AuditEvent = {
      v: 1,
      id: nextId(),
      at: isoSec(d.at),
      machine: d.machine,
      actor: d.actor,
      action: d.action,
      memory,
      from: d.from,
      to: d.to,
      reason: d.reason ?? null,
      findings: d.findings ?? [],
      before_sha256: null,
      after_sha256: i === drafts.length - 1 ? finalSha : null,
      recovered: false,
    };
    return { at: d.at.getTime(), id: event.id, machine: d.machine, line: JSON.stringify(event) };
  });
}

/** Group per machine, sort by time (then id), one JSON object per line. */
export function auditFiles(events: StampedEvent[]): Array<{ relPath: string; lines: string[] }> {
  const byMachine = new Map<string, StampedEvent[]>();
  for (const e of events) {
    let list = byMachine.get(e.machine);
    if (!list) {
      list = [];
      byMachine.set(e.machine, list);
    }
    list.push(e);
  }
  return [...byMachine.keys()].sort().map((m) => {
    const list = byMachine.get(m)!;
    list.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { relPath: `.memtrust/audit/${m}.jsonl`, lines: list.map((e) => e.line) };
  });
}
