/**
 * Shape-based secret detectors (docs/validators.md): tokens, keys, JWTs, URL
 * credentials and private network addresses.
 *
 * Every pattern must stay linear on a 1 MiB line. The rule that keeps it so:
 * a pattern either starts with a literal prefix whose following run cannot
 * contain that prefix, or it starts with a look-behind that allows a start
 * only at the beginning of a run (`(?<![A-Za-z0-9])`), so each character is
 * scanned by a bounded number of attempts. No nested unbounded quantifiers.
 */
import { maskIpv4, maskIpv6, maskToken, maskUrlCredentials } from './mask';
import { execNear } from './scan-text';
import { groupedAlternation } from './alternation';

export interface SecretCandidate {
  start: number;
  end: number;
  code: string;
  message: string;
  /** Lower wins an overlap: a token inside a URL is reported once, as the token. */
  tier: 1 | 2 | 3;
}

interface Detector {
  /** A literal every match contains: when the text lacks it the regex is not run (most files hold no token at all). */
  hint?: string | RegExp;
  code: string;
  tier: 1 | 2 | 3;
  re: RegExp;
  /** A literal in every match, at most `maxBefore` after its start: the search starts near it (execNear). */
  anchor?: { text: string; maxBefore: number; after?: RegExp };
  /** Masked message, or null when the match turns out not to be a secret. */
  describe: (m: RegExpExecArray) => string | null;
}

/** What follows a URL's `://` when it holds credentials (secret.url-credentials' regex from there). */
export const URL_CREDENTIALS_AFTER = /[^\s/?#@:]*:[^\s/?#@]+@[^\s/?#@:]/y;

const token = (kind: string, prefixOf: (s: string) => string) => (m: RegExpExecArray) =>
  `${kind} ${maskToken(m[0], prefixOf(m[0]))}`;
const fixed = (prefix: string) => () => prefix;

/** Passwords that only name where the secret lives (`$TOKEN`, `${TOKEN}`, `<password>`, `***`) leak nothing. */
/**
 * A URL's password that is a variable, a slot, stars, or a word standing for a password
 * (`user:pass@`, `postgres:password@`, `:changeme@`: a dummy URL; docs/credentials.md §2).
 */
const PLACEHOLDER_PASSWORD =
  /^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}|<[^<>]*>|\[[A-Z][A-Z0-9_ -]*\]|\*+|(?:pass|password|passwd|pwd|secret|changeme|change-me|example|x{3,})$)$/i;

/** A JSON field whose name says token, secret, password or key, with a value of 8 or more characters. */
const ENCODED_SECRET_FIELD = /"[A-Za-z_]*(?:token|secret|passw(?:or)?d|api_?key|apikey)"\s*:\s*"[^"]{8,}"/i;
/** Does the base64url text `v` decode to a JSON object holding a credential field? */
export function encodesCredential(v: string): boolean {
  const json = Buffer.from(v.replace(/=+$/, ''), 'base64url').toString('utf8');
  return json.startsWith('{') && ENCODED_SECRET_FIELD.test(json);
}

/**
 * A JWT whose claims make it a public client key: `"role":"anon"` (a Supabase project's anon
 * key, shipped in every browser page of the app; the labels' "publishable keys",
 * docs/credentials.md §2 "Not credentials").
 */
export function isPublicJwt(v: string): boolean {
  const dot = v.indexOf('.');
  const end = v.indexOf('.', dot + 1);
  if (dot === -1 || end === -1) return false;
  const claims = Buffer.from(v.slice(dot + 1, end), 'base64url').toString('utf8');
  return /"role"\s*:\s*"anon"/.test(claims);
}

function privateIpv4(m: RegExpExecArray): string | null {
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => !(o >= 0 && o <= 255))) return null;
  const [a, b] = octets as [number, number, number, number];
  const isPrivate = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  return isPrivate ? `private IPv4 address ${maskIpv4(octets)}` : null;
}

