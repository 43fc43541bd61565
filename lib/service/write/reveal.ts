/**
 * One masked value, read back from the file on an explicit request (the memory
 * page's "reveal" button; docs/credentials.md). The value is never stored,
 * cached, logged or audited: it goes from the file to the caller and nowhere else.
 *
 * The file is found by the same lookup as every browser id (resolveMemory, then
 * `confine` to its root after realpath; symlinks refused), re-read now, and must
 * still be the bytes the page was rendered from (`expectSha`), so mask number n
 * names the same value the owner clicked on.
 */
import fs from 'node:fs';
import type { ServiceContext } from '../context';
import { resolveMemory } from '../index/resolve';
import { bodyForDisplay, readFields, sha256 } from '../index/inspect';
import { confine } from '../../core/paths';
import { unmaskedValue } from '../../validators/mask-inline';
import { FILE_CAP_BYTES } from '../../validators/types';

export type RevealResult =
  | { ok: true; value: string }
  | { ok: false; code: 'not-found' | 'changed' | 'no-such-mask'; message: string };

export function revealMaskedValue(
  ctx: ServiceContext,
  req: { filename: string; sourceId: string; n: number; expectSha: string },
): RevealResult {
  if (/[/\\]/.test(req.filename)) return { ok: false, code: 'not-found', message: 'Unknown memory.' };
  const r = resolveMemory(ctx.sources, req.filename, { sourceId: req.sourceId });
  if (!r.ok) return { ok: false, code: 'not-found', message: 'Unknown memory.' };
  const abs = confine(r.found.source.root, r.found.relPath);
  const st = fs.statSync(abs);
  if (st.size > FILE_CAP_BYTES) return { ok: false, code: 'no-such-mask', message: 'The file is too large to show.' };
  const bytes = fs.readFileSync(abs);
  if (sha256(bytes) !== req.expectSha)
    return { ok: false, code: 'changed', message: 'The file changed since this page was loaded: reload it first.' };
  const value = unmaskedValue(bodyForDisplay(readFields(bytes).body), ctx.owner(), req.n);
  return value === null ? { ok: false, code: 'no-such-mask', message: 'No such masked value.' } : { ok: true, value };
}
