/**
 * The page of an index file (a Claude Code folder's MEMORY.md, docs/review-inbox.md
 * "Index file page"): every line, the memory it names, the secret and injection
 * findings of that line (each line checked on its own), and where the 200-line /
 * 25,000-byte load limit cuts (lib/trust/index-limits).
 */
import type { Failure } from '../../core/error-codes';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../context';
import { linkedFile } from './claude-index';
import { applyIndexLimits, INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../../trust/index-limits';
import { runCheck } from '../../validators/run';
import type { Finding } from '../../validators/types';
import { maskValues } from '../../validators/mask-inline';
import { inboxRowByKey } from '../../../db/queries/inbox';

export interface IndexLine {
  n: number;
  /** The line with flagged values masked inline. */
  text: string;
  bytesBefore: number;
  /** loaded: wholly inside the limits; partial: cut inside this line; cut: past the limits. */
  load: 'loaded' | 'partial' | 'cut';
  target: {
    filename: string;
    id: string;
    exists: boolean;
    tier: string | null;
    name: string | null;
    location: string | null;
  } | null;
  findings: Finding[];
}

export interface IndexFileView {
  source: string;
  root: string;
  file: string;
  lines: IndexLine[];
  totalLines: number;
  totalBytes: number;
  keptLines: number;
  keptBytes: number;
  truncated: boolean;
  by: ('lines' | 'bytes')[];
  maxLines: number;
  maxBytes: number;
  /** Memories of the folder the index does not name (not loaded). */
  unlisted: { filename: string; name: string | null }[];
}

export type IndexFileResult = { ok: true; view: IndexFileView } | Failure;

const MAX_SHOWN_LINES = 5000;

export function indexFileView(ctx: ServiceContext, sourceId: string, filename: string): IndexFileResult {
  const source = ctx.sources.find((s) => s.id === sourceId);
  if (!source) return { ok: false, code: 'not-found', message: `No configured root has the id ${sourceId}.` };
  const indexFile = source.adapter.files?.indexFile;
  if (!indexFile || indexFile.toLowerCase() !== filename.toLowerCase())
    return { ok: false, code: 'not-found', message: `${filename} is not the index file of this root.` };
  let text: string;
  try {
    const abs = path.join(source.root, indexFile);
    if (fs.lstatSync(abs).isSymbolicLink())
      return { ok: false, code: 'refused', message: `${indexFile} is a symbolic link: it is not read.` };
    text = fs.readFileSync(abs, 'utf8');
  } catch {
    return { ok: false, code: 'not-found', message: `${indexFile} does not exist in ${source.root} yet.` };
  }
  const limits = applyIndexLimits(text);
  const owner = ctx.owner();
  const raw = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const sqlite = ctx.handle.sqlite;
  const lines: IndexLine[] = [];
  let offset = 0;
  for (let i = 0; i < raw.length && i < MAX_SHOWN_LINES; i++) {
    const full = raw[i]!;
    const line = full.replace(/\r?\n$/, '');
    const start = offset;
    const end = offset + Buffer.byteLength(full);
    offset = end;
    const load =
      end <= limits.keptBytes && i < limits.keptLines
        ? 'loaded'
        : start < limits.keptBytes && i <= limits.keptLines
          ? 'partial'
          : 'cut';
    const bytes = Buffer.from(line, 'utf8');
    const findings = [
      ...runCheck('secret-check', bytes, indexFile, owner).findings,
      ...runCheck('injection-check', bytes, indexFile, owner).findings,
    ].map((f) => ({ ...f, line: i + 1 }));
    const named = linkedFile(line);
    let target: IndexLine['target'] = null;
    if (named) {
      const row =
        inboxRowByKey(sqlite, `${source.id}:${named}`) ?? inboxRowByKey(sqlite, `${source.id}:quarantine/${named}`);
      target = {
        filename: named,
        id: `${source.id}:${named}`,
        exists: !!row,
        tier: row?.tier ?? null,
        name: row?.name ?? null,
        location: row?.location ?? null,
      };
    }
    lines.push({
      n: i + 1,
      // Every value the line's findings name is masked in place, prose and known values included.
      text: findings.some((f) => f.check === 'secret') ? maskValues(line, owner).text : line,
      bytesBefore: start,
      load,
      target,
      findings,
    });
  }
  const named = new Set(lines.map((l) => l.target?.filename).filter(Boolean));
  const unlisted = (
    sqlite
      .prepare("SELECT filename, name FROM entries WHERE source = ? AND location = 'memories' ORDER BY filename")
      .all(source.id) as { filename: string; name: string | null }[]
  ).filter((r) => !named.has(r.filename));
  return {
    ok: true,
    view: {
      source: source.id,
      root: source.root,
      file: indexFile,
      lines,
      totalLines: limits.totalLines,
      totalBytes: limits.totalBytes,
      keptLines: limits.keptLines,
      keptBytes: limits.keptBytes,
      truncated: limits.truncated,
      by: limits.by,
      maxLines: INDEX_MAX_LINES,
      maxBytes: INDEX_MAX_BYTES,
      unlisted,
    },
  };
}
