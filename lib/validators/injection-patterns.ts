/**
 * Phrase and command patterns for injection-check (docs/validators.md), matched on
 * the normalised text (see injection-unicode.ts), case-insensitively, with
 * `\s+` wherever a phrase has a space so extra whitespace or a line break
 * between its words does not hide it.
 *
 * Linear time on a 1 MiB line: every pattern starts at a word or literal,
 * every gap has a single quantifier (never `\s*\/?\s*`, whose two halves
 * could split a long run of spaces in quadratically many ways), and free
 * word gaps are bounded (`{0,4}`).
 */

export const CATEGORIES = {
  'instruction-override': 'instruction override',
  'role-marker': 'role/delimiter marker',
  'persona-override': 'persona override',
  'destructive-command': 'destructive command',
  'executable-url': 'auto-fetch of executable URL',
  'encoded-blob': 'encoded blob',
  'absolute-density': 'absolute-command density',
  'invisible-characters': 'invisible or bidirectional control characters',
} as const;
export type Category = keyof typeof CATEGORIES;

export interface PhrasePattern {
  category: Category;
  /** What matched, in words; never the matched text itself (it may hold anything). */
  what: string;
  re: RegExp;
  /**
   * Literal words a match must contain (lower case): every group needs one of its words
   * in the lower-cased text, else the regex is not run. A pre-check only, so it must never
   * reject text the regex would match: plain substrings of what the pattern requires.
   */
  hint?: readonly (readonly string[])[];
  /** Extra check on the match when a regex alone would over-report. */
  accept?: (m: RegExpExecArray) => boolean;
}

/** `git push` with a force flag (or a `+ref`) whose target is main or master. */
function isForcePushToMain(m: RegExpExecArray): boolean {
  const args = (m[1] ?? '').trim().split(/\s+/);
  const force = args.some((a) => a === '--force' || a.startsWith('--force-with-lease') || /^-[a-z]*f[a-z]*$/i.test(a));
  const main = /^\+?(?:[^:\s]*:)?(?:refs\/heads\/)?(?:main|master)$/i;
  return args.some((a) => main.test(a) && (force || a.startsWith('+')));
}

/** `rm` with a recursive flag, aimed at `/`, `/*`, `~` or `$HOME` (not `./build`, not `/tmp/x`). */
function isRecursiveRm(m: RegExpExecArray): boolean {
  const flags = (m[1] ?? '').trim().split(/\s+/);
  return flags.some((f) => f === '--recursive' || /^-[a-z]*r/i.test(f));
}

/** Every pattern with the same properties in the same order: one object shape for the scan loop. */
const sameShape = (p: PhrasePattern): PhrasePattern => ({
  category: p.category,
  what: p.what,
  re: p.re,
  hint: p.hint,
  accept: p.accept,
});

export const PHRASE_PATTERNS: PhrasePattern[] = (
  [
    {
      category: 'instruction-override',
      what: '"ignore/disregard/forget … previous/prior/above/all … instructions"',
      // A negated verb ("don't forget to read all the instructions") is advice, not an override.
      hint: [
        ['instruction', 'directive', 'prompt'],
        ['ignore', 'disregard', 'forget'],
      ],
      re: /(?<!\b(?:don['’]t|do\s+not|never|not)\s+)\b(?:ignore|disregard|forget)\b(?:\s+\S+){0,4}?\s+(?:previous|prior|above|earlier|preceding|all)\b(?:\s+\S+){0,3}?\s+(?:instructions?|directives?|prompts?)\b/gi,
    },
    {
      category: 'role-marker',
      // `user:` / `human:` are left out on purpose: memories quote conversations, and a role label
      // that only claims to be the user grants nothing the real user does not already have.
      what: 'role marker (system:/assistant:/developer:) at line start',
      hint: [['system', 'assistant', 'developer']],
      re: /^[ \t]*(?:system|assistant|developer)[ \t]*:/gim,
    },
    {
      category: 'role-marker',
      what: 'chat-template delimiter (<|im_start|>, <|im_end|>, …)',
      hint: [['<|']],
      re: /<\|\s*(?:im_start|im_end|im_sep|endoftext|system|user|assistant)\s*\|>/gi,
    },
    {
      category: 'role-marker',
      what: 'prompt tag (<system>, </system>, <instructions>, …)',
      hint: [['<'], ['system', 'instructions']],
      re: /<\/?\s*(?:system|instructions|system[-_](?:prompt|reminder|message))\s*>/gi,
    },
    {
      category: 'role-marker',
      what: 'prompt delimiter ([INST], <<SYS>>)',
      hint: [['inst]', 'sys>>']],
      re: /\[\/?INST\]|<<\/?SYS>>/gi,
    },
    { category: 'persona-override', what: '"you are now"', hint: [['now']], re: /\byou\s+are\s+now\b/gi },
    { category: 'persona-override', what: '"act as"', hint: [['act']], re: /\bact\s+as\b/gi },
    {
      category: 'persona-override',
      what: '"pretend to be"',
      hint: [['pretend']],
      re: /\bpretend\s+(?:to\s+be|you\s+are)\b/gi,
    },
    {
      category: 'persona-override',
      what: '"from this point forward"',
      hint: [['point']],
      re: /\bfrom\s+this\s+point\s+(?:forwards?|on|onwards?)\b/gi,
    },
    {
      category: 'destructive-command',
      what: 'rm -rf on / or the home directory',
      hint: [['rm']],
      re: /\brm\s+((?:-[A-Za-z-]+\s+){1,4})(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)(?![\w./~$-])/g,
      accept: isRecursiveRm,
    },
    {
      category: 'destructive-command',
      what: 'DROP TABLE / TRUNCATE TABLE',
      hint: [['drop', 'truncate']],
      re: /\b(?:drop\s+(?:table|database|schema)|truncate\s+table)\b/gi,
    },
    {
      category: 'destructive-command',
      what: 'force-push to main/master',
      hint: [['push']],
      re: /\bgit\s+push\b([^\n;&|]{0,200})/gi,
      accept: isForcePushToMain,
    },
    {
      category: 'destructive-command',
      what: 'fork bomb',
      hint: [['{'], ['&']],
      re: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/g,
    },
    {
      category: 'destructive-command',
      what: 'fork bomb',
      hint: [['{'], ['&']],
      re: /(?<!\w)([A-Za-z_]\w*)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*(?:;\s*)?\1\b/g,
    },
    {
      category: 'destructive-command',
      what: 'download piped into a shell (curl … | sh)',
      // Up to the first pipe only: a class that excludes `|` cannot backtrack, and `curl … | jq | sh` is rare enough.
      hint: [['curl', 'wget']],
      re: /\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\w+\s+){0,3})?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node)\b/gi,
    },
    {
      category: 'destructive-command',
      what: 'download run by a shell (sh -c "$(curl …)")',
      hint: [['curl', 'wget']],
      re: /\b(?:ba|z)?sh\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b/gi,
    },
  ] satisfies PhrasePattern[]
).map(sameShape);

