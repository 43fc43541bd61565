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
    for (const n of fs.readdirSync(projectDir)) if (n.endsWith('.jsonl')) out.add(n.slice(0, -'.jsonl'.length));
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
  const transcripts = transcriptSessions(path.dirname(input.root));
  if (transcripts.size === 0) return input;
  const until = clock() + readMs;
  for (const m of input.memories) {
    if (m.problem || m.facts.location !== 'memories') continue;
    let fields = known(m);
    if (!fields) {
      try {
        const abs = path.join(input.root, m.filename);
        if (fs.statSync(abs).size > FILE_CAP_BYTES) continue;
        const f = readFields(fs.readFileSync(abs)).fields;
        fields = { session: f.originSessionId, reviewed: f[ORIGIN_REVIEWED] };
      } catch {
        continue;
      }
    }
    // No transcript of that session in the listing just read: its origin is unknown, so no
    // flag — without a path resolved and a failing lstat per memory (Claude Code removes old
    // transcripts, so most memories of an old project name none that is still there).
    if (!fields.session || fields.reviewed || !transcripts.has(fields.session)) {
      m.untrustedOrigin = undefined;
      continue;
    }
    const o = memoryOrigin({
      root: input.root,
      abs: path.join(input.root, m.filename),
      filename: m.filename,
      sessionId: fields.session,
      owner,
      dataDir,
      // Past the allowance only cached transcripts are used: a session start is never held up.
      cacheOnly: readMs <= 0 || clock() > until,
    });
    m.untrustedOrigin = o.status === 'known' && o.untrustedOrigin ? untrustedSummary(o.untrustedOrigin) : undefined;
  }
  return input;
}
