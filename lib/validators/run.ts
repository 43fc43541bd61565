/** One entry point per CLI check name, so the CLI and the service pick validators the same way. */
import { validate } from './validate';
import { secretCheck } from './secrets';
import { injectionCheck } from './injection';
import type { OwnerIdentity, Verdict } from './types';
import { runSecretAndInjection } from './secret-and-injection';
import { ownerIdentity } from '../identity';

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

export interface AllVerdicts {
  validate: Verdict;
  secret: Verdict;
  injection: Verdict;
}

export function runAllChecks(bytes: Buffer, filename: string, owner: OwnerIdentity): AllVerdicts {
  const checked = validate(bytes, filename);
  const { secret, injection } = runSecretAndInjection(bytes, owner);
  return { validate: checked, secret, injection };
}
