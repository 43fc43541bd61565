/**
 * Every code an expected failure carries, shared by the CLI, the server actions and
 * the service (docs/errors.md): the trust domain's refusals, a rewrite the file
 * format does not allow, and the service's own outcomes. One union, one exit-code rule.
 */
import { REFUSAL_CODES, type RefusalCode } from '../trust/refusals';
import type { RewriteErrorCode } from '../memory-file/rewrite-error';

export const SERVICE_CODES = [
  // what was asked for cannot be named (usage-like: exit 64 on the CLI)
  'bad-id',
  'bad-name',
  'bad-op',
  'bad-budget',
  'bad-email',
  'bad-network',
  'bad-root',
  'bad-user',
  'invalid-input',
  'ambiguous',
  'no-such-mask',
  'path-escape',
  'config',
  'settings',
  // the service said no, or the world changed under it (exit 2)
  'busy',
  'locked',
  'changed',
  'stale-plan',
  'needs-confirmation',
  'damaged',
  // an undo whose copies were deleted on purpose (docs/batches.md)
  'purged',
  'expired',
  'flagged',
  'secret',
  'reason-has-secret',
  'not-a-memory',
  'read-only',
  'refused',
  'skipped',
  'partial',
  'unreadable',
  'unwritable',
  'unsupported-layout',
  'not-utf8',
  // nothing to do (a preview of an action that would change nothing)
  'noop',
] as const;
export type ServiceCode = (typeof SERVICE_CODES)[number];

export type ErrorCode = RefusalCode | RewriteErrorCode | ServiceCode;

export const ERROR_CODES: readonly ErrorCode[] = [...REFUSAL_CODES, ...SERVICE_CODES];

/** Codes that mean the request itself was malformed: the CLI's usage exit. */
const USAGE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'bad-id',
  'bad-name',
  'bad-op',
  'invalid-input',
  'bad-budget',
  'bad-email',
  'bad-network',
  'bad-root',
  'bad-user',
]);

export const EXIT = { ok: 0, error: 1, refused: 2, usage: 64 } as const;

/** The CLI exit status for a failure with this code (docs/errors.md). */
export function exitCodeFor(code: ErrorCode): 2 | 64 {
  return USAGE.has(code) ? EXIT.usage : EXIT.refused;
}

/** An expected failure as a value: a code from the union and a sentence naming the file and the problem. */
export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
}
