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

export const PHRASE_PATTERNS: PhrasePattern[] = [
  {
    category: 'instruction-override',
    what: '"ignore/disregard/forget … previous/prior/above/all … instructions"',
    // A negated verb ("don't forget to read all the instructions") is advice, not an override.
    re: /(?<!\b(?:don['’]t|do\s+not|never|not)\s+)\b(?:ignore|disregard|forget)\b(?:\s+\S+){0,4}?\s+(?:previous|prior|above|earlier|preceding|all)\b(?:\s+\S+){0,3}?\s+(?:instructions?|directives?|prompts?)\b/gi,
  },
  {
    category: 'role-marker',
    // `user:` / `human:` are left out on purpose: memories quote conversations, and a role label
    // that only claims to be the user grants nothing the real user does not already have.
    what: 'role marker (system:/assistant:/developer:) at line start',
    re: /^[ \t]*(?:system|assistant|developer)[ \t]*:/gim,
  },
  {
    category: 'role-marker',
    what: 'chat-template delimiter (<|im_start|>, <|im_end|>, …)',
    re: /<\|\s*(?:im_start|im_end|im_sep|endoftext|system|user|assistant)\s*\|>/gi,
  },
  {
    category: 'role-marker',
    what: 'prompt tag (<system>, </system>, <instructions>, …)',
    re: /<\/?\s*(?:system|instructions|system[-_](?:prompt|reminder|message))\s*>/gi,
  },
  { category: 'role-marker', what: 'prompt delimiter ([INST], <<SYS>>)', re: /\[\/?INST\]|<<\/?SYS>>/gi },
  { category: 'persona-override', what: '"you are now"', re: /\byou\s+are\s+now\b/gi },
  { category: 'persona-override', what: '"act as"', re: /\bact\s+as\b/gi },
  { category: 'persona-override', what: '"pretend to be"', re: /\bpretend\s+(?:to\s+be|you\s+are)\b/gi },
  {
    category: 'persona-override',
    what: '"from this point forward"',
    re: /\bfrom\s+this\s+point\s+(?:forwards?|on|onwards?)\b/gi,
  },
  {
    category: 'destructive-command',
    what: 'rm -rf on / or the home directory',
    re: /\brm\s+((?:-[A-Za-z-]+\s+){1,4})(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)(?![\w./~$-])/g,
    accept: isRecursiveRm,
  },
  {
    category: 'destructive-command',
    what: 'DROP TABLE / TRUNCATE TABLE',
    re: /\b(?:drop\s+(?:table|database|schema)|truncate\s+table)\b/gi,
  },
  {
    category: 'destructive-command',
    what: 'force-push to main/master',
    re: /\bgit\s+push\b([^\n;&|]{0,200})/gi,
    accept: isForcePushToMain,
  },
  {
    category: 'destructive-command',
    what: 'fork bomb',
    re: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/g,
  },
  {
    category: 'destructive-command',
    what: 'fork bomb',
    re: /(?<!\w)([A-Za-z_]\w*)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*(?:;\s*)?\1\b/g,
  },
  {
    category: 'destructive-command',
    what: 'download piped into a shell (curl … | sh)',
    // Up to the first pipe only: a class that excludes `|` cannot backtrack, and `curl … | jq | sh` is rare enough.
    re: /\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\w+\s+){0,3})?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node)\b/gi,
  },
  {
    category: 'destructive-command',
    what: 'download run by a shell (sh -c "$(curl …)")',
    re: /\b(?:ba|z)?sh\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b/gi,
  },
  {
    category: 'encoded-blob',
    what: '120+ consecutive base64 characters',
    re: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{120,}/g,
  },
];
