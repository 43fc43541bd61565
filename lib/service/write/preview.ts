/**
 * What a transition would write, computed without writing (docs/review-inbox.md,
 * "Diff preview"): the same decide(), the same frontmatter rewrite and the same
 * MEMORY.md edit planning the transition uses, stopped before the first byte hits
 * the disk. The dashboard shows it before every Confirm.
 *
 * Also the one place for the "flagged" rule of the inbox: promote and re-affirm are
 * refused for a memory with a credential finding or a hard validator failure
 * (docs/trust-model.md "Offered only when possible", "Promote is the user's decision").
 */
import type { Failure } from '../../core/error-codes';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../context';
import { resolveMemory, type Located } from '../index/resolve';
import type { Inspected } from '../index/inspect';
import { inspectLocated } from '../index/inspect-located';
import { planIndexEdit } from '../claude/index-edit';
import { decide } from '../../trust/transitions';
import { untrustedSummary } from '../../trust/origin';
import { ORIGIN_REVIEWED } from '../../trust/assistant-write';
import { today } from '../../trust/dates';
import { untrustedOriginOfFound } from '../origin/memory-origin';
import type { MemoryAction } from '../../trust/tiers';
import { rewriteFrontmatter, RewriteError } from '../../memory-file/rewrite';
import { splitFile } from '../../memory-file/split';
import { containsSecret, WITHHELD } from '../../validators/withhold';
import { findingClass, type Finding, type OwnerIdentity } from '../../validators/types';

export interface FrontmatterChange {
  /** The top-level key the line sets (null for a line that is not `key: value`). */
  key: string | null;
  before: string | null;
  after: string | null;
}

export interface TransitionPreview {
  action: MemoryAction;
  filename: string;
  from: string | null;
  to: string | null;
  /** sha256 of the bytes the preview was computed from: Confirm sends it back (expectSha). */
  sha256: string;
  changes: FrontmatterChange[];
  /** Directories relative to the root ('' is the root itself). */
  move: { from: string; to: string } | null;
  index: { file: string; kind: 'remove' | 'insert'; line: string } | null;
  /** Set when the frontmatter cannot be rewritten and the file would move unchanged (demote only). */
  note: string | null;
  /**
   * Promote of a memory flagged untrusted-origin (docs/origin.md): what its writing turn read.
   * The dialog shows it, and Confirm then sends the acknowledgement the service asks for.
   */
  origin?: { tools: string[]; sources: string[]; summary: string } | null;
}

export type PreviewResult = { ok: true; preview: TransitionPreview } | Failure;

/** Why promote / re-affirm are refused for this memory, or null (docs/trust-model.md). */
export function flaggedReason(
  findings: readonly Pick<Finding, 'check' | 'code' | 'label'>[],
  validateExit: number,
): string | null {
  const credential = findings.some((f) => f.check === 'secret' && findingClass(f.code) === 'credential');
  const hard = validateExit === 1 || validateExit === 2;
  if (!credential && !hard) return null;
  const what =
    credential && hard
      ? 'a credential finding and a hard validator failure'
      : credential
        ? 'a credential finding'
        : 'a hard validator failure';
  return `refused: the memory has ${what}; demote it instead, or fix the file first`;
}

const VOUCHING: ReadonlySet<string> = new Set(['promote', 'reaffirm']);

/** A frontmatter or index line as it may be shown: a line carrying a secret is withheld whole. */
function shown(line: string, owner: OwnerIdentity): string {
  return containsSecret(line, owner) ? WITHHELD : line;
}

function fmLines(bytes: Buffer): string[] {
  const s = splitFile(bytes);
  if (!s.ok) return [];
  return bytes
    .subarray(s.fmStart, s.fmEnd)
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);
}

const keyOf = (line: string): string | null => /^([A-Za-z0-9_.-]+)\s*:/.exec(line)?.[1] ?? null;

/** Lines that differ, paired by top-level key where both sides have it. */
export function frontmatterChanges(before: string[], after: string[]): FrontmatterChange[] {
  const inAfter = new Set(after);
  const inBefore = new Set(before);
  const gone = before.filter((l) => !inAfter.has(l));
  const added = after.filter((l) => !inBefore.has(l));
  const out: FrontmatterChange[] = [];
  const used = new Set<number>();
  for (const b of gone) {
    const k = keyOf(b);
    const j = k ? added.findIndex((a, i) => !used.has(i) && keyOf(a) === k) : -1;
    if (j >= 0) {
      used.add(j);
      out.push({ key: k, before: b, after: added[j]! });
    } else out.push({ key: k, before: b, after: null });
  }
  added.forEach((a, i) => {
    if (!used.has(i)) out.push({ key: keyOf(a), before: null, after: a });
  });
  return out;
}

