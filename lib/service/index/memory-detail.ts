/**
 * Everything the detail view and `memtrust show` need about one memory, read
 * from disk now (the truth) plus its history from the index.
 */
import type { Failure } from '../../core/error-codes';
import fs from 'node:fs';
import { OPEN_READ } from '../../core/read-fd';
import type { ServiceContext } from '../context';
import { resolveMemory, type Located } from './resolve';
import { committedLocated } from '../write/recover';
import { inspectLocated } from './inspect-located';
import { isBinary } from './inspect';
import { lifecycle, type Lifecycle } from '../../trust/lifecycle';
import { fileRecordState, type FileRecordState } from '../../trust/file-record';
import { memoryActions } from './list-actions';
import { describeLifecycle } from '../../trust/describe';
import { changedSinceVerifiedFact } from '../../trust/assistant-write';
import { fileBlock, type ActionAvailability } from '../../trust/allowed';
import type { Finding } from '../../validators/types';
import { history, type HistoryItem } from '../../../db/queries/history';
import { FILE_CAP_BYTES } from '../../validators/types';
import { isoNow } from '../../trust/dates';
import { originOfMemory } from '../origin/memory-origin';
import { originIndexValue, untrustedSummary } from '../../trust/origin';
import type { MemoryOrigin } from '../origin/origin';
import type { ProjectRef } from '../../sources/claude-home';

export interface MemoryDetail {
  id: string;
  /** docs/records.md: the root's layout and the memory's key in it (the filename here). */
  layout: string;
  key: string;
  /** The record fields every layout carries (CONTRACT §9; lib/trust/file-record.ts). */
  native: string;
  flags: FileRecordState['flags'];
  flagReasons: FileRecordState['flagReasons'];
  /** When the memory was created: created-at, else the file's mtime (docs/trust-model.md "Age is never reset"). */
  created: { at: string; fromMtime: boolean };
  source: string;
  root: string;
  /** The project of the memory's root (CONTRACT §9; lib/sources/claude-home.ts); null: user-level. */
  project: ProjectRef | null;
  relPath: string;
  filename: string;
  location: string;
  tier: string;
  fields: Record<string, string>;
  sha256: string;
  size: number;
  mtime: string;
  body: string;
  bodyTruncated: boolean;
  /** A binary file: the page shows no body and says why (inspect.ts `isBinary`). */
  binary: boolean;
  verdicts: { validate: string; secret: string; injection: string };
  findings: Finding[];
  lifecycle: string[];
  facts: Lifecycle;
  actions: ActionAvailability[];
  /** Why editing is withheld (no frontmatter memtrust can rewrite), else null (lib/trust/allowed.ts). */
  editBlocked: string | null;
  conflictWith: string | null;
  history: HistoryItem[];
  /** Where it came from: the session and the tool call that wrote it (docs/origin.md). */
  origin: MemoryOrigin;
}

export type DetailResult = { ok: true; detail: MemoryDetail } | Failure;

export interface DetailOptions {
  /**
   * The dashboard's page: the origin from the transcript cache only, never a transcript read
   * on the request (docs/origin.md "In the dashboard"); a transcript not read yet is
   * `reading` and read in the background. The CLI reads it.
   */
  originCacheOnly?: boolean;
}

export function memoryDetail(
  ctx: ServiceContext,
  ref: string,
  sourceId?: string,
  opts: DetailOptions = {},
): DetailResult {
  // A memory a transition has moved aside is shown as last committed (docs/crash-safety.md, "Readers").
  const moving = committedLocated(ctx, ref, sourceId);
  if (moving) return { ok: true, detail: detailOf(ctx, moving, undefined, opts) };
  const r = resolveMemory(ctx.sources, ref, { sourceId });
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  return { ok: true, detail: detailOf(ctx, r.found, r.conflictWith, opts) };
}

