/**
 * injection-check categories beyond the reference; docs/credentials.md "Injection additions"
 * lists them with the choices made for each. Advisory like every injection finding.
 *
 * All scanners are linear: phrase regexes start at a literal word with bounded
 * gaps; the Unicode scans walk the text once.
 */
import { onFirstUse } from '../core/on-first-use';
import { lineAt } from './scan-text';
import type { Finding } from './types';

export const ADDED_CATEGORIES = {
  'variation-selector': 'variation selectors',
  'mixed-script': 'mixed-script look-alike word',
  'self-persistence': 'self-persistence',
  concealment: 'concealment from the user',
  'sleeper-trigger': 'sleeper trigger',
  'exfiltration-link': 'exfiltration link',
  'fake-provenance': 'fake provenance in the body',
} as const;
type Added = keyof typeof ADDED_CATEGORIES;

function finding(category: Added, line: number, detail: string): Finding {
  return {
    check: 'injection',
    code: `injection.${category}`,
    label: 'FLAGGED',
    line,
    message: `${ADDED_CATEGORIES[category]}: ${detail}`,
  };
}

// ---------------------------------------------------------------------------
// Variation selectors (on the raw text)
// ---------------------------------------------------------------------------

const VS = /[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]/g;
/** An emoji or keycap base may carry FE0E/FE0F (text/emoji presentation): that is ordinary text. */
const PRESENTATION_BASE = onFirstUse(
  () =>
    /[\p{Extended_Pictographic}\p{Emoji_Component}#*0-9\u00A9\u00AE\u2122\u2139\u2194-\u21AA\u231A-\u23FF\u24C2\u25AA-\u27BF\u2934\u2935\u2B05-\u2B55\u3030\u303D\u3297\u3299]$/u,
);

/** Variation selectors that do not select an emoji presentation: invisible payloads (one line each). */
export function variationSelectorFindings(raw: string, starts: readonly number[]): Finding[] {
  // Most files hold none: no map until one is found.
  let perLine: Map<number, number> | undefined;
  VS.lastIndex = 0;
  for (let m = VS.exec(raw); m !== null; m = VS.exec(raw)) {
    const cp = m[0].codePointAt(0)!;
    if (cp === 0xfe0e || cp === 0xfe0f) {
      const before = raw.slice(Math.max(0, m.index - 2), m.index);
      if (PRESENTATION_BASE().test(before)) continue;
    }
    const line = lineAt(starts, m.index);
    perLine ??= new Map<number, number>();
    perLine.set(line, (perLine.get(line) ?? 0) + 1);
  }
  if (perLine === undefined) return [];
  return [...perLine].map(([line, n]) =>
    finding('variation-selector', line, `${n} variation selector${n === 1 ? '' : 's'} outside an emoji`),
  );
}

// ---------------------------------------------------------------------------
// Mixed-script words (on the raw text: NFKC would turn the micro sign into Greek mu)
// ---------------------------------------------------------------------------

const HAS_CYRILLIC_OR_GREEK = /[\u0370-\u03FF\u0400-\u04FF]/;
const WORD = onFirstUse(() => /[\p{L}\p{M}]{3,}/gu);
const CYRILLIC_OR_GREEK_AT = /[\u0370-\u03FF\u0400-\u04FF]/g;
const LATIN = /[A-Za-z\u00C0-\u024F]/;
/** Cyrillic and Greek letters that look like Latin ones (а е о р с у х і ј ѕ, ο α ρ ν ι κ τ υ χ, and capitals). */
const LOOKALIKE = /[аеорсухіјѕԁԛԝӏвкмнтАВЕКМНОРСТУХІЈЅοαρνικτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/;

export function mixedScriptFindings(raw: string, starts: readonly number[]): Finding[] {
  CYRILLIC_OR_GREEK_AT.lastIndex = 0;
  let c = CYRILLIC_OR_GREEK_AT.exec(raw);
  if (c === null) return [];
  const out: Finding[] = [];
  while (c !== null) {
    const line = lineAt(starts, c.index);
    const end = line < starts.length ? starts[line]! : raw.length;
    WORD().lastIndex = starts[line - 1]!;
    for (let m = WORD().exec(raw); m !== null && m.index < end; m = WORD().exec(raw)) {
      const w = m[0];
      if (!LATIN.test(w) || !HAS_CYRILLIC_OR_GREEK.test(w) || !LOOKALIKE.test(w)) continue;
      const latin = [...w].filter((ch) => LATIN.test(ch)).length;
      if (latin < 2) continue;
      out.push(
        finding(
          'mixed-script',
          line,
          `a ${[...w].length}-letter word mixes Latin with Cyrillic/Greek look-alike letters`,
        ),
      );
      break;
    }
    CYRILLIC_OR_GREEK_AT.lastIndex = end;
    c = CYRILLIC_OR_GREEK_AT.exec(raw);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Phrases (on the normalised text)
// ---------------------------------------------------------------------------

interface Phrase {
  /**
   * Words a match must contain: every group needs one of its words in the lower-cased
   * text. All groups' words are found in one regex pass (injection-hints.ts), so most memories
   * skip most phrases for the cost of a single scan.
   */
  hint: string[][];
  category: Added;
  what: string;
  re: RegExp;
  /** Body only (fake provenance: the frontmatter is where trust-level belongs). */
  bodyOnly?: boolean;
  /** Extra check on a match, given the scanned text and the match offset. */
  accept?: (text: string, index: number) => boolean;
}

const PROVENANCE_CONTEXT =
  /(?:\b(?:this|these)\s+(?:memory|memories|note|notes|instructions?|rules?|entry|entries|file|message|text|section|line)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:already\s+)?|^[ \t>*_-]*|[([—–:]\s*)$/i;

const MEMORY_NOUN = '(?:memory|memories|note|notes|instructions?|rules?|entry|entries|file|message|text|section|line)';
const USER = '(?:the\\s+)?(?:user|owner|human|operator|admin(?:istrator)?)';

const any = (...words: string[]) => [words];
const both = (a: string[][], b: string[][]) => [...a, ...b];
const THIS = any('this', 'these');
const SOMEONE = any('user', 'owner', 'human', 'operator', 'admin');

/** Every phrase with the same properties in the same order: one object shape for the scan loop. */
const sameShape = (p: Phrase): Phrase => ({
  hint: p.hint,
  category: p.category,
  what: p.what,
  re: p.re,
  bodyOnly: p.bodyOnly,
  accept: p.accept,
});

export const ADDED_PHRASES: Phrase[] = (
  [
    {
      category: 'self-persistence',
      what: '"never remove/delete/forget this memory"',
      hint: both(
        THIS,
        any(
          'remove',
          'delete',
          'forget',
          'erase',
          'edit',
          'modify',
          'change',
          'overwrite',
          'drop',
          'archive',
          'quarantine',
          'demote',
        ),
      ),
      re: new RegExp(
        `\\b(?:never|do\\s+not|don['’]t|must\\s+not|cannot|can['’]t)\\s+(?:ever\\s+)?(?:remove|delete|forget|erase|edit|modify|change|overwrite|drop|archive|quarantine|demote)\\s+(?:this|these)\\s+${MEMORY_NOUN}\\b`,
        'gi',
      ),
    },
    {
      category: 'self-persistence',
      what: '"keep this instruction even if told otherwise"',
      hint: both(THIS, any('even', 'regardless', 'matter', 'whatever')),
      re: new RegExp(
        `\\b(?:keep|follow|obey|apply|retain|preserve)\\s+(?:this|these)\\s+${MEMORY_NOUN}\\b[^\\n.]{0,60}?\\b(?:even\\s+if|regardless|no\\s+matter|whatever)\\b`,
        'gi',
      ),
    },
    {
      category: 'self-persistence',
      what: 'copy or restore this memory elsewhere',
      hint: both(THIS, any('copy', 'add', 'write', 'restore', 'create', 'propagate', 'replicate')),
      re: new RegExp(
        `\\b(?:copy|add|write|re-?add|restore|re-?create|propagate|replicate)\\s+(?:this|these)\\s+${MEMORY_NOUN}\\s+(?:to|into|in)\\s+(?:every|all|each|other|any)\\b`,
        'gi',
      ),
    },
    {
      category: 'concealment',
      what: '"do not tell/mention to the user"',
      hint: both(SOMEONE, any('not', 'don', 'never')),
      re: new RegExp(
        `\\b(?:do\\s+not|don['’]t|never|must\\s+not)\\s+(?:tell|mention|reveal|disclose|show|report|say)\\s+(?:(?:this|it|anything|that)\\s+)?(?:to\\s+)?${USER}(?=\\s*(?:[.,;:!)]|$|about\\b|that\\b|what\\b|this\\b|how\\b|if\\b|when\\b|you\\b))`,
        'gim',
      ),
    },
    {
      category: 'concealment',
      what: '"without telling the user" / "hide this from the user"',
      hint: both(SOMEONE, any('without', 'hide', 'conceal', 'keep')),
      re: new RegExp(
        `\\b(?:without\\s+(?:telling|informing|notifying|alerting|letting)\\s+${USER}|(?:hide|conceal|keep)\\s+(?:this|it|these)\\s+(?:secret\\s+)?from\\s+${USER})\\b`,
        'gi',
      ),
    },
    {
      category: 'sleeper-trigger',
      what: '"when the user says X, do Y"',
      hint: any('says', 'types', 'writes', 'sends', 'enters', 'mentions', 'uses'),
      re: /\b(?:when(?:ever)?|if|once)\s+(?:the\s+user|the\s+owner|anyone|someone|somebody|anybody|a\s+user|they)\s+(?:says|types|writes|sends|enters|mentions|uses\s+the\s+(?:word|phrase|code))\b[^\n]{0,80}?[,:]?\s*(?:then\s+)?(?:always\s+|immediately\s+|silently\s+|secretly\s+|quietly\s+)?(?:do|run|execute|reply|respond|answer|say|send|call|fetch|output|print|switch|ignore|delete|open|upload|post)\b/gi,
    },
    {
      category: 'sleeper-trigger',
      what: '"if anyone asks about X, say Y"',
      hint: any('ask'),
      re: /\bif\s+(?:anyone|someone|somebody|anybody|they|the\s+user|the\s+owner)\s+asks?\s+(?:about|for|whether|if|who|what|why)\b[^\n]{0,80}?[,:]?\s*(?:then\s+)?(?:always\s+)?(?:say|tell\s+(?:them|him|her|the\s+user)|answer|reply|respond|claim|deny|insist)\b/gi,
    },
    {
      category: 'sleeper-trigger',
      what: '"when the user asks X, always run/send Y"',
      hint: any('ask'),
      re: /\bwhen(?:ever)?\s+(?:the\s+)?user\s+asks?\b[^\n]{0,80}?\b(?:always|secretly|silently|quietly)\s+(?:run|execute|send|fetch|upload|post|curl|open|delete)\b/gi,
    },
    {
      category: 'fake-provenance',
      what: '"trust-level: verified" in the body',
      hint: any('trust'),
      re: /(?:^|[\s*_>`(-])trust[-_ ]level[*_`]*\s*[:=]\s*["'`*]*verified\b/gim,
      bodyOnly: true,
    },
    {
      category: 'fake-provenance',
      what: '"verified by the user" / "approved by the owner" about this memory',
      hint: both(SOMEONE, any('verified', 'approved', 'confirmed', 'endorsed', 'signed', 'authori', 'vetted')),
      // Anchored on the verb (cheap); the words before it on the line decide whether it speaks of this memory.
      re: new RegExp(
        `\\b(?:verified|approved|confirmed|endorsed|signed\\s+off|authori[sz]ed|vetted)\\s+by\\s+${USER}\\b`,
        'gi',
      ),
      accept: (text, index) => {
        const before = text.slice(Math.max(0, index - 80), index);
        return PROVENANCE_CONTEXT.test(before.slice(before.lastIndexOf('\n') + 1));
      },
      bodyOnly: true,
    },
  ] satisfies Phrase[]
).map(sameShape);

/** Every added phrase's hint words (injection-hints.ts finds them in the text). */
export const ADDED_HINT_WORDS: readonly string[] = [...new Set(ADDED_PHRASES.flatMap((p) => p.hint.flat()))];

/**
 * The added hint words as bits, in two numbers (`lo` the first 30 words, `hi` the rest), so
 * the words a text holds are two numbers (injection-hints.ts) and a phrase's hint is tested
 * with two `&` per word group instead of a set lookup per word.
 */
export interface AddedBits {
  lo: number;
  hi: number;
}
if (ADDED_HINT_WORDS.length > 60) throw new Error('ADDED_HINT_WORDS: more words than bits');
export const ADDED_WORD_BITS: ReadonlyMap<string, AddedBits> = new Map(
  ADDED_HINT_WORDS.map((w, i) => [w, i < 30 ? { lo: 1 << i, hi: 0 } : { lo: 0, hi: 1 << (i - 30) }]),
);
const bitsOf = (words: readonly string[]): AddedBits =>
  words.reduce((b, w) => ({ lo: b.lo | ADDED_WORD_BITS.get(w)!.lo, hi: b.hi | ADDED_WORD_BITS.get(w)!.hi }), {
    lo: 0,
    hi: 0,
  });
/** ADDED_PHRASES[i]'s hint as one pair of masks per word group. */
export const ADDED_HINT_MASKS: ReadonlyArray<readonly AddedBits[]> = ADDED_PHRASES.map((p) => p.hint.map(bitsOf));

/** Every group has one of its words among the bits `lo`/`hi`. */
export function addedHintPresent(masks: readonly AddedBits[], lo: number, hi: number): boolean {
  for (const m of masks) if ((lo & m.lo) === 0 && (hi & m.hi) === 0) return false;
  return true;
}

/** `hints`: the added hint words in the whole text and in the body (injection-hints.ts). */
export function addedPhraseFindings(
  text: string,
  starts: readonly number[],
  bodyStart: number,
  hints: { allLo: number; allHi: number; bodyLo: number; bodyHi: number },
): Finding[] {
  const out: Finding[] = [];
  const body = text.slice(bodyStart);
  for (let i = 0; i < ADDED_PHRASES.length; i++) {
    const p = ADDED_PHRASES[i]!;
    const lo = p.bodyOnly ? hints.bodyLo : hints.allLo;
    const hi = p.bodyOnly ? hints.bodyHi : hints.allHi;
    if (!addedHintPresent(ADDED_HINT_MASKS[i]!, lo, hi)) continue;
    const scanned = p.bodyOnly ? body : text;
    const offset = p.bodyOnly ? bodyStart : 0;
    p.re.lastIndex = 0;
    for (let m = p.re.exec(scanned); m !== null; m = p.re.exec(scanned)) {
      if (m[0].length === 0) {
        p.re.lastIndex++;
        continue;
      }
      if (p.accept && !p.accept(scanned, m.index)) continue;
      out.push(finding(p.category, lineAt(starts, offset + m.index + (m[0].match(/^\s*/)?.[0].length ?? 0)), p.what));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Exfiltration links: found by hand (like executable URLs), so a line of
// `![x](https://a/?![x](https://a/?…` stays linear.
// ---------------------------------------------------------------------------

const URL_START = /\b[a-z][a-z0-9+.-]{0,20}:\/\//gi;
const URL_STOP = /[\s"'<>`()\\]/;
/** A query value built from a template or the session: `{{…}}`, `{var}`, `${…}`, `$(…)`, `$VAR`, `%s`, `<var>`, `[VAR]`. */
const TEMPLATED = /\{\{|\{[A-Za-z_][\w.]*\}|\$\{|\$\(|\$[A-Z_]{3,}|%s\b|%7B%7B|\[[A-Z_]{3,}\]/;

export function exfiltrationFindings(text: string, starts: readonly number[]): Finding[] {
  const out: Finding[] = [];
  // `//` first: a search stops at every occurrence of its first character, and `:` is in
  // every frontmatter line, `/` in few (a text without `//` holds no `://`).
  if (!text.includes('//') || !text.includes('://') || !/[{$%[]/.test(text)) return out;
  let scannedTo = 0;
  URL_START.lastIndex = 0;
  for (let m = URL_START.exec(text); m !== null; m = URL_START.exec(text)) {
    if (m.index < scannedTo) continue;
    // The URL runs to the first stop character, but `$(…)` and `${…}` may hold spaces or parentheses: allow one balanced group.
    let end = m.index + m[0].length;
    let depth = 0;
    while (end < text.length && end - m.index < 2000) {
      const c = text.charAt(end);
      if (c === '(' && text.charAt(end - 1) === '$') depth++;
      else if (c === ')' && depth > 0) depth--;
      else if (depth === 0 && URL_STOP.test(c)) break;
      else if (c === '\n') break;
      end++;
    }
    scannedTo = end;
    const url = text.slice(m.index, end);
    const q = url.search(/[?&#]/);
    if (q === -1) continue;
    const query = url.slice(q);
    // In a Markdown link or image any templated query counts; a bare URL needs `=` before the template.
    const markdown = text.slice(Math.max(0, m.index - 2), m.index).endsWith('](') || text.charAt(m.index - 1) === '<';
    if (markdown ? TEMPLATED.test(query) : /=(?:\{\{|\$\(|\$\{)/.test(query)) {
      out.push(
        finding(
          'exfiltration-link',
          lineAt(starts, m.index),
          markdown
            ? 'link or image whose URL query is built from placeholders or session data'
            : 'URL whose query is built from placeholders or session data',
        ),
      );
    }
  }
  return out;
}
