/**
 * Actions on a consolidation record as field changes on its one line
 * (docs/consolidation-layout.md, "Actions" and "Rewrites"): the plan is a single
 * `replace-lines` edit whose `expect` is the line's current bytes. Only the named
 * values change; every other key, the key order, the spacing, a BOM and the line's
 * own ending stay byte-for-byte, and no other line of the file is touched. The plan
 * re-reads the line and judges the action on what it holds now, not on the cached
 * record. It never writes.
 */
import type { PlanContext } from '../layout-adapter';
import type { LayoutRecord, RecordPlanResult } from '../record';
import { oneLinePlan } from '../edits';
import { lineAt } from './lines';
import { check, evaluate, isoSeconds } from './map';
import { parseRecordLine } from './read';
import { setFields, type FieldChange } from './scan';
import { CONSOLIDATION_ACTIONS, type ConsolidationAction } from './types';

/** A one-line note: control characters become spaces, trimmed, at most 500 characters. */
export function oneLine(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a one-line summary must drop
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .trim()
      .slice(0, 500)
  );
}

function refuse(reason: string): RecordPlanResult {
  return { ok: false, reason };
}

function show(v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

export function plan(record: LayoutRecord, action: string, ctx: PlanContext): RecordPlanResult {
  if (!(CONSOLIDATION_ACTIONS as readonly string[]).includes(action)) {
    return refuse(`${action} refused: consolidation records allow ${CONSOLIDATION_ACTIONS.join(', ')}`);
  }
  const { file, line } = record.location;
  const bytes = ctx.read(file);
  if (!bytes) return refuse(`${action} refused: ${file} is gone; re-read the store`);
  const span = lineAt(bytes, line);
  if (!span)
    return refuse(`${action} refused: ${file} changed since it was read (line ${line} is gone); re-read the store`);
  const content = bytes.subarray(span.start, span.contentEnd);
  let text = content.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(content)) {
    return refuse(
      `${action} refused: line ${line} of ${file} holds bytes that are not valid UTF-8; memtrust never rewrites it`,
    );
  }
  let bom = '';
  if (span.start === 0 && text.charCodeAt(0) === 0xfeff) {
    bom = '\ufeff';
    text = text.slice(1);
  }
  const parsed = parseRecordLine(text);
  if (!parsed.ok) {
    return refuse(
      `${action} refused: line ${line} of ${file} ${parsed.problem}; memtrust never rewrites a line it cannot parse`,
    );
  }
  if (parsed.obj.id !== record.key) {
    return refuse(
      `${action} refused: ${file} changed since it was read (line ${line} no longer holds ${record.key}); re-read the store`,
    );
  }
  const e = evaluate(parsed.obj, ctx.now);
  const why = check(e, action, ctx.now);
  if (why) return refuse(why);

  const now = isoSeconds(ctx.now);
  const changes: FieldChange[] = [];
  switch (action as ConsolidationAction) {
    case 'promote':
      changes.push({ name: 'confidence', value: 'high' }, { name: 'verifiedAt', value: now });
      break;
    case 'reaffirm':
      changes.push({ name: 'verifiedAt', value: now });
      break;
    case 'demote': {
      const reason = oneLine(ctx.reason ?? '');
      if (!reason)
        return refuse(
          `demote refused: give a one-line reason for sending ${record.key} to review (it is written as reviewNote)`,
        );
      changes.push({ name: 'status', value: 'needs-review' }, { name: 'reviewNote', value: reason });
      break;
    }
    case 'restore':
      changes.push({ name: 'status', value: 'active' });
      break;
    case 'archive':
      changes.push({ name: 'status', value: 'expired' });
      break;
  }

  let next: string;
  try {
    next = setFields(text, parsed.spans, changes);
  } catch (err) {
    return refuse(
      `${action} refused: line ${line} of ${file}: ${(err as Error).message}; memtrust does not guess which one counts`,
    );
  }
  const memo: Record<string, string | number> = { file, line, key: record.key };
  for (const c of changes) memo[`${c.name}Before`] = show(parsed.obj[c.name]);
  const summary = `${action} ${record.key} (${file} line ${line}): ${changes.map((c) => `${c.name} ${show(parsed.obj[c.name])} → ${JSON.stringify(c.value)}`).join(', ')}`;
  return oneLinePlan(
    file,
    line,
    Buffer.from(bytes.subarray(span.start, span.end)),
    Buffer.from(bom + next + span.eol, 'utf8'),
    memo,
    summary,
  );
}