function detailOf(
  ctx: ServiceContext,
  found: Located,
  conflictWith: Located | undefined,
  opts: DetailOptions,
): MemoryDetail {
  const st = fs.statSync(found.abs);
  // Oversized files are reported, never loaded whole (docs/memory-files.md).
  const bytes = st.size > FILE_CAP_BYTES ? readHead(found.abs, FILE_CAP_BYTES + 1) : fs.readFileSync(found.abs);
  const ins = inspectLocated(ctx, found, bytes, st.mtimeMs, !!conflictWith);
  const now = ctx.now();
  const life = lifecycle(ins.facts, now);
  const checks = {
    validateExit: ins.verdicts.validate.exit,
    secretExit: ins.verdicts.secret.exit,
    findings: ins.findings,
  };
  const origin = originOfMemory(
    ctx,
    { source: found.source, abs: found.abs, filename: found.filename, fields: ins.fields },
    { cacheOnly: opts.originCacheOnly },
  );
  // The same flags as the index gives the memory's row (lib/trust/origin.ts `originIndexValue`).
  const indexed =
    origin.status === 'known'
      ? originIndexValue(
          { untrustedOrigin: origin.untrustedOrigin, userRequested: origin.userRequested },
          !!ins.fields['origin-reviewed'],
        )
      : null;
  return {
    id: `${found.source.id}:${found.filename}`,
    layout: found.source.kind,
    key: found.filename,
    project: found.source.project,
    ...fileRecordState({
      location: found.location,
      trustLevel: ins.facts.trustLevel,
      conflict: !!conflictWith,
      lifecycle: life,
      origin: indexed?.origin,
      originReason: indexed?.reason,
    }),
    created: ins.fields['created-at']
      ? { at: ins.fields['created-at'], fromMtime: false }
      : { at: isoNow(ins.facts.mtime), fromMtime: true },
    source: found.source.id,
    root: found.source.root,
    relPath: found.relPath,
    filename: found.filename,
    location: found.location,
    tier: ins.tier,
    fields: { ...ins.fields, ...defined(ins.display) },
    sha256: ins.sha256,
    size: st.size,
    mtime: new Date(st.mtimeMs).toISOString(),
    body: ins.body,
    bodyTruncated: st.size > FILE_CAP_BYTES || ins.body.length >= 64 * 1024,
    binary: isBinary(ins.findings),
    verdicts: {
      validate: ins.verdicts.validate.label,
      secret: ins.verdicts.secret.label,
      injection: ins.verdicts.injection.label,
    },
    findings: ins.findings,
    lifecycle: [changedSinceVerifiedFact(ins.facts.changedSinceVerified), ...describeLifecycle(life, now)].filter(
      (x): x is string => x !== null,
    ),
    facts: life,
    actions: withOriginAsk(memoryActions(found.source.adapter, ins.facts, now, checks), origin),
    editBlocked: fileBlock('edit', checks),
    conflictWith: conflictWith?.abs ?? null,
    history: history(ctx.handle.db, { memory: found.filename, source: found.source.id }),
    origin,
  };
}

/** Promote of an untrusted-origin memory stays offered, saying it asks for the origin to be acknowledged (docs/origin.md). */
function withOriginAsk(actions: ActionAvailability[], origin: MemoryOrigin): ActionAvailability[] {
  if (origin.status !== 'known' || !origin.untrustedOrigin) return actions;
  const ask = `asks you to acknowledge its untrusted origin first (${untrustedSummary(origin.untrustedOrigin)})`;
  return actions.map((a) => (a.action === 'promote' && a.allowed ? { ...a, reason: ask } : a));
}

function readHead(file: string, n: number): Buffer {
  const fd = fs.openSync(file, OPEN_READ);
  try {
    const buf = Buffer.alloc(n);
    const got = fs.readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

function defined(d: { name?: string; description?: string; quarantineReason?: string }): Record<string, string> {
  const out: Record<string, string> = {};
  if (d.name !== undefined) out.name = d.name;
  if (d.description !== undefined) out.description = d.description;
  if (d.quarantineReason !== undefined) out['quarantine-reason'] = d.quarantineReason;
  return out;
}
