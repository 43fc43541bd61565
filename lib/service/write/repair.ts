/**
 * Repair and restore (docs/trust-model.md, docs/review-inbox.md "Repair and restore"): a
 * quarantined file that fails its checks is never edited in place. The user picks,
 * for each flagged value, "remove" (the value goes, an empty `<redacted></redacted>`
 * stays) or, for personal data only, "wrap in <redacted>"; a credential is never kept
 * (CONTRACT §3, docs/credentials.md). The user may also rewrite the frontmatter; the edited bytes are validated (live, as a dry run), and when they
 * pass, edit + move to memories/ are one operation through applyToMemory: one audit
 * event carrying the sha256 before and after.
 *
 * The browser never receives a secret: flagged values are named by a key built from
 * the finding's code, its masked message and its ordinal (stable when the
 * frontmatter edit shifts lines), and frontmatter lines that hold one are sent as a
 * marker that the server swaps back for the real line.
 */
import type { Failure } from '../../core/error-codes';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { runBatch } from '../batches/batch-run';
import { BATCH_ID, readManifest } from '../batches/batch-store';
import type { ServiceContext } from '../context';
import { resolveMemory, type Located } from '../index/resolve';
import { inspect } from '../index/inspect';
import { inspectLocated } from '../index/inspect-located';
import { applyToMemory, type TransitionResult } from './transition';
import { decide } from '../../trust/transitions';
import { rewriteFrontmatter, RewriteError } from '../../memory-file/rewrite';
import { splitFile } from '../../memory-file/split';
import { parseFrontmatter } from '../../memory-file/frontmatter';
import { runAllChecks } from '../../validators/run';
import { findingClass, type Finding, type OwnerIdentity, type FindingClass } from '../../validators/types';
import { containsSecret } from '../../validators/withhold';
import { frontmatterChanges, type FrontmatterChange } from './preview';
import { secretSpans, type SecretSpan } from '../index/secret-spans';
import { lineStarts } from '../../validators/scan-text';
import type { SecretCandidate } from '../../validators/secrets-patterns';

import { effectiveMode, REMOVED, type RedactMode } from './repair-modes';

export type { RedactMode } from './repair-modes';

export interface FlaggedValue {
  key: string;
  code: string;
  class: FindingClass;
  line: number;
  message: string;
  /** The line with every flagged value on it masked (never the value). */
  context: string;
}

export interface RepairModel {
  filename: string;
  sha256: string;
  values: FlaggedValue[];
  /** Frontmatter text as it may be shown; lines with a secret are markers. null when the file has no block. */
  frontmatter: string | null;
  /** The parser's message and file line for a block that does not parse. */
  frontmatterError: { message: string; line: number } | null;
  /** Blocking findings that no redaction can fix (structure, format) — shown with their lines. */
  blocking: Finding[];
}

export interface RepairInput {
  redactions: Record<string, RedactMode>;
  /** New frontmatter text (without the `---` lines); markers stand for withheld lines. */
  frontmatter?: string;
}

export interface RepairCheck {
  passes: boolean;
  findings: Finding[];
  changes: FrontmatterChange[];
  bodyLinesChanged: number;
}

const MARKER = /^⟦line (\d+) withheld: it holds a flagged value⟧$/;
const marker = (line: number) => `⟦line ${line} withheld: it holds a flagged value⟧`;

function decode(bytes: Buffer): { bom: boolean; text: string } | null {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const text = body.toString('utf8');
  // A file that is not valid UTF-8 would not round-trip: it is not repaired here.
  return Buffer.from(text, 'utf8').equals(body) ? { bom, text } : null;
}

const encode = (bom: boolean, text: string) =>
  Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);

function candidates(text: string, owner: OwnerIdentity): SecretSpan[] {
  return secretSpans(text, owner);
}

function maskLine(text: string, starts: number[], line: number, spans: SecretCandidate[]): string {
  const from = starts[line - 1] ?? 0;
  const to = (starts[line] ?? text.length + 1) - 1;
  let s = text.slice(from, to).replace(/\r$/, '');
  for (const c of [...spans].sort((a, b) => b.start - a.start)) {
    if (c.start < from || c.start >= to) continue;
    const a = c.start - from;
    const b = Math.min(c.end, to) - from;
    s = `${s.slice(0, a)}«${c.message}»${s.slice(b)}`;
  }
  return s.length > 240 ? `${s.slice(0, 240)}…` : s;
}

function located(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
): { ok: true; found: Located; bytes: Buffer } | Failure {
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return r;
  if (r.found.location !== 'quarantine')
    return {
      ok: false,
      code: 'wrong-tier',
      message: `${r.found.filename} is not in quarantine: repair and restore is for quarantined memories`,
    };
  return { ok: true, found: r.found, bytes: fs.readFileSync(r.found.abs) };
}

