/**
 * The editor's save with every required field (docs/review-inbox.md "Editor"):
 * name, description and type, each read from the top level, else from `metadata:`
 * (docs/memory-files.md), and a changed value written back where it was found. A nested
 * value is replaced in place — only the bytes of that scalar change; the rest of the
 * `metadata:` block stays byte-for-byte. An edit touches no trust field: the tier stays
 * (docs/trust-model.md "Transitions", the `edit` row; CONTRACT: an edit does not promote).
 * The preview composes the same bytes and shows their line diff before anything is saved.
 * One applyToMemory operation.
 */
import fs from 'node:fs';
import type { YAMLMap } from 'yaml';
import { isMap, isScalar } from '../../memory-file/yaml-lazy';
import type { Actor } from '../../audit/event';
import type { ServiceContext } from '../context';
import { replaceBody } from './compose';
import { resolveMemory } from '../index/resolve';
import { sha256 } from '../index/inspect';
import { splitFile } from '../../memory-file/split';
import { decodeFrontmatter, parseFrontmatterDoc } from '../../memory-file/frontmatter';
import { rewriteFrontmatter, RewriteError } from '../../memory-file/rewrite';
import { encodeScalar } from '../../memory-file/scalar-encode';
import { blockedSave, saveEdit, type SaveResult } from './create-edit';
import { lineDiff, type DiffRow } from '../../memory-file/line-diff';
import { containsSecret, WITHHELD } from '../../validators/withhold';
import type { OwnerIdentity } from '../../validators/types';
import { effectiveTier } from '../../trust/facts';
import { inspectLocated } from '../index/inspect-located';

export const EDITABLE = ['name', 'description', 'type'] as const;
export type Editable = (typeof EDITABLE)[number];
export type FieldPlace = 'top' | 'metadata' | 'missing';

export interface EditableFields {
  values: Record<Editable, string>;
  places: Record<Editable, FieldPlace>;
  /** The parser's message and line when the block does not parse (nothing can be saved then). */
  error: { message: string; line: number } | null;
}

function metadataMap(map: YAMLMap.Parsed | null): YAMLMap | null {
  const meta = map?.get('metadata', true);
  return isMap(meta) ? meta : null;
}

export function editableFields(bytes: Buffer): EditableFields {
  const values = { name: '', description: '', type: '' };
  const places: Record<Editable, FieldPlace> = { name: 'missing', description: 'missing', type: 'missing' };
  const split = splitFile(bytes);
  if (!split.ok)
    return {
      values,
      places,
      error: {
        message:
          split.error === 'missing-open'
            ? 'missing opening frontmatter delimiter'
            : 'missing closing frontmatter delimiter',
        line: 1,
      },
    };
  const decoded = decodeFrontmatter(bytes, split);
  if (!decoded.ok) return { values, places, error: { message: decoded.error.message, line: decoded.error.line } };
  const doc = parseFrontmatterDoc(decoded.text);
  const err = doc.parsed.errors[0];
  const meta = metadataMap(doc.map);
  for (const k of EDITABLE) {
    const top = doc.parsed.data[k];
    // The reader fills nested known keys into `data` too (and lists them in `nested`).
    if (typeof top === 'string' && !doc.parsed.nested?.includes(k)) {
      values[k] = top;
      places[k] = 'top';
      continue;
    }
    const nested = meta?.get(k, true);
    if (isScalar(nested) && nested.value !== null && nested.value !== undefined) {
      values[k] = String(nested.value);
      places[k] = 'metadata';
    }
  }
  return { values, places, error: err ? { message: err.message, line: err.line } : null };
}

/** Replaces the scalar of `metadata.<key>` in place; every other byte is kept. */
export function setNested(bytes: Buffer, key: string, value: string): Buffer {
  const split = splitFile(bytes);
  if (!split.ok) throw new RewriteError('no-frontmatter', 'the file has no frontmatter block');
  const decoded = decodeFrontmatter(bytes, split);
  if (!decoded.ok) throw new RewriteError('invalid-frontmatter', decoded.error.message);
  const doc = parseFrontmatterDoc(decoded.text);
  const node = metadataMap(doc.map)?.get(key, true);
  if (!isScalar(node) || !node.range)
    throw new RewriteError('invalid-frontmatter', `metadata.${key} is not a single value`);
  const [start, valueEnd] = node.range;
  const text = decoded.text;
  const a = split.fmStart + Buffer.byteLength(text.slice(0, start));
  const b = split.fmStart + Buffer.byteLength(text.slice(0, valueEnd));
  return Buffer.concat([bytes.subarray(0, a), Buffer.from(encodeScalar(value), 'utf8'), bytes.subarray(b)]);
}

