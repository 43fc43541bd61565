/**
 * Typed results at the action boundary (STYLE habit 2): expected failures are
 * values with a code and a sentence; bugs are thrown and reach error.tsx.
 */
import type { z } from 'zod';
import type { ErrorCode } from './error-codes';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; code: ErrorCode; message: string };

export function getErrorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Wraps a server action: zod-parse the input, run, and turn known error classes into values. */
export function action<S extends z.ZodTypeAny, T>(
  schema: S,
  fn: (input: z.infer<S>) => ActionResult<T> | Promise<ActionResult<T>>,
) {
  return async (raw: z.input<S>): Promise<ActionResult<T>> => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      return { ok: false, code: 'invalid-input', message: parsed.error.issues[0]?.message ?? 'invalid input' };
    try {
      return await fn(parsed.data);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      // Known operational errors (a root's lock held by the CLI, a busy database) are calm values.
      if (code === 'locked' || code === 'SQLITE_BUSY')
        return {
          ok: false,
          code: 'busy',
          message: 'The memory root is busy (the CLI may be writing). Try again in a moment.',
        };
      if (code === 'path-escape' || code === 'config' || code === 'settings')
        return { ok: false, code, message: getErrorMessage(e) };
      throw e;
    }
  };
}