export function repairModel(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
): { ok: true; model: RepairModel } | Failure {
  const l = located(ctx, ref);
  if (!l.ok) return l;
  const d = decode(l.bytes);
  if (!d)
    return {
      ok: false,
      code: 'not-utf8',
      message: `${l.found.filename} is not valid UTF-8: it can only be repaired by hand`,
    };
  const owner = ctx.owner();
  const cands = candidates(d.text, owner);
  const starts = lineStarts(d.text);
  const spans = cands.map((x) => x.c);
  const values = cands.map(({ c, key, line }) => ({
    key,
    code: c.code,
    class: findingClass(c.code),
    line,
    message: c.message,
    context: maskLine(d.text, starts, line, spans),
  }));
  const split = splitFile(l.bytes);
  let frontmatter: string | null = null;
  let frontmatterError: RepairModel['frontmatterError'] = null;
  if (split.ok) {
    const flaggedLines = new Set(values.map((v) => v.line));
    const fmText = l.bytes.subarray(split.fmStart, split.fmEnd).toString('utf8');
    const lines = fmText.replace(/\r?\n$/, '').split(/\r?\n/);
    // File line of the first frontmatter line: after the BOM-less opening `---` (line 1).
    frontmatter = lines
      .map((line, i) => (flaggedLines.has(i + 2) || containsSecret(line, owner) ? marker(i + 2) : line))
      .join('\n');
    const errs = parseFrontmatter(l.bytes, split).errors;
    if (errs[0]) frontmatterError = { message: errs[0].message, line: errs[0].line };
  } else {
    // No block at all (or no closing line): offer one to fill in; it is put before the text.
    frontmatter = 'name: \ndescription: \ntype: ';
    frontmatterError = {
      message:
        split.error === 'missing-open'
          ? 'missing opening frontmatter delimiter'
          : 'missing closing frontmatter delimiter',
      line: 1,
    };
  }
  const checks = runAllChecks(l.bytes, l.found.filename, owner);
  const blocking = checks.validate.findings.filter((f) => f.label === 'FAIL-STRUCT' || f.label === 'FAIL-FORMAT');
  return {
    ok: true,
    model: {
      filename: l.found.filename,
      sha256: inspect(l.bytes, { filename: l.found.filename, location: 'quarantine', mtimeMs: 0 }, owner).sha256,
      values,
      frontmatter,
      frontmatterError,
      blocking,
    },
  };
}

/** The edited bytes; nothing is written. */
function edited(
  original: Buffer,
  input: RepairInput,
  owner: OwnerIdentity,
): { ok: true; bytes: Buffer } | { ok: false; message: string } {
  const d = decode(original);
  if (!d) return { ok: false, message: 'the file is not valid UTF-8' };
  let text = d.text;
  if (input.frontmatter !== undefined) {
    const origLines = text.split('\n');
    const eol = /\r\n/.test(text.slice(0, 200)) ? '\r\n' : '\n';
    const fmLines = input.frontmatter
      .replace(/\r\n/g, '\n')
      .replace(/\n+$/, '')
      .split('\n')
      .map((line) => {
        const m = MARKER.exec(line);
        return m ? (origLines[Number(m[1]) - 1] ?? '').replace(/\r$/, '') : line;
      });
    const block = `---${eol}${fmLines.join(eol)}${eol}---${eol}`;
    const split = splitFile(original);
    if (split.ok) {
      text = block + original.subarray(split.bodyStart).toString('utf8');
    } else {
      text = block + text;
    }
  }
  const cands = candidates(text, owner);
  for (const { c, key } of [...cands].sort((a, b) => b.c.start - a.c.start)) {
    // A credential is never wrapped to be kept: asked to, the value is removed (repair-modes.ts).
    const mode = effectiveMode(findingClass(c.code), input.redactions[key]);
    if (mode === 'redact')
      text = `${text.slice(0, c.start)}<redacted>${text.slice(c.start, c.end)}</redacted>${text.slice(c.end)}`;
    else if (mode === 'remove') text = `${text.slice(0, c.start)}${REMOVED}${text.slice(c.end)}`;
  }
  return { ok: true, bytes: encode(d.bom, text) };
}