export interface FieldsInput {
  name: string;
  description: string;
  type: 'user' | 'feedback' | 'project' | 'reference';
  body: string;
}

export function editableMemory(ctx: ServiceContext, ref: { source: string; filename: string }): EditableFields | null {
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return null;
  return editableFields(fs.readFileSync(r.found.abs));
}

/** The bytes an edit writes, from the file's bytes and the form: changed fields where they were, the new body. */
export function composeFieldsEdit(
  bytes: Buffer,
  input: FieldsInput,
  filename: string,
): { ok: true; bytes: Buffer } | { ok: false; code: 'unwritable'; message: string } {
  const current = editableFields(bytes);
  if (current.error)
    return {
      ok: false,
      code: 'unwritable',
      message: `${filename}: the frontmatter does not parse (${current.error.message}, line ${current.error.line}); fix it in your editor first`,
    };
  let out: Buffer = bytes;
  const top: Record<string, string> = {};
  try {
    for (const k of EDITABLE) {
      const v = input[k];
      if (v === current.values[k]) continue;
      if (current.places[k] === 'metadata') out = setNested(out, k, v);
      else top[k] = v;
    }
    if (Object.keys(top).length) out = rewriteFrontmatter(out, { set: top });
    out = replaceBody(out, Buffer.from(`\n${input.body.replace(/\r\n/g, '\n').replace(/\n?$/, '\n')}`, 'utf8'));
  } catch (e) {
    if (!(e instanceof RewriteError)) throw e;
    return { ok: false, code: 'unwritable', message: `${filename}: ${e.message}` };
  }
  return { ok: true, bytes: out };
}

export interface EditPreview {
  /** The file's lines before → after; a line holding a secret-like value is withheld whole. */
  rows: DiffRow[];
  added: number;
  removed: number;
  /** Why the save would be refused (a hard validator failure or a credential), else null. */
  blocked: string | null;
  /** The tier the memory has, and keeps: an edit never changes it. */
  tier: string;
}

function shownRows(rows: DiffRow[], owner: OwnerIdentity): DiffRow[] {
  return rows.map((r) => (containsSecret(r.text, owner) ? { ...r, text: WITHHELD } : r));
}

/** What a save of the form would write, as a line diff, without writing (the editor's "Preview changes"). */
export function previewFieldsEdit(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: FieldsInput,
  expectSha: string,
): { ok: true; preview: EditPreview } | { ok: false; code: 'not-found' | 'conflict' | 'unwritable'; message: string } {
  const r = resolveMemory(ctx.sources, ref.filename, { sourceId: ref.source });
  if (!r.ok) return { ok: false, code: 'not-found', message: r.message };
  const bytes = fs.readFileSync(r.found.abs);
  if (sha256(bytes) !== expectSha)
    return {
      ok: false,
      code: 'conflict',
      message: `${r.found.filename} changed on disk since it was shown: reload and try again`,
    };
  const c = composeFieldsEdit(bytes, input, r.found.filename);
  if (!c.ok) return c;
  const rows = lineDiff(bytes.toString('utf8').replace(/\r\n/g, '\n'), c.bytes.toString('utf8').replace(/\r\n/g, '\n'));
  const blocked = blockedSave(c.bytes, r.found.filename, ctx);
  const tier = effectiveTier(inspectLocated(ctx, r.found, bytes, fs.statSync(r.found.abs).mtimeMs).facts).tier;
  return {
    ok: true,
    preview: {
      rows: shownRows(rows, ctx.owner()),
      added: rows.filter((x) => x.op === 'added').length,
      removed: rows.filter((x) => x.op === 'removed').length,
      blocked: blocked ? blocked.message : null,
      tier,
    },
  };
}

export function editMemoryFields(
  ctx: ServiceContext,
  ref: { source: string; filename: string },
  input: FieldsInput,
  expectSha: string,
  actor: Actor = 'user:web',
): SaveResult {
  return saveEdit(ctx, { ref, expectSha, actor }, (_ins, found) => {
    const bytes = fs.readFileSync(found.abs);
    if (sha256(bytes) !== expectSha)
      return {
        ok: false,
        code: 'conflict',
        message: `${found.filename} changed on disk since it was shown: reload and try again`,
      };
    const c = composeFieldsEdit(bytes, input, found.filename);
    if (!c.ok) return c;
    return { ok: true, check: c.bytes, set: {}, replace: c.bytes };
  });
}