/** Every phrase pattern's hint words (injection-hints.ts finds them in the text). */
export const PHRASE_HINT_WORDS: readonly string[] = [...new Set(PHRASE_PATTERNS.flatMap((p) => (p.hint ?? []).flat()))];

/**
 * Each phrase hint word as one bit, so the words a text holds are one number
 * (injection-hints.ts) and a pattern's hint is tested with one `&` per group instead of a set
 * lookup per word.
 */
if (PHRASE_HINT_WORDS.length > 31) throw new Error('PHRASE_HINT_WORDS: more words than bits');
export const PHRASE_WORD_BIT: ReadonlyMap<string, number> = new Map(PHRASE_HINT_WORDS.map((w, i) => [w, 1 << i]));
const maskOf = (words: readonly string[]) => words.reduce((m, w) => m | (PHRASE_WORD_BIT.get(w) ?? 0), 0);
/** PHRASE_PATTERNS[i]'s hint as one mask per group (none for a pattern without a hint). */
export const PHRASE_HINT_MASKS: ReadonlyArray<readonly number[]> = PHRASE_PATTERNS.map((p) =>
  (p.hint ?? []).map(maskOf),
);

/** hintPresent on masks: every group has one of its words among the bits of `present`. */
export function hintMasksPresent(masks: readonly number[], present: number): boolean {
  for (const m of masks) if ((present & m) === 0) return false;
  return true;
}

/** Every group has one of its words among `present` (from injection-hints.ts): the pattern may match. */
export function hintPresent(hint: readonly (readonly string[])[] | undefined, present: ReadonlySet<string>): boolean {
  if (hint === undefined) return true;
  // Loops rather than every/some: no closure per call on every file.
  for (const group of hint) {
    let any = false;
    for (const w of group) {
      if (present.has(w)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

export const ENCODED_BLOB_WHAT = '120+ consecutive base64 characters';
const BLOB_MIN = 120;
/** A-Z a-z 0-9 + / as a lookup table over char codes. */
const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;

/**
 * Offsets where a run of 120+ base64 characters starts, one per run, as the regex
 * /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{120,}/g finds them. Written by hand because the regex
 * tests every position (and a lookbehind at each); this scan skips ahead by up to 120
 * characters at a time, linear in the worst case.
 */
function isB64At(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && BASE64[c] === 1;
}

export function encodedBlobStarts(text: string): number[] {
  const out: number[] = [];
  const n = text.length;
  // Look at the last position a run starting at `i` must cover: when it is not base64,
  // no run of BLOB_MIN starts anywhere in [i, i + BLOB_MIN) and the scan jumps past it.
  // Invariant: `i` is 0 or follows a non-base64 character.
  let i = 0;
  while (i + BLOB_MIN <= n) {
    const j = i + BLOB_MIN - 1;
    if (!isB64At(text, j)) {
      i = j + 1;
      continue;
    }
    let start = j;
    while (start > i && isB64At(text, start - 1)) start--;
    let end = j + 1;
    while (end < n && isB64At(text, end)) end++;
    if (end - start >= BLOB_MIN) out.push(start);
    i = end + 1;
  }
  return out;
}
