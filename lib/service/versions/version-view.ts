/**
 * A memory's versions as the dashboard shows them (docs/versions.md, "Versions in the
 * dashboard"): the list `memtrust versions` prints, a line diff between any two kept
 * versions with every credential and personal value masked, and Recover at one version or
 * of a deleted memory — the same batch `memtrust recover` writes.
 */
import path from 'node:path';
import type { Actor } from '../../audit/event';
import type { ServiceContext } from '../context';
import { sha256 } from '../index/inspect';
import { readIfExists } from '../write/fs-atomic';
import { maskValues } from '../../validators/mask-inline';
import { type DiffRow, lineDiff } from '../../memory-file/line-diff';
import { pickVersion, versionsOf } from './versions-of';
import { type RecoverResult, recoverVersions } from './recover';
import { REDACTED } from './redact';
import type { OwnerIdentity } from '../../validators/types';

export interface VersionRow {
  at: string;
  /** sha256 of the file's bytes; null on a deletion. */
  sha: string | null;
  size: number;
  who: string;
  rel: string;
  deleted: boolean;
  /** Credential values were replaced in the kept copy. */
  redacted: boolean;
  /** The bytes are still in the store (a diff and Recover need them). */
  kept: boolean;
  /** The file holds these bytes now. */
  current: boolean;
}

export interface VersionsView {
  id: string;
  source: string;
  root: string;
  filename: string;
  /** The file is gone now. */
  deleted: boolean;
  /** Oldest first. */
  versions: VersionRow[];
}

export type Found<T> = { ok: true; value: T } | { ok: false; message: string };

export function versionsView(ctx: ServiceContext, id: string): Found<VersionsView> {
  const r = versionsOf(ctx, id);
  if (!r.ok) return r;
  const { found } = r;
  const last = found.lines.at(-1)!;
  const now = last.gone ? null : readIfExists(path.join(found.source.root, last.rel));
  const nowSha = now ? sha256(now) : null;
  return {
    ok: true,
    value: {
      id: found.id,
      source: found.source.id,
      root: found.source.root,
      filename: found.filename,
      deleted: now === null,
      versions: found.lines.map((l) => ({
        at: l.at,
        sha: l.sha,
        size: l.size,
        who: found.who(l),
        rel: l.rel,
        deleted: Boolean(l.gone),
        redacted: Boolean(l.redacted),
        kept: Boolean(l.pack),
        current: l === last && l.sha !== null && l.sha === nowSha,
      })),
    },
  };
}

/**
 * A kept copy as a page shows it: it holds no credential value already (redact.ts), and the
 * personal values are masked here. The text between markers is masked piece by piece, so the
 * marker itself is not read as a password after `password:`.
 */
export function maskKept(text: string, owner: OwnerIdentity): string {
  return text
    .split(REDACTED)
    .map((piece) => maskValues(piece, owner).text)
    .join(REDACTED);
}

export interface VersionDiff {
  from: { at: string; sha: string };
  to: { at: string; sha: string };
  rows: DiffRow[];
  added: number;
  removed: number;
}

/** The diff from version `a` to version `b` (sha256 or a prefix of one), masked as every page masks values. */
export function versionDiff(ctx: ServiceContext, id: string, a: string, b: string): Found<VersionDiff> {
  const r = versionsOf(ctx, id);
  if (!r.ok) return r;
  const pick = (sha: string) =>
    r.found.lines.filter((l) => !l.gone && l.pack && l.sha?.startsWith(sha.toLowerCase())).at(-1) ?? null;
  const la = pick(a);
  const lb = pick(b);
  if (!la || !lb) return { ok: false, message: `no kept version ${!la ? a : b} of ${r.found.id}` };
  const ba = r.store.bytesOf(la);
  const bb = r.store.bytesOf(lb);
  if (!ba || !bb) return { ok: false, message: `the kept version of ${r.found.id} is missing or damaged` };
  const owner = ctx.owner();
  const rows = lineDiff(maskKept(ba.toString('utf8'), owner), maskKept(bb.toString('utf8'), owner));
  return {
    ok: true,
    value: {
      from: { at: la.at, sha: la.sha! },
      to: { at: lb.at, sha: lb.sha! },
      rows,
      added: rows.filter((x) => x.op === 'added').length,
      removed: rows.filter((x) => x.op === 'removed').length,
    },
  };
}

/**
 * Puts memory `id` back as version `sha` had it; without `sha`, as the latest version other
 * than what the file holds now (a deleted memory's last version). One undoable batch.
 */
export function recoverMemory(ctx: ServiceContext, id: string, sha: string | undefined, actor: Actor): RecoverResult {
  const r = versionsOf(ctx, id);
  if (!r.ok) return r;
  const { found } = r;
  const last = found.lines.at(-1)!;
  const now = last.gone ? null : readIfExists(path.join(found.source.root, last.rel));
  const line = sha
    ? (found.lines.filter((l) => !l.gone && l.pack && l.sha === sha).at(-1) ?? null)
    : pickVersion(found.lines, now ? sha256(now) : null);
  if (!line)
    return { ok: false, message: `no kept version of ${found.id}${sha ? ` with sha256 ${sha.slice(0, 12)}` : ''}` };
  return recoverVersions(ctx, r.store, [{ source: found.source, filename: found.filename, line }], actor);
}