function check(ctx: ServiceContext, filename: string, before: Buffer, after: Buffer): RepairCheck {
  const owner = ctx.owner();
  const v = runAllChecks(after, filename, owner);
  const passes = (v.validate.exit === 0 || v.validate.exit === 3) && v.secret.exit === 0;
  const fm = (b: Buffer) => {
    const s = splitFile(b);
    return s.ok
      ? b
          .subarray(s.fmStart, s.fmEnd)
          .toString('utf8')
          .replace(/\r?\n$/, '')
          .split(/\r?\n/)
      : [];
  };
  const hide = (x: string | null) =>
    x !== null && containsSecret(x, owner) ? '(withheld: contains a secret-like value)' : x;
  const changes = frontmatterChanges(fm(before), fm(after)).map((c) => ({
    key: c.key,
    before: hide(c.before),
    after: hide(c.after),
  }));
  const a = before.toString('utf8').split('\n');
  const b = after.toString('utf8').split('\n');
  let bodyLinesChanged = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) bodyLinesChanged++;
  const findings = [...v.validate.findings, ...v.secret.findings, ...v.injection.findings];
  return { passes, findings, changes, bodyLinesChanged };
}

/** Dry run: validates the edited bytes live; nothing is written. */
export function checkRepair(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: RepairInput,
): { ok: true; check: RepairCheck } | Failure {
  const l = located(ctx, ref);
  if (!l.ok) return l;
  const e = edited(l.bytes, input, ctx.owner());
  if (!e.ok) return { ok: false, code: 'not-utf8', message: `${l.found.filename}: ${e.message}` };
  return { ok: true, check: check(ctx, l.found.filename, l.bytes, e.bytes) };
}

/**
 * Edit + restore as one operation (one audit event, both sha256), run as a batch of
 * one (docs/review-inbox.md "Repair and restore"): the file and the index are saved
 * first, so Undo and `memtrust undo OP` put the quarantined bytes back. The batch id
 * is the operation id, as for a single transition.
 */
export function repairAndRestore(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: RepairInput,
  expectSha: string,
  opId?: string,
): TransitionResult {
  const l = located(ctx, ref);
  if (!l.ok) return { ok: false, code: l.code, message: l.message };
  const op = opId && BATCH_ID.test(opId) ? opId : crypto.randomUUID();
  const outcome = runBatch(ctx, { kind: 'repair', actor: 'user:web', id: op }, [
    {
      source: l.found.source,
      memory: l.found.filename,
      relPath: l.found.relPath,
      expectSha,
      run: () => repairStep(ctx, ref, input, expectSha, op),
    },
  ]);
  const r = outcome.results[0]!.result;
  // The copy from before held the credential just removed: it is not kept (copy-purge.ts), so no undo.
  if (r.ok && !r.noop && readManifest(l.found.source.root, op)?.purged?.length)
    return {
      ...r,
      message: `${r.message}; the copy from before held the removed credential and was not kept, so this repair cannot be undone`,
    };
  return r;
}

function repairStep(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: RepairInput,
  expectSha: string,
  opId: string,
): TransitionResult {
  const l = located(ctx, ref);
  if (!l.ok) return { ok: false, code: l.code, message: l.message };
  const e = edited(l.bytes, input, ctx.owner());
  if (!e.ok) return { ok: false, code: 'not-utf8', message: `${l.found.filename}: ${e.message}` };
  const fixed = e.bytes;
  const redacted = Object.values(input.redactions).filter((m) => m !== 'keep').length;
  return applyToMemory(
    ctx,
    { ref: ref.filename, sourceId: ref.source, actor: 'user:web', expectSha, opId, batch: opId },
    (_ins, found, now) => {
      const st = fs.statSync(found.abs);
      const ins = inspectLocated(ctx, found, fixed, st.mtimeMs);
      const checks = { validateExit: ins.verdicts.validate.exit, secretExit: ins.verdicts.secret.exit };
      const dec = decide('restore', ins.facts, { now, machine: ctx.machine, actor: 'user', checks });
      if (!dec.ok) return dec;
      if (dec.noop) return { ok: true, noop: true, from: dec.from, to: dec.to, message: dec.message };
      let replace: Buffer;
      try {
        replace = rewriteFrontmatter(fixed, { set: dec.set, remove: dec.remove });
      } catch (err) {
        if (!(err instanceof RewriteError)) throw err;
        return { ok: false, code: 'unwritable', message: `${found.filename}: ${err.message}` };
      }
      const what = [
        redacted ? `${redacted} flagged value${redacted === 1 ? '' : 's'} redacted` : '',
        input.frontmatter !== undefined ? 'frontmatter edited' : '',
      ]
        .filter(Boolean)
        .join(', ');
      return {
        ok: true,
        noop: false,
        action: 'restore',
        from: dec.from,
        to: dec.to,
        set: dec.set,
        remove: dec.remove,
        move: dec.move,
        reason: `repaired and restored${what ? `: ${what}` : ''}`,
        replace,
      };
    },
  );
}
