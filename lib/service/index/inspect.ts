/**
 * Turns one file's bytes into everything the index stores about it: frontmatter
 * fields, tier, lifecycle clock bases, validator verdicts and findings.
 * No fs, no db: the scan and the transitions both call it on bytes they read.
 */
import { hideRedacted } from '../../validators/secrets-redact';
import { KNOWN_KEYS } from '../../memory-file/known-keys';
import crypto from 'node:crypto';
import { splitFile } from '../../memory-file/split';
import { parseFrontmatter, withFrontmatterMemo } from '../../memory-file/frontmatter';
import { runAllChecks, type AllVerdicts } from '../../validators/run';
import type { Finding, OwnerIdentity } from '../../validators/types';
import { FILE_CAP_BYTES } from '../../validators/types';
import { decodeLossy } from '../../validators/scan-text';
import { entryOf } from '../../validators/known-values';
import { credentialValues } from '../../validators/credential-values';
import { maskBody, withholdSecret } from '../../validators/withhold';
import { effectiveTier, type MemoryFacts } from '../../trust/facts';
import { parseTimestamp } from '../../trust/dates';
import type { Location, EffectiveTier } from '../../trust/tiers';
import type { ValidationRules } from '../../validators/validation-rules';

/** The file as inspect needs it; `rules`: its layout's validation rules (validation-rules.ts), the reference's when absent. */
export interface InspectFile {
  filename: string;
  location: Location;
  mtimeMs: number;
  rules?: ValidationRules;
}

/** Bodies are stored for search and display up to this many characters. */
export const BODY_INDEX_CHARS = 64 * 1024;

export interface Inspected {
  sha256: string;
  /** Raw frontmatter values, for the trust logic. Never stored or shown as they are. */
  fields: Record<string, string>;
  /** What the index and the pages may hold: free text that carries a secret is withheld. */
  display: { name?: string; description?: string; quarantineReason?: string };
  facts: MemoryFacts;
  tier: EffectiveTier;
  needsBackfill: boolean;
  verdicts: AllVerdicts;
  findings: Finding[];
  body: string;
  /** Salted hashes of the credential values the file holds (docs/credentials.md, "Value propagation"). */
  credentialValues: CredentialValueRow[];
}

/** `[hash, length, prefilter hash, own]`: own 1 for a value a detector found here, 0 for a known value's occurrence. */
export type CredentialValueRow = [string, number, number, 0 | 1];

// Nested `metadata:` keys arrive here too (read by parseFrontmatter; docs/claude-code-folders.md).
const KNOWN = [
  ...KNOWN_KEYS,
  'node_type',
  'originSessionId',
  'originToolUseId',
  'origin-reviewed',
  'changed-since-verified',
];

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** Known frontmatter fields as strings; empty when the block is missing or broken. */
export function readFields(bytes: Buffer): { fields: Record<string, string>; body: Buffer; firstBodyLine: number } {
  const split = splitFile(bytes);
  if (!split.ok) return { fields: {}, body: bytes, firstBodyLine: 1 };
  const body = bytes.subarray(split.bodyStart);
  const firstBodyLine = split.closeLine + 1;
  if (bytes.length > FILE_CAP_BYTES) return { fields: {}, body, firstBodyLine };
  const fm = parseFrontmatter(bytes, split);
  const fields: Record<string, string> = Object.create(null);
  for (const key of KNOWN) {
    const v = fm.data[key];
    if (typeof v === 'string' && v !== '') fields[key] = v;
  }
  return { fields, body, firstBodyLine };
}

/** The part of a body the index and the pages hold (before masking); the reveal action reads the same part. */
export function bodyForDisplay(body: Buffer): string {
  return body
    .subarray(0, BODY_INDEX_CHARS * 4)
    .toString('utf8')
    .slice(0, BODY_INDEX_CHARS);
}

/**
 * Whether validate found the file binary (a NUL byte in its first 8 KiB). The pages then show
 * no body: its bytes read as UTF-8 are noise (docs/validators.md, "FAIL-STRUCT"). The index
 * keeps the body as for any file, so a plan from the index equals one from the disk.
 */
