/**
 * The untrusted-origin flag on what a session loads (docs/origin.md "Context"): a Claude
 * Code memory whose writing turn read outside content is shown as inferred and flagged,
 * never as verified, until the user promoted it with the origin shown (`origin-reviewed`).
 * Only a folder with transcripts beside it is looked at, and transcripts come from the
 * cache when unchanged; new ones are read within a time allowance, the rest left unknown.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ContextRootInput } from '../../trust/context-types';
import type { OwnerIdentity } from '../../validators/types';
import { FILE_CAP_BYTES } from '../../validators/types';
import { readFields } from '../index/inspect';
import { memoryOrigin } from './origin';
import { untrustedSummary } from '../../trust/origin';
import { ORIGIN_REVIEWED } from '../../trust/assistant-write';
import { type Recorder, recorder } from '../session/text-cache';

/** Milliseconds a session start may spend reading transcripts it has not read before. */
export const CONTEXT_ORIGIN_MS = 1500;

/**
 * The sessions with a transcript beside a memory folder (`<session id>.jsonl`, the id kept);
 * empty when none or unreadable. Ids, not names: each memory's session is looked up without
 * making its file name (docs/performance.md, "The hooks").
 */
function transcriptSessions(projectDir: string): Set<string> {
  const out = new Set<string>();
  try {
    // Claude Code adds a transcript here at every session start: a kept session text depends only
    // on the sessions its memories name (recorded below), not on this listing (text-cache.ts).
    const names = recorder()?.quiet(() => fs.readdirSync(projectDir)) ?? fs.readdirSync(projectDir);
    for (const n of names) if (n.endsWith('.jsonl')) out.add(n.slice(0, -'.jsonl'.length));
  } catch {
    // none
  }
  return out;
}

/** A memory's `originSessionId` and `origin-reviewed`, as its file says (absent: not set). */
export interface OriginFields {
  session?: string;
  reviewed?: string;
}

/** The origin fields as the file says; undefined when it cannot be read or is over the cap. */
function fileFields(root: string, filename: string): OriginFields | undefined {
  try {
    const abs = path.join(root, filename);
    if (fs.statSync(abs).size > FILE_CAP_BYTES) return undefined;
    const f = readFields(fs.readFileSync(abs)).fields;
    return { session: f.originSessionId, reviewed: f[ORIGIN_REVIEWED] };
  } catch {
    return undefined;
  }
}

/**
 * A kept session text depends on whether a memory's transcript is there (text-cache.ts). Once per
 * session and folder, joined by hand: a path.join per memory was 15 ms of a 1,221-memory project.
 */
const asked = new WeakMap<Recorder, Set<string>>();
function transcriptAsked(rec: Recorder, projectDir: string, session: string, there: boolean): void {
  let seen = asked.get(rec);
  if (!seen) {
    seen = new Set();
    asked.set(rec, seen);
  }
  const file = `${projectDir}${path.sep}${session}.jsonl`;
  if (seen.has(file)) return;
  seen.add(file);
  rec.exists(file, there);
}

export function withOriginFlags(
  input: ContextRootInput,
  owner: OwnerIdentity,
  dataDir: string | null,
  clock: () => number = Date.now,
  /** The allowance for transcripts not yet cached; 0: the cache only. */
  readMs = CONTEXT_ORIGIN_MS,
  /** The fields as the caller read them (from the file, or its fresh row); undefined: read the file. */
  known: (m: ContextRootInput['memories'][number]) => OriginFields | undefined = () => undefined,
): ContextRootInput {
  if (input.layout !== 'claude-code' || input.error) return input;
  const projectDir = path.dirname(input.root);
  const transcripts = transcriptSessions(projectDir);
  const rec = recorder();
  if (transcripts.size === 0) {
    // A transcript a memory names, appearing later, would flag it: a kept text depends on its absence.
    if (rec)
      for (const m of input.memories) {
        if (m.problem || m.facts.location !== 'memories') continue;
        const fields = known(m) ?? fileFields(input.root, m.filename);
        if (fields?.session && !fields.reviewed) transcriptAsked(rec, projectDir, fields.session, false);
      }
    return input;
  }
  const until = clock() + readMs;
  for (const m of input.memories) {
    if (m.problem || m.facts.location !== 'memories') continue;
    const fields = known(m) ?? fileFields(input.root, m.filename);
    if (!fields) continue;
    // No transcript of that session in the listing just read: its origin is unknown, so no
    // flag — without a path resolved and a failing lstat per memory (Claude Code removes old
    // transcripts, so most memories of an old project name none that is still there).
    if (rec && fields.session && !fields.reviewed)
      transcriptAsked(rec, projectDir, fields.session, transcripts.has(fields.session));
    if (!fields.session || fields.reviewed || !transcripts.has(fields.session)) {
      m.untrustedOrigin = undefined;
      continue;
    }
    const late = readMs <= 0 || clock() > until;
    const o = memoryOrigin({
      root: input.root,
      abs: path.join(input.root, m.filename),
      filename: m.filename,
      sessionId: fields.session,
      owner,
      dataDir,
      // Past the allowance only cached transcripts are used: a session start is never held up.
      cacheOnly: late,
    });
    // Left unknown for lack of time: the next session start may know it.
    if (late && o.status !== 'known') rec?.dirty('a transcript not read in time');
    m.untrustedOrigin = o.status === 'known' && o.untrustedOrigin ? untrustedSummary(o.untrustedOrigin) : undefined;
  }
  return input;
}
