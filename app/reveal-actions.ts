'use server';
/**
 * The memory page's "reveal" button (docs/credentials.md): one masked value,
 * re-read from the file on click. The response is not cached and nothing is
 * logged or revalidated: the value exists only in this one response.
 */
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { freshContext } from '@/lib/server';
import { parseMemoryId } from '@/lib/core/memory-id';
import { revealMaskedValue } from '@/lib/service/write/reveal';

const RevealInput = z.object({
  id: z.string().min(3).max(400),
  n: z.number().int().min(1).max(99_999),
  sha: z.string().regex(/^[0-9a-f]{64}$/),
});

export const revealValueAction = action(RevealInput, (input): ActionResult<string> => {
  const ref = parseMemoryId(input.id);
  if (!ref) return { ok: false, code: 'bad-id', message: 'Unknown memory id.' };
  const r = revealMaskedValue(freshContext(), {
    filename: ref.filename,
    sourceId: ref.source,
    n: input.n,
    expectSha: input.sha,
  });
  return r.ok ? { ok: true, data: r.value } : { ok: false, code: r.code, message: r.message };
});
