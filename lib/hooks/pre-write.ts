/**
 * The PreToolUse guard (docs/hooks.md): what memtrust answers when the
 * assistant is about to write a file. Reads the target and the current bytes; never
 * writes, never opens the database. The CLI turns the verdict into Claude Code's
 * JSON and exit code (lib/cli/commands/hook-cmd.ts).
 */
import { rulesForLayout } from '../validators/validation-rules';
import { splitHints } from '../validators/hints';
import fs from 'node:fs';
import { validate } from '../validators/validate';
import { runSecretAndInjection } from '../validators/secret-and-injection';
import { sha256Hex } from '../core/hash';
import { FILE_CAP_BYTES, type Finding, type OwnerIdentity } from '../validators/types';
import { splitFile } from '../memory-file/split';
import { parseFrontmatter } from '../memory-file/frontmatter';
import type { HookInput, ToolWrite } from './input';
import { type InsideTarget, type PreVerdict, type PriorState, screenPreWrite } from './pre-screen';

export type { InsideTarget, PreVerdict, PriorState } from './pre-screen';
import { produceContent } from './apply-edits';
import { PROTECTED_FIELDS } from '../trust/assistant-write';
import { CREDENTIAL_WAY_OUT } from '../trust/way-out';

/** Most findings named in a reason; the rest are counted. */
const MAX_LISTED = 6;
/** Fields memtrust stamps itself: their absence is not worth telling the assistant. */
const STAMPED = /^missing recommended field: (trust-level|created-at|source-machine|last-verified)$/;

function where(f: Finding): string {
  return f.line ? ` at line ${f.line}` : '';
}

function listFindings(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED);
  return shown.join('; ') + (items.length > shown.length ? `; and ${items.length - shown.length} more` : '');
}

function readCurrent(t: InsideTarget): { bytes: Buffer | null; mtimeMs: number | null } {
  if (!t.exists) return { bytes: null, mtimeMs: null };
  const st = fs.statSync(t.real);
  if (!st.isFile()) throw new Error(`${t.relPath} is not a regular file`);
  // Beyond the cap the current file is never loaded whole (docs/memory-files.md).
  if (st.size > FILE_CAP_BYTES) return { bytes: null, mtimeMs: st.mtimeMs };
  return { bytes: fs.readFileSync(t.real), mtimeMs: st.mtimeMs };
}

/** The memtrust-owned fields a file's frontmatter holds (top level), as strings. */
export function protectedFields(bytes: Buffer | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!bytes) return out;
  const split = splitFile(bytes);
  if (!split.ok) return out;
  const data = parseFrontmatter(bytes, split).data;
  for (const key of PROTECTED_FIELDS) {
    const v = data[key];
    if (typeof v === 'string' && v !== '') out[key] = v;
  }
  return out;
}

export interface PreWriteOptions {
  roots: readonly string[];
  owner: () => OwnerIdentity;
}

/** The whole guard: the path screen (pre-screen.ts), then the content the write would produce. */
export function judgePreWrite(input: HookInput, opts: PreWriteOptions): PreVerdict {
  const s = screenPreWrite(input, opts.roots);
  return s.decision === 'judge' ? judgeContent(s.target, s.write, opts) : s;
}

/** The content check of a write into a memory root that passed the path screen. */
export function judgeContent(t: InsideTarget, write: ToolWrite, opts: PreWriteOptions): PreVerdict {
  const name = t.relPath;
  const current = readCurrent(t);
  if (t.exists && current.bytes === null && write.tool !== 'Write') {
    return {
      decision: 'deny',
      reason: `memtrust: ${name} is over the 1 MiB memory file cap; it is not edited in place`,
    };
  }
  const produced = produceContent(write, current.bytes === null ? null : current.bytes.toString('utf8'));
  if (!produced.ok)
    return { decision: 'pass', why: `${write.tool} would fail (${produced.why}): Claude Code reports it` };
  const bytes = Buffer.from(produced.text, 'utf8');
  if (bytes.length > FILE_CAP_BYTES) {
    return {
      decision: 'deny',
      reason: `memtrust: ${name} would be ${bytes.length} bytes, over the 1 MiB memory file cap; keep memories short`,
    };
  }
  const prior: PriorState = {
    relPath: t.relPath,
    existed: current.bytes !== null || t.exists,
    sha256: current.bytes ? sha256Hex(current.bytes) : null,
    mtimeMs: current.mtimeMs,
    fields: protectedFields(current.bytes),
  };

  const owner = opts.owner();
  const both = runSecretAndInjection(bytes, owner);
  const secret = both.secret;
  // The density of always/never is a hint, not a flag (docs/validators.md "Hints").
  const { injection, hints } = splitHints(both.injection);
  const credentials = secret.findings.filter((f) => f.class === 'credential');
  const personal = secret.findings.filter((f) => f.class !== 'credential');
  const isMemory = t.place === 'memory';
  const v = isMemory ? validate(bytes, t.filename, rulesForLayout(t.layout)) : null;

  const blocking: string[] = [];
  if (v && (v.exit === 1 || v.exit === 2)) {
    for (const f of v.findings)
      if (f.label === 'FAIL-STRUCT' || f.label === 'FAIL-FORMAT') blocking.push(`${f.label}${where(f)}: ${f.message}`);
  }
  for (const f of credentials) blocking.push(`credential${where(f)}: ${f.message} (${f.code})`);
  if (blocking.length) {
    const fix = credentials.length
      ? ` Credentials: ${CREDENTIAL_WAY_OUT}; memories never hold credentials.`
      : ' Fix the frontmatter and write again.';
    return { decision: 'deny', reason: `memtrust refused this write to ${name}: ${listFindings(blocking)}.${fix}` };
  }

  const notes: string[] = [];
  const warnings = (v?.findings ?? []).filter((f) => f.label === 'WARN-SEMANTIC' && !STAMPED.test(f.message));
  if (warnings.length) notes.push(`warnings: ${listFindings(warnings.map((f) => `${f.message}${where(f)}`))}`);
  if (personal.length)
    notes.push(
      `personal data (an audit run quarantines it unless the owner allows it): ${listFindings(personal.map((f) => `${f.message}${where(f)}`))}`,
    );
  if (injection.findings.length)
    notes.push(
      `prompt-injection flags (advisory): ${listFindings(injection.findings.map((f) => `${f.message}${where(f)}`))}`,
    );
  if (hints.length) notes.push(`hint: ${listFindings(hints.map((f) => `${f.message}${where(f)}`))}`);
  if (isMemory) {
    const after = protectedFields(bytes);
    const changed = PROTECTED_FIELDS.filter((k) => (after[k] ?? '') !== (prior.fields[k] ?? ''));
    if (changed.length)
      notes.push(
        `memtrust owns ${changed.join(', ')}: the assistant's values are replaced after the write (a memory the assistant writes is inferred until the user promotes it)`,
      );
  }
  const context = notes.length ? `memtrust on ${name}: ${notes.join('. ')}.` : '';
  return { decision: 'ok', context, target: t, prior };
}
