import type { FmError } from './types';

export type RewriteErrorCode =
  | 'no-frontmatter'
  | 'invalid-frontmatter'
  | 'not-a-simple-scalar'
  | 'unsupported-layout'
  | 'invalid-edit'
  | 'verify-failed';

/** Raised when a rewrite cannot be done without risking bytes it must not touch. */
export class RewriteError extends Error {
  readonly code: RewriteErrorCode;
  readonly fmErrors: FmError[];

  constructor(code: RewriteErrorCode, message: string, fmErrors: FmError[] = []) {
    super(message);
    this.name = 'RewriteError';
    this.code = code;
    this.fmErrors = fmErrors;
  }
}