/**
 * A full fc00::/7 address. A bare prefix such as `fc00::` or `fc00::/7` names
 * the range rather than a host, so at least two groups are required.
 */
export function isUlaAddress(token: string): boolean {
  if (token.includes(':::')) return false;
  const halves = token.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return halves.length === 1 ? groups.length === 8 : groups.length >= 2 && groups.length <= 7;
}

function ulaIpv6(m: RegExpExecArray): string | null {
  const after = m.input.slice(m.index + m[0].length, m.index + m[0].length + 2);
  // Glued to a word character, or to `.digit` (an embedded IPv4), it is part of something longer.
  if (/^(?:\w|\.\d)/.test(after) || !isUlaAddress(m[0])) return null;
  return `private IPv6 address (fc00::/7) ${maskIpv6(m[0])}`;
}

/**
 * Every detector with the same properties in the same order (absent ones undefined): one
 * object shape, so the scan loop's property reads stay monomorphic.
 */
const sameShape = (d: Detector): Detector => ({
  hint: d.hint,
  code: d.code,
  tier: d.tier,
  re: d.re,
  anchor: d.anchor,
  describe: d.describe,
});

const DETECTORS: Detector[] = (
  [
    {
      code: 'secret.github-token',
      hint: /gh[pousr]_|github_pat_/,
      tier: 1,
      re: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
      describe: token('GitHub token', (s) => (s.startsWith('github_pat_') ? 'github_pat_' : s.slice(0, 4))),
    },
    {
      code: 'secret.api-key',
      hint: 'sk-',
      tier: 1,
      // Prefixed forms first so `sk-proj-…` is named with its full prefix.
      // `sk-` and a short lower-case kind of 2 to 8 letters (`sk-cp-`, `sk-or-v1-`): many providers' keys, 32 or
      // more after the kind and a digit among them; a run of `x`, "your" or "here" is a placeholder,
      // and words and numbers joined (`sk-api-pipeline-2024-notes`) a name.
      re: /(?<![A-Za-z0-9])sk-(?:(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,}|[a-z]{2,8}-(?=[A-Za-z0-9_-]{0,40}\d)[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{20,})/g,
      describe: (m) =>
        /x{6}|your|here|example|placeholder/i.test(m[0]) ||
        /^sk-[a-z]{2,8}(?:[-_](?:[a-z]+|\d+|[a-z]{1,2}\d{1,2}))+$/.test(m[0])
          ? null
          : token('API key', (s) => /^sk-(?:proj|ant|svcacct|admin)-/.exec(s)?.[0] ?? 'sk-')(m),
    },
    {
      code: 'secret.aws-access-key',
      hint: /AKIA|ASIA/,
      tier: 1,
      re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/g,
      describe: token('AWS access key', (s) => s.slice(0, 4)),
    },
    {
      code: 'secret.private-key',
      hint: 'PRIVATE KEY',
      tier: 1,
      re: /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
      // `-----BEGIN PRIVATE KEY-----\n...\n-----END…` in a sample `.env`: the body is an ellipsis, a placeholder.
      describe: (m) =>
        /^(?:\\n|\s){0,3}(?:\.{3}|…)/.test(m.input.slice(m.index + m[0].length, m.index + m[0].length + 12))
          ? null
          : 'private key block -----BEGIN … PRIVATE KEY-----',
    },
    {
      code: 'secret.ssh-fingerprint',
      hint: 'SHA256:',
      tier: 1,
      // 43 or more: the reference accepts longer runs (docs/validators.md).
      re: /(?<![A-Za-z0-9])SHA256:[A-Za-z0-9+/]{43,}={0,2}/g,
      // A 64-digit hex digest after `SHA256:` is a file checksum, not a base64 key fingerprint.
      describe: (m) =>
        /^SHA256:[0-9a-f]{64}$/i.test(m[0]) ? null : `SSH key fingerprint ${maskToken(m[0], 'SHA256:')}`,
    },
    {
      code: 'secret.slack-token',
      hint: 'xox',
      tier: 1,
      re: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/g,
      describe: token('Slack token', (s) => s.slice(0, 5)),
    },
    {
      code: 'secret.gitlab-token',
      hint: 'glpat-',
      tier: 1,
      re: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g,
      describe: token('GitLab token', fixed('glpat-')),
    },
    {
      code: 'secret.google-api-key',
      hint: 'AIza',
      tier: 1,
      re: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g,
      describe: token('Google API key', fixed('AIza')),
    },
    {
      code: 'secret.stripe-key',
      hint: '_live_',
      tier: 1,
      re: /(?<![A-Za-z0-9])(?:sk|rk)_live_[A-Za-z0-9]{10,}/g,
      describe: token('Stripe live key', (s) => s.slice(0, 8)),
    },
    {
      // Provider tokens with a fixed form (docs/credentials.md §2, "Shape"): a Telegram bot token
      // (the bot's number, `:AA`, 33 more), Linear `lin_api_` + 32 or more, Hugging Face `hf_` + 34
      // letters, npm `npm_` + 36. The lengths are the providers' own, so words never match.
      code: 'secret.provider-token',
      hint: /:AA|lin_api_|hf_|npm_|\/B[A-Z0-9]{8}/,
      tier: 1,
      // A bot token also stands in the path of its API's URL, right after `/bot`. A Slack incoming
      // webhook's path (`T<team>/B<bot>/<24 letters and digits>`) is its secret, with or without its host.
      re: /(?:(?<![A-Za-z0-9])|(?<=\/bot))(?:\d{8,10}:AA[A-Za-z0-9_-]{33}|lin_api_[A-Za-z0-9]{32,}|hf_[A-Za-z]{34}|npm_[A-Za-z0-9]{36}|T[A-Z0-9]{8,12}\/B[A-Z0-9]{8,12}\/[A-Za-z0-9]{24})(?![A-Za-z0-9_-])/g,
      describe: token('provider token', (s) => /^(?:lin_api_|hf_|npm_)/.exec(s)?.[0] ?? ''),
    },
    {
      code: 'secret.jwt',
      hint: 'eyJ',
      tier: 1,
      re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
      describe: (m) => (isPublicJwt(m[0]) ? null : `JWT ${maskToken(m[0], 'eyJ')}`),
    },
    {
      // One base64url segment that decodes to a JSON object naming a token, secret or password
      // (a setup or pairing code that embeds its token): the value's shape, not its label.
      code: 'secret.encoded-token',
      hint: 'eyJ',
      tier: 1,
      re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{37,2000}={0,2}(?![A-Za-z0-9_.-])/g,
      describe: (m) => (encodesCredential(m[0]) ? `encoded token ${maskToken(m[0], 'eyJ')}` : null),
    },
    {
      code: 'secret.url-credentials',
      hint: '://',
      // `://` starts at most 31 characters after a match's start (a letter and 30 more); it is
      // the match's only `://` (no `/` past it), and right after it stand the user, `:`, the
      // password, `@` and the host's first character.
      anchor: { text: '://', maxBefore: 31, after: URL_CREDENTIALS_AFTER },
      tier: 2,
      re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/([^\s/?#@:]*):([^\s/?#@]+)@[^\s/?#@:]+/g,
      describe: (m) =>
        PLACEHOLDER_PASSWORD.test(m[2] ?? '') ? null : `credentials in URL ${maskUrlCredentials(m[0])}`,
    },
    {
      code: 'secret.private-ip',
      tier: 3,
      // Four dotted octets, not glued to a word, a dot or another digit: `10.15.7` and `110.0.0.1` never start a match.
      re: /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?!\w|\.\d)/g,
      describe: privateIpv4,
    },
    {
      code: 'secret.private-ip',
      // Every match starts with this, in any case; no other hint starts with `f` or `F`.
      hint: /[fF][cdCD][0-9a-fA-F]{2}:/,
      tier: 3,
      re: /(?<![\w:.])f[cd][0-9a-f]{2}:[0-9a-f:]*/gi,
      describe: ulaIpv6,
    },
  ] satisfies Detector[]
).map(sameShape);

/** A hint as regex source: a literal escaped, a regex as written (no hint regex has flags). */
const hintSource = (hint: string | RegExp) =>
  typeof hint === 'string' ? hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : hint.source;

/**
 * Every detector's hint in one alternation, so one scan says which hints the text holds
 * instead of one `includes` or `test` per detector (those were a tenth of the check on the
 * credentials corpus, where most files hold no hint at all).
 */
const HINT_SCAN = new RegExp(
  // Grouped by first character (alternation.ts): no hint regex has a group, so splitting its
  // source on `|` gives its alternatives (a unit test holds every hint regex to that).
  groupedAlternation(
    DETECTORS.flatMap((d) => (d.hint === undefined ? [] : hintSource(d.hint).split('|'))),
    false,
  ),
  'g',
);

/** Does `found` (one hint occurrence, from HINT_SCAN) match detector `d`'s hint? */
function isHintOf(d: Detector, found: string): boolean {
  const hint = d.hint;
  if (hint === undefined) return false;
  return typeof hint === 'string' ? found === hint : hint.test(found);
}

/**
 * Bit `i` set when DETECTORS[i]'s hint occurs in `text`: what `text.includes(hint)` (or
 * `hint.test(text)`) says for each. The scan steps on by one position after each match, so
 * it stops at every position where some hint starts; no two hints can match at one
 * position (they differ in the first or second character), so the match there is the only
 * hint starting there, and every occurrence of every hint is seen. A unit test compares
 * the two on hint-dense text.
 */
export function hintsPresent(text: string): number {
  let present = 0;
  HINT_SCAN.lastIndex = 0;
  for (let m = HINT_SCAN.exec(text); m !== null; m = HINT_SCAN.exec(text)) {
    for (let i = 0; i < DETECTORS.length; i++) if (isHintOf(DETECTORS[i]!, m[0])) present |= 1 << i;
    HINT_SCAN.lastIndex = m.index + 1;
  }
  return present;
}

/** Each detector's hint, for the unit test that holds hintsPresent to `includes`. */
export const DETECTOR_HINTS: ReadonlyArray<string | RegExp | undefined> = DETECTORS.map((d) => d.hint);

/** Does `...` or `…` stand at `at`: the value before it cut short? */
export function cutShortAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c === 0x2026 || (c === 46 && text.charCodeAt(at + 1) === 46 && text.charCodeAt(at + 2) === 46);
}

/** `present`: hintsPresent(text), when the caller has it (secret-words.ts finds it with the trigger words). */
export function patternCandidates(text: string, present = hintsPresent(text)): SecretCandidate[] {
  const out: SecretCandidate[] = [];
  for (let i = 0; i < DETECTORS.length; i++) {
    const d = DETECTORS[i]!;
    if (d.hint !== undefined && (present & (1 << i)) === 0) continue;
    const anchor = d.anchor;
    // Each search starts where the last match ended (the regex's lastIndex), near the anchor when there is one.
    for (let from = 0; ; from = d.re.lastIndex) {
      let m: RegExpExecArray | null;
      if (anchor) m = execNear(d.re, text, from, anchor.text, anchor.maxBefore, anchor.after);
      else {
        d.re.lastIndex = from;
        m = d.re.exec(text);
      }
      if (m === null) break;
      const end = m.index + m[0].length;
      // A token followed by `...` or `…` is cut short (`ghp_Ab3d...`): a reminder of which key,
      // not the key (docs/credentials.md, "Not credentials": keys cut to a prefix).
      if (d.tier === 1 && cutShortAt(text, end)) continue;
      const message = d.describe(m);
      if (message !== null) out.push({ start: m.index, end, code: d.code, message, tier: d.tier });
    }
  }
  return out;
}