export function isBinary(findings: readonly Pick<Finding, 'code'>[]): boolean {
  return findings.some((f) => f.code === 'binary-file');
}

export function inspect(bytes: Buffer, file: InspectFile, owner: OwnerIdentity, conflict = false): Inspected {
  // readFields and validate() parse the same frontmatter: once is enough (docs/performance.md).
  return withFrontmatterMemo(() => inspectOnce(bytes, file, owner, conflict));
}

function inspectOnce(bytes: Buffer, file: InspectFile, owner: OwnerIdentity, conflict: boolean): Inspected {
  const { fields, body } = readFields(bytes);
  const facts = factsOf(fields, file, conflict);
  const reading = effectiveTier(facts);
  const verdicts = runAllChecks(bytes, file.filename, owner, file.rules);
  const secret = verdicts.secret.exit !== 0;
  const bodyText = bodyForDisplay(body);
  // Only files with a secret finding pay for the per-field checks.
  const guard = (v: string | undefined) => (secret ? withholdSecret(v, owner) : v);
  return {
    sha256: sha256(bytes),
    fields,
    display: {
      name: guard(fields.name),
      description: guard(fields.description),
      quarantineReason: withholdSecret(fields['quarantine-reason'], owner),
    },
    facts,
    tier: reading.tier,
    needsBackfill: reading.needsBackfill,
    verdicts,
    findings: [
      ...verdicts.validate.findings,
      ...verdicts.secret.findings,
      ...verdicts.injection.findings,
      ...verdicts.hints,
    ],
    // Masked first (offsets as the reveal action counts them), then kept redactions hidden.
    body: hideRedacted(secret ? maskBody(bodyText, owner).text : bodyText),
    credentialValues: secret ? credentialValuesOf(bytes, owner) : [],
  };
}

/**
 * The salted hashes of a file's credential values: what a detector found (own) and the
 * occurrences of known ones. Only with a salt (owner.knownValues): a scan always has one.
 */
export function credentialValuesOf(bytes: Buffer, owner: OwnerIdentity): CredentialValueRow[] {
  const kv = owner.knownValues;
  if (!kv || bytes.length > FILE_CAP_BYTES) return [];
  const out: CredentialValueRow[] = [];
  for (const v of credentialValues(decodeLossy(bytes), owner)) {
    if (!v.propagated) continue;
    const e = entryOf(kv.salt, v.value);
    out.push([e.hash, e.len, e.quick, v.own ? 1 : 0]);
  }
  return out;
}

/** The trust facts of one file from its known fields and where it lies. */
export function factsOf(
  fields: Record<string, string>,
  file: { filename: string; location: Location; mtimeMs: number },
  conflict = false,
): MemoryFacts {
  return {
    filename: file.filename,
    location: file.location,
    trustLevel: fields['trust-level'],
    type: fields.type,
    createdAt: fields['created-at'],
    lastVerified: fields['last-verified'],
    quarantinedAt: fields['quarantined-at'],
    sourceMachine: fields['source-machine'],
    changedSinceVerified: fields['changed-since-verified'],
    mtime: new Date(file.mtimeMs),
    conflict,
  };
}

/** Clock bases in ms for SQL filters (see db/schema.ts). */
export function clockBases(facts: MemoryFacts): {
  createdMs: number;
  createdFromMtime: boolean;
  lastVerifiedMs: number | null;
  quarantineSinceMs: number;
} {
  const created = parseTimestamp(facts.createdAt)?.date.getTime();
  const lastVerified = parseTimestamp(facts.lastVerified)?.date.getTime() ?? null;
  const quarantined = parseTimestamp(facts.quarantinedAt)?.date.getTime();
  const mtime = facts.mtime.getTime();
  return {
    createdMs: created ?? mtime,
    createdFromMtime: created === undefined,
    lastVerifiedMs: lastVerified,
    quarantineSinceMs: quarantined ?? lastVerified ?? mtime,
  };
}
