/** One entry point per CLI check name, so the CLI and the service pick validators the same way. */
import { validate } from './validate';
import type { ValidationRules } from './validation-rules';
import { secretCheck } from './secrets';
import { injectionCheck } from './injection';
import type { Finding, OwnerIdentity, Verdict } from './types';
import { splitHints } from './hints';
import { runSecretAndInjection } from './secret-and-injection';
import { ownerIdentity } from '../core/identity';

export const CHECK_COMMANDS = ['validate', 'secret-check', 'injection-check'] as const;
export type CheckCommand = (typeof CHECK_COMMANDS)[number];

export function runCheck(cmd: CheckCommand, bytes: Buffer, filename: string, owner?: OwnerIdentity): Verdict {
  switch (cmd) {
    case 'validate':
      return validate(bytes, filename);
    case 'secret-check':
      return secretCheck(bytes, owner ?? ownerIdentity());
    case 'injection-check':
      return injectionCheck(bytes);
  }
}

/** What memtrust keeps of the three checks: `injection` without its hints, which are `hints` (hints.ts). */
export interface AllVerdicts {
  validate: Verdict;
  secret: Verdict;
  injection: Verdict;
  hints: Finding[];
}

/** `rules`: the layout's conventions for `validate` (validation-rules.ts); the drop-in's by default. */
export function runAllChecks(
  bytes: Buffer,
  filename: string,
  owner: OwnerIdentity,
  rules: ValidationRules = 'reference',
): AllVerdicts {
  const checked = validate(bytes, filename, rules);
  const both = runSecretAndInjection(bytes, owner);
  const { injection, hints } = splitHints(both.injection);
  return { validate: checked, secret: both.secret, injection, hints };
}