/** Preview from bytes already read (shared with the repair dialog). */
export function previewFromBytes(
  ctx: ServiceContext,
  found: Located,
  bytes: Buffer,
  ins: Inspected,
  action: MemoryAction,
  reason?: string,
): PreviewResult {
  if (VOUCHING.has(action)) {
    const why = flaggedReason(ins.findings, ins.verdicts.validate.exit);
    if (why) return { ok: false, code: 'flagged', message: `${action} ${why}` };
  }
  const d = decide(action, ins.facts, {
    now: ctx.now(),
    machine: ctx.machine,
    reason: reason?.trim() ? reason : action === 'demote' ? '(the reason you type)' : undefined,
    actor: 'user',
    checks: { validateExit: ins.verdicts.validate.exit, secretExit: ins.verdicts.secret.exit },
  });
  if (!d.ok) return { ok: false, code: d.code, message: d.message };
  if (d.noop) return { ok: false, code: 'noop', message: d.message };
  let after = bytes;
  let note: string | null = null;
  const origin = action === 'promote' ? originShown(ctx, found, ins) : null;
  // A promote with the origin shown also records that it was (lib/service/write/transition.ts).
  const set = origin ? { ...d.set, [ORIGIN_REVIEWED]: today(ctx.now()) } : d.set;
  try {
    if (Object.keys(set).length || d.remove.length) after = rewriteFrontmatter(bytes, { set, remove: d.remove });
  } catch (e) {
    if (!(e instanceof RewriteError)) throw e;
    if (action !== 'demote') return { ok: false, code: 'unwritable', message: `${found.filename}: ${e.message}` };
    note = `The frontmatter cannot be rewritten (${e.message}): the file moves unchanged.`;
  }
  const owner = ctx.owner();
  const changes = frontmatterChanges(fmLines(bytes), fmLines(after)).map((c) => ({
    key: c.key,
    before: c.before === null ? null : shown(c.before, owner),
    after: c.after === null ? null : shown(c.after, owner),
  }));
  const here = path.posix.dirname(found.relPath);
  const fromDir = here === '.' ? '' : here;
  const move = d.move ? { from: fromDir, to: found.source.adapter.files.dirOf(d.move.dir, d.move.month) } : null;
  const edit = planIndexEdit(found, d.from, d.to, ins.fields);
  return {
    ok: true,
    preview: {
      action,
      filename: found.filename,
      from: d.from,
      to: d.to,
      sha256: ins.sha256,
      changes,
      move,
      index: edit ? { file: edit.file, kind: edit.kind, line: shown(edit.line, owner) } : null,
      note,
      origin,
    },
  };
}

function originShown(ctx: ServiceContext, found: Located, ins: Inspected): TransitionPreview['origin'] {
  const u = untrustedOriginOfFound(ctx, found, ins);
  return u ? { ...u, summary: untrustedSummary(u) } : null;
}

export function previewTransition(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  action: MemoryAction,
  reason?: string,
): PreviewResult {
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  if (r.conflictWith)
    return {
      ok: false,
      code: 'conflict',
      message: `${r.found.filename} exists in both ${r.found.relPath} and ${r.conflictWith.relPath}: resolve the conflict first`,
    };
  const bytes = fs.readFileSync(r.found.abs);
  const st = fs.statSync(r.found.abs);
  const ins = inspectLocated(ctx, r.found, bytes, st.mtimeMs);
  return previewFromBytes(ctx, r.found, bytes, ins, action, reason);
}

/** The web door's guard before a transition: promote / re-affirm never act on a flagged memory. */
export function vouchingRefused(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  action: MemoryAction,
): string | null {
  if (!VOUCHING.has(action)) return null;
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return null; // the transition reports it
  const bytes = fs.readFileSync(r.found.abs);
  const ins = inspectLocated(ctx, r.found, bytes, fs.statSync(r.found.abs).mtimeMs);
  const why = flaggedReason(ins.findings, ins.verdicts.validate.exit);
  return why ? `${action} ${why}` : null;
}
