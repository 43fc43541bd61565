/**
 * injection-check (docs/validators.md): exit 0 CLEAN, exit 3 FLAGGED. Advisory: a
 * flag is shown to the owner and never blocks or demotes anything.
 *
 * Order matters: invisible characters are detected on the decoded text first,
 * then everything else is matched on the normalised copy. Normalising keeps
 * the line structure, so line numbers from either text agree.
 */
import { isAscii } from 'node:buffer';
import { splitFile } from '../memory-file/split';
import {
  CATEGORIES,
  ENCODED_BLOB_WHAT,
  encodedBlobStarts,
  hintMasksPresent,
  PHRASE_HINT_MASKS,
  PHRASE_PATTERNS,
  PHRASE_WORD_BIT,
} from './injection-patterns';
import { hintWordsOf } from './injection-hints';
import { densityFindings, executableUrlFindings, mayHoldAbsolutes } from './injection-scanners';
import { HIDDEN_ANY, invisibleFindings, normaliseForMatching } from './injection-unicode';
import {
  addedPhraseFindings,
  exfiltrationFindings,
  mixedScriptFindings,
  variationSelectorFindings,
} from './injection-additions';
import { lineAt, lineStarts, type ScanText, scanTextOf, tooLargeMessage } from './scan-text';
import { FILE_CAP_BYTES, type Finding, type Verdict } from './types';

/** `now`, a phrase hint word, as its bit: the density gate asks whether the text holds it. */
const NOW_BIT = PHRASE_WORD_BIT.get('now')!;

function verdict(findings: Finding[]): Verdict {
  const flagged = findings.length > 0;
  return { check: 'injection', exit: flagged ? 3 : 0, label: flagged ? 'FLAGGED' : 'CLEAN', findings };
}

/** `present`: the phrase hint words the text holds, as bits (injection-hints.ts). */
function phraseFindings(text: string, present: number, starts: readonly number[]): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < PHRASE_PATTERNS.length; i++) {
    const p = PHRASE_PATTERNS[i]!;
    if (!hintMasksPresent(PHRASE_HINT_MASKS[i]!, present)) continue;
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      // No pattern can match empty, but if one ever did, a stuck lastIndex would loop forever.
      if (m[0].length === 0) {
        p.re.lastIndex++;
        continue;
      }
      if (p.accept && !p.accept(m)) continue;
      out.push({
        check: 'injection',
        code: `injection.${p.category}`,
        label: 'FLAGGED',
        line: lineAt(starts, m.index),
        message: `${CATEGORIES[p.category]}: ${p.what}`,
      });
    }
  }
  // Last of the phrase categories, so findings keep their order within a line.
  for (const at of encodedBlobStarts(text)) {
    out.push({
      check: 'injection',
      code: 'injection.encoded-blob',
      label: 'FLAGGED',
      line: lineAt(starts, at),
      message: `${CATEGORIES['encoded-blob']}: ${ENCODED_BLOB_WHAT}`,
    });
  }
  return out;
}

/**
 * Offset in `text` where the body starts: the line after the closing
 * frontmatter delimiter. Without a complete frontmatter block the whole file
 * counts as body, so a malformed file cannot dodge the density count.
 */
function bodyOffset(bytes: Buffer, starts: readonly number[], textLength: number): number {
  const split = splitFile(bytes);
  if (!split.ok) return 0;
  return starts[split.closeLine] ?? textLength;
}

/** `scanned`: the bytes already decoded (scanTextOf), when the caller runs both scanners on them. */
export function injectionCheck(bytes: Buffer, scanned?: ScanText): Verdict {
  if (bytes.length > FILE_CAP_BYTES) {
    return verdict([
      { check: 'injection', code: 'injection.too-large', label: 'FLAGGED', message: tooLargeMessage(bytes.length) },
    ]);
  }
  const { text: raw, starts: rawStarts } = scanned ?? scanTextOf(bytes);
  // An all-ASCII file (most memories) holds no invisible character, variation selector or
  // look-alike letter, and NFKC leaves it as it is: those passes are skipped, not run to find
  // nothing (docs/performance-validators.md, "injection-check: fast paths"; a unit test holds each to it).
  // On the bytes (native, vectorised): all ASCII bytes decode to the same ASCII text. A file
  // that starts with a BOM is not ASCII here and takes every pass, as any other file may.
  const ascii = isAscii(bytes);
  // The same for a file without any character the invisible and variation-selector passes
  // look for: one scan for all of them (HIDDEN_ANY) instead of one per pass.
  const hidden = !ascii && HIDDEN_ANY.test(raw);
  const findings = hidden ? invisibleFindings(raw, rawStarts) : [];
  if (hidden) append(findings, variationSelectorFindings(raw, rawStarts));
  if (!ascii) append(findings, mixedScriptFindings(raw, rawStarts));
  const text = ascii ? raw : normaliseForMatching(raw, hidden);
  // Normalising changes nothing in most files: then the line offsets are the same too.
  const starts = text === raw ? rawStarts : lineStarts(text);
  const bodyStart = bodyOffset(bytes, starts, text.length);
  const lower = text.toLowerCase();
  // Lower-casing keeps offsets for nearly all text; where it does not, the body is matched whole.
  const hints = hintWordsOf(lower, lower.length === text.length ? bodyStart : null, ascii ? bytes : undefined);
  append(findings, phraseFindings(text, hints.phraseBits, starts));
  append(findings, executableUrlFindings(text, starts));
  if (mayHoldAbsolutes(lower, (hints.phraseBits & NOW_BIT) !== 0))
    append(findings, densityFindings(text, starts, bodyStart));
  append(findings, addedPhraseFindings(text, starts, bodyStart, hints));
  append(findings, exfiltrationFindings(text, starts));
  // Stable sort: within a line, findings keep category order. Most files have none or one.
  if (findings.length > 1) findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return verdict(findings);
}

/**
 * `to.push(...from)` without the spread: most lists are empty, and the spread call is a
 * builtin of its own on every file (docs/performance-validators.md, "Both scanners: fast paths").
 */
function append(to: Finding[], from: readonly Finding[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]!);
}
