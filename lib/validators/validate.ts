/**
 * `validate` — structure and format of one memory file (docs/validators.md).
 * Pure: bytes in, Verdict out. Reading the file is the caller's job, so the
 * CLI, the trust service and tests all judge the exact same bytes.
 */
import { FATAL_FM_ERRORS, parseFrontmatter, splitFile } from '../memory-file';
import { FILE_CAP_BYTES, type Finding, type Verdict } from './types';
import { checkBody } from './validate-body';
import { checkFields } from './validate-fields';
import { format, struct, verdictOf, warn } from './validate-findings';
import { type ValidationRules, VALIDATION_RULES } from './validation-rules';

export { type ValidationRules, VALIDATION_RULES } from './validation-rules';

export { formatVerdictLine } from './format';

const FILENAME = /^(user|feedback|project|reference)_[a-z0-9_]+\.md$/;
/** Like git and grep: a NUL early on means binary, and binary is never a memory. */
const BINARY_SNIFF_BYTES = 8 * 1024;

function baseName(filename: string): string {
  return filename.split(/[\\/]/).pop() ?? filename;
}

function collect(bytes: Buffer, filename: string, rules: ValidationRules): Finding[] {
  if (bytes.length > FILE_CAP_BYTES) {
    return [struct('file-too-large', `file too large (${bytes.length} bytes, limit 1 MiB)`)];
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return [struct('binary-file', 'binary file (NUL byte in the first 8 KiB)')];
  }
  const findings: Finding[] = [];
  const seed = VALIDATION_RULES[rules].seedRecommendations;
  if (seed && !FILENAME.test(baseName(filename))) {
    findings.push(
      warn('filename-convention', 'filename does not follow the convention <type>_<topic>.md (lowercase, digits, _)'),
    );
  }
  const split = splitFile(bytes);
  if (!split.ok) {
    const which = split.error === 'missing-open' ? 'opening' : 'closing';
    findings.push(struct(`missing-${split.error.slice(8)}-delimiter`, `missing ${which} frontmatter delimiter`, 1));
    return findings;
  }
  const fm = parseFrontmatter(bytes, split);
  for (const e of fm.errors) findings.push(format(e.code, e.message, e.line));
  // After a fatal parse error the fields we see are not the fields the file has: judging them would mislead.
  const fatal = fm.errors.some((e) => FATAL_FM_ERRORS.has(e.code));
  if (!fatal) findings.push(...checkFields(fm, seed));
  const type = fatal ? undefined : fm.data.type;
  findings.push(
    ...checkBody(bytes.subarray(split.bodyStart), split.closeLine + 1, typeof type === 'string' ? type : undefined),
  );
  return findings;
}

/**
 * `rules`: whose conventions judge the file (validation-rules.ts). The drop-in CLI and
 * trust-model roots use the reference's; a Claude Code folder is judged by Claude Code's own.
 */
export function validate(bytes: Buffer, filename: string, rules: ValidationRules = 'reference'): Verdict {
  try {
    return verdictOf(collect(bytes, filename, rules));
  } catch (error) {
    // Never throw at callers that loop over many files; an unexplained failure is reported, not hidden.
    const detail = error instanceof Error ? error.name : 'unknown error';
    return verdictOf([struct('file-unreadable', `file unreadable (validator error: ${detail})`)]);
  }
}

/** Verdict for a file that could not be read at all (docs/validators.md: FAIL-STRUCT). */
export function validateUnreadable(reason: 'not-found' | 'unreadable'): Verdict {
  const message = reason === 'not-found' ? 'file not found' : 'file unreadable';
  return verdictOf([struct(`file-${reason}`, message)]);
}
