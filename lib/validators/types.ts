/**
 * Shared shapes of validator output. Every check returns a Verdict; the CLI,
 * the trust service and the dashboard only ever read these.
 */

import type { KnownValues } from './known-values';

/** `hint`: advice memtrust shows but never counts as a flag (hints.ts); the CLI's checks never return it. */
export const CHECKS = ['validate', 'secret', 'injection', 'hint'] as const;
export type Check = (typeof CHECKS)[number];

export type ValidateLabel = 'PASS' | 'FAIL-STRUCT' | 'FAIL-FORMAT' | 'WARN-SEMANTIC';
export type SecretLabel = 'CLEAN' | 'SECRET-DETECTED';
export type InjectionLabel = 'CLEAN' | 'FLAGGED';
export type Label = ValidateLabel | SecretLabel | InjectionLabel | 'HINT';

export interface Finding {
  check: Check;
  /** Stable machine code, e.g. `missing-close-delimiter`, `secret.github-token`, `injection.persona-override`. */
  code: string;
  /** The label this finding alone would give (FAIL-STRUCT, SECRET-DETECTED, FLAGGED, …). */
  label: Label;
  /** 1-based line in the file, where the finding has a place. */
  line?: number;
  /** Human sentence. Contract phrases appear verbatim; secrets only ever masked. */
  message: string;
  /** Secret findings only: a credential (block, withhold) or personal data (private address, e-mail, home path). */
  class?: FindingClass;
}

/** What a secret finding is about (docs/credentials.md): credentials and personal data are handled differently. */
export type FindingClass = 'credential' | 'personal';

const PERSONAL_CODES = new Set(['secret.private-ip', 'secret.email', 'secret.home-path']);

/** The class of a secret finding's code; one place for the rule. */
export function findingClass(code: string): FindingClass {
  return PERSONAL_CODES.has(code) ? 'personal' : 'credential';
}

/** How the pages, reports and the CLI name each class: two distinct labels. */
export const CLASS_LABELS: Record<FindingClass, string> = { credential: 'credential', personal: 'personal data' };

/** `credential`, `personal data`, or `—` for findings of the other checks. */
export function classLabel(cls: string | null | undefined): string {
  return cls === 'credential' || cls === 'personal' ? CLASS_LABELS[cls] : '—';
}

export interface Verdict {
  check: Check;
  /** Exit code per docs/validators.md (validate 0/1/2/3, secret 0/1, injection 0/3). */
  exit: number;
  label: Label;
  findings: Finding[];
}

/** Owner identity used by the secret check to spare the owner's own addresses and home. */
export interface OwnerIdentity {
  emails: string[];
  githubHandle?: string;
  homeUser?: string;
  /** Private networks (CIDR) the owner allows in memories: an address inside one is not a finding. */
  allowNetworks?: string[];
  /** Home-folder names of service or container accounts the owner allows (`deploy`, `nonroot`). */
  allowHomeUsers?: string[];
  /**
   * Salted hashes of the values found as credentials anywhere in the configured roots
   * (known-values.ts): an occurrence of one is a credential finding. Not part of the
   * rules' signature: the scan re-checks the files a change of the set concerns.
   */
  knownValues?: KnownValues;
}

/** Files above this size are reported, never parsed or scanned in full (docs/memory-files.md). */
export const FILE_CAP_BYTES = 1024 * 1024;
/** Frontmatter above this size is a format error and is not handed to the YAML parser. */
export const FRONTMATTER_CAP_BYTES = 256 * 1024;
