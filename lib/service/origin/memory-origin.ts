/**
 * The origin of one memory of a configured root (docs/origin.md): only a Claude Code folder
 * has transcripts beside it; anything else is "origin unknown" with the reason.
 */
import path from 'node:path';
import type { ServiceContext } from '../context';
import type { SourceInfo } from '../../sources';
import { memoryOrigin, type MemoryOrigin, type OriginRequest } from './origin';
import { untrustedSummary, type UntrustedOrigin } from '../../trust/origin';
import fs from 'node:fs';
import { readFields } from '../index/inspect';
import { FILE_CAP_BYTES } from '../../validators/types';
import type { Located } from '../index/resolve';

/** The folder the cross-process cache lives in: beside the index database. */
export function originDataDir(ctx: Pick<ServiceContext, 'config'>): string | null {
  const db = ctx.config.dbPath;
  return !db || db === ':memory:' ? null : path.dirname(path.resolve(db));
}

export interface OriginTarget {
  source: Pick<SourceInfo, 'kind' | 'root'>;
  abs: string;
  filename: string;
  /** Known frontmatter fields (originSessionId top-level or under metadata:). */
  fields: Record<string, string>;
}

export function originRequest(
  ctx: ServiceContext,
  t: OriginTarget,
  opts: { cacheOnly?: boolean } = {},
): OriginRequest | null {
  if (t.source.kind !== 'claude-code') return null;
  return {
    root: t.source.root,
    abs: t.abs,
    filename: t.filename,
    sessionId: t.fields.originSessionId,
    owner: ctx.owner(),
    dataDir: originDataDir(ctx),
    cacheOnly: opts.cacheOnly,
  };
}

export function originOfMemory(ctx: ServiceContext, t: OriginTarget, opts: { cacheOnly?: boolean } = {}): MemoryOrigin {
  const req = originRequest(ctx, t, opts);
  if (!req) return { status: 'unknown', why: 'only Claude Code memory folders have session transcripts' };
  return memoryOrigin(req);
}

/** The untrusted-origin flag of a memory the write path has located and inspected (null: none, or unknown). */
export function untrustedOriginOfFound(
  ctx: ServiceContext,
  found: Pick<Located, 'source' | 'abs' | 'filename'>,
  ins: { fields: Record<string, string> },
): UntrustedOrigin | null {
  const o = originOfMemory(ctx, { source: found.source, abs: found.abs, filename: found.filename, fields: ins.fields });
  return o.status === 'known' ? o.untrustedOrigin : null;
}

export const originLine = (u: UntrustedOrigin | null): string | undefined => (u ? untrustedSummary(u) : undefined);

/**
 * The untrusted-origin line of an indexed memory (back-fill's dry run reads index rows):
 * its frontmatter is read for the session id only in a Claude Code folder, and only then
 * is a transcript looked at. Undefined: no flag, or the origin is unknown.
 */
export function untrustedOriginLine(ctx: ServiceContext, sourceId: string, relPath: string): string | undefined {
  const source = ctx.sources.find((s) => s.id === sourceId);
  if (source?.kind !== 'claude-code') return undefined;
  const abs = path.join(source.root, ...relPath.split('/'));
  let fields: Record<string, string>;
  try {
    const st = fs.statSync(abs);
    if (st.size > FILE_CAP_BYTES) return undefined;
    fields = readFields(fs.readFileSync(abs)).fields;
  } catch {
    return undefined;
  }
  if (!fields.originSessionId) return undefined;
  return originLine(untrustedOriginOfFound(ctx, { source, abs, filename: path.basename(abs) }, { fields }));
}
