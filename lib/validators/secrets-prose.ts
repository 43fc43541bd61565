/**
 * Credentials written in prose (docs/credentials.md "Credentials in prose"): the
 * passwords and keys real memories hold that no token pattern sees. See
 * docs/credentials.md for the forms, the look-alikes and the measurements.
 *
 * Shape of the scan, for speed and linear time:
 * - one pass of a trigger regex over the whole text picks the lines that name
 *   a credential label, a command that takes one, or a login;
 * - the detailed patterns then run on those lines alone (a line is at most a
 *   few hundred characters in practice; every pattern is anchored on a literal
 *   label and has bounded gaps, so a 1 MiB line stays linear);
 * - Markdown tables and headings give context to the lines below them.
 *
 * A candidate's range is the VALUE only (never the label), so the inline mask
 * hides exactly the secret and keeps the rest of the line readable.
 */
import { onFirstUse } from '../core/on-first-use';
import { isPublicJwt, type SecretCandidate } from './secrets-patterns';
import { lineStarts } from './scan-text';
import { groupedAlternation } from './alternation';
import type { SecretWords } from './secret-words';
import { wantedLines } from './secrets-trigger';
import { asciiSet, hasRun, isJsSpace } from './text-chars';
import { codePointLength } from './validate-text';
import {
  HOST,
  isMarkupOrCode,
  MODEL_SIZE,
  VERSIONED_NAME,
  areSiblings,
  entropy,
  isHashOrAddress,
  isRandomLetters,
} from './secrets-shape';
import {
  detectAppPasswords,
  detectBearer,
  detectNearKeyWord,
  detectNearPasswordWord,
  detectPin,
  PIN_WORD,
  detectKeyItem,
  detectPairs,
  detectServiceTriple,
  detectSnmp,
  detectUnderContext,
  envShortKind,
  gapEndsInOwner,
  isKeyShaped,
  isPasswordShaped,
  sectionKind,
} from './secrets-context';

const TIER = 2 as const;

// ---------------------------------------------------------------------------
// Values: what counts as a credential once a label points at it
// ---------------------------------------------------------------------------

/** A value in backticks or quotes, long enough to be a password (short ones are never findings). */
const QUOTED_VALUE = /([`"'])[^`"'\s]{6,}\1/;

/** Where the secret lives, not the secret: "in 1Password", "the vault", "keychain", ".env". */
const STORED_ELSEWHERE =
  /1password|bitwarden|keepass|lastpass|\bvault\b|keychain|key\s?ring|password\s+manager|secrets?\s+manager|\.env\b|\bsops\b|pass\s+store|금고|보관함|金庫|保管庫|密码管理|cofre|coffre|tresor|bóveda|хранилищ|менеджер\S*\s+парол/i;

const PLACEHOLDERS: RegExp[] = [
  /^<[^>]*>?$/, // <password>
  /<[A-Za-z][\w-]*>/, // a template slot inside a value: `spec/<slug>.approval`
  /^\{.*\}?$/, // {password}, {{ secret }}
  /^\$\{/, // ${TOKEN}
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, // $TOKEN
  /^\$\(/, // $(sudo grep …)
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %TOKEN%
  /^(?:process\.env|os\.environ|import\.meta\.env|env)[.[]/i,
  /\*{3}|•{3}|x{4}|X{4}|…|\.\.\./, // ***, ••••, xxxx, …, ...
  /redacted|placeholder|changeme|^your[-_ ]?|^my[-_]?(?:password|secret|token)|^example[-_]|^(?:dummy|sample|fake)[-_]/i,
  /^[xX#*._-]+$/,
  // The shape of a credential named by its parts (`key:secret`, `user:password`, `id/token`): how to
  // write one, not one (docs/credentials.md, "Real stores").
  /^(?:user(?:name)?|login|id|key|client|account|token)[:/](?:secret|pass(?:word)?|token|key|pw)$/i,
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH_PREFIX = /^(?:sha(?:1|256|384|512)[:-]|md5:|blake2b?[:-])/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$/;
const DATE_OR_VERSION =
  /^(?:v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?|\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})$/;
const PATH_OR_URL = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/[^@]*$)/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/;
const HAS_DIGIT_OR_SYMBOL = onFirstUse(() => /[^\p{L}]/u);

/**
 * A file name, or a path to one, with an optional `:line` (`SKILL.md`, `.npmrc.template`,
 * `docs/notes/plan.mjs:12`): notes about code name files beside the words token, pass and
 * secret all the time, and no password ends in a file type.
 */
const FILE_EXTENSIONS =
  'md|mdx|markdown|txt|rst|json|jsonc|jsonl|ndjson|ya?ml|toml|ini|cfg|conf|env|lock|log|csv|tsv|xml|html?|css|scss|less|m?js|cjs|jsx|tsx?|mts|cts|vue|svelte|py|pyi|rb|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|pl|lua|sh|bash|zsh|fish|ps1|bat|sql|sqlite3?|db|template|tmpl|tpl|j2|example|sample|dist|bak|orig|patch|diff|tar|gz|tgz|zip|png|jpe?g|gif|svg|webp|ico|pdf|wasm|proto|graphql|gradle|mk|dockerfile|service|timer|socket|plist|pem|crt|pub';
// Letters of any script: notes in Russian or Korean name their files in their own words.
const FILE_NAME = onFirstUse(
  () => new RegExp(`^[\\p{L}\\p{N}_.@+~/-]*[\\p{L}\\p{N}_-]\\.(?:${FILE_EXTENSIONS})(?::\\d+(?:[-:]\\d+)?)?$`, 'iu'),
);

/**
 * What a quote near a label holds in notes about code when no `:`, `=` or "is" ties the two
 * (`pass "--no-verify"`, `the token path ".claude/state/x"`, `token mtime "09:42:52"`):
 * a command-line flag, a time, a lower-case relative path, a code expression. The value of
 * `jenkins token "11a2b3…"` or `password "dsm7-Adm!n"` is none of these. Nor is a dotted
 * lower-case name of three parts or more, a host or a property path (`sudo password on
 * "box.lab.example.net"`): each part starts with a letter.
 */
const WEAK_LOOKALIKE =
  /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*){2,}$|^--?[A-Za-z][\w-]*=?$|^\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?$|^\.?[a-z0-9_-]+(?:\/[a-z0-9._*-]+)+\/?$|={2}|!=|=>|\(\)|&&|\|\|/;
/**
 * Names in code and prose: `state.epic`, `wait_ms`, `IS_MAIN`, `Write-tool-only`,
 * `PRIVATE_JWK(signing)` (letters of any script joined by `.`, `_`, `-`, `+` or `/`, no
 * digit, maybe a parenthesis after), and lists of such words joined by `,` (`OAuth scopes:
 * calendar,drive`). After a password word such a value can be a passphrase (`passphrase:
 * correct-horse-battery`); after `token`, `auth`, `secret` or `key` it is a name (`the token
 * is Write-only`, `--token NEW_TOKEN`, a `Secret` column of names): no token or key is words
 * without a digit.
 */
const CODE_NAME = onFirstUse(() => /^[\p{L}$_]+(?:[._+/,-][\p{L}$_]+)+(?:\([^)]*\)?)?$/u);
/** No ASCII letter or digit: words in another script (`Auth=이메일+비번`), not a token or key. */
const NO_ASCII_ALNUM = /^[^A-Za-z0-9]*$/;
/**
 * The labels that name a password (a passphrase of plain words is one): English, the Latin-script
 * ones, and every label in another script but the words for a key (`密钥`, `ключ`, `clé`,
 * `schlüssel`), which ask a key's length and shape as `key` does.
 */
const PASSWORD_WORD =
  /^(?:passwords?|passwd|pass|passphrase|pwd|pw|mot de passe|mdp|passwort|kennwort|senha|clave|contrasena)$|^(?!(?:密钥|ключ|clé|schlüssel)$).*[\u0080-\uffff]/i;
/** An id in capitals (`QRX42-B7`, `TASK-2026-027`, `EAP-TLSv2` with its version): a name, after a key or token word. */
const UPPER_ID = /^[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+(?:v\d{1,2})?$/;
function isNameNotSecret(label: string, value: string): boolean {
  // `PASS=auto-commit`, `pass: all-green`: a test's verdict, words joined, is no password.
  if (label.toLowerCase() === 'pass' && CODE_NAME().test(value)) return true;
  // A model or product with its version (`chat-model-2.0-flash`) after any label: a name.
  if (VERSIONED_NAME.test(value)) return true;
  // The label first: after a password word (most labels) neither value test is needed.
  if (PASSWORD_WORD.test(label)) return false;
  // A key or a token is long: `API key: 4f1e0a` is a public affiliate id, not a key.
  if (value.length < 8) return true;
  // Lower-case hex under 16 (`token: 13dfe1150c0c`): a short hash or an object's id, as a commit is.
  if (value.length < 16 && SHORT_HEX_ID.test(value)) return true;
  // `app_auth=ok`: a setting and its flag, not a token.
  if (SETTING_FLAG.test(value)) return true;
  // A cookie's value is a session token only when it has a key's shape (`consent=yes` is none).
  if (COOKIE_LABEL.test(label) && !isKeyShaped(value)) return true;
  // `Access Key: <hex>` / `<CAPITALS>`: an access key's id (its secret is the secret key).
  if (ACCESS_KEY_LABEL.test(label) && ID_CHARS.test(value)) return true;
  return (
    CODE_NAME().test(value) ||
    NO_ASCII_ALNUM.test(value) ||
    UPPER_ID.test(value) ||
    AMOUNT.test(value) ||
    SHORT_NAMES.test(value) ||
    CODE_IDENTIFIER.test(value) ||
    (/^auth/i.test(label) && LOWER_WORDS_NUMBER.test(value))
  );
}
/** A code identifier with a number inside (`oauth2Client`, `s3Bucket`, `base64Data`): a variable, not a token. */
const CODE_IDENTIFIER = /^[a-z]+\d+[A-Z][a-z]+(?:[A-Z][a-z]+)*$/;
const SHORT_HEX_ID = /^[0-9a-f]+$/;
const ACCESS_KEY_LABEL = /^access[ _-]?keys?$/i;
/** A name set to a flag (`app_auth=ok`, `secure=true`). */
const SETTING_FLAG = /^[A-Za-z_][\w.-]*=(?:ok|true|false|yes|no|on|off|none|null|[01])$/i;
/** A label ending in `access key` with no `secret` in it (`R2 Access Key`, not `Secret Access Key`). */
const ACCESS_KEY_ID_LABEL = /^(?!.*secret).*access[ _-]?keys?$/i;
const COOKIE_LABEL = /^cookies?$/i;
/** One case of hex or capitals and digits: an id's alphabet (a secret key mixes cases). */
const ID_CHARS = /^(?:[0-9a-f]+|[0-9A-F]+|[0-9A-Z]+)$/;
/** Lower-case words and a number joined (`support-9645`, `team_42`) after `auth`: the account it is signed in as. */
const LOWER_WORDS_NUMBER = /^[a-z]+(?:[-_][a-z]+)*[-_]\d+$/;
/** An amount (`~300K-2M`, `1,200/min`): a count of tokens, not a token. */
const AMOUNT = /^[~≈<>+-]?\d[\d.,]*[KMBkmb%]?(?:[-–~/]\d*[\d.,]*[KMBkmb%]?\w{0,4})?$/;
/** Two or three short names joined by `/` (`flowbot/DeskCat`): who holds a token, not the token. */
const SHORT_NAMES = /^[A-Za-z][\w.-]{0,11}(?:\/[A-Za-z][\w.-]{0,11}){1,2}$/;

const SENTENCE_END = /[.!?;](?:\s|$)/;
const FIRST_WORD = onFirstUse(() => /^\s*([\p{L}\p{N}_-]+)/u);
/**
 * May a value quoted near `label`, with no separator between them, be its credential? Not
 * after `pass` (the verb: `pass "--root"`; `pass:` is a label), not when the gap ends a
 * sentence (`the token. Unlink "x"`) or starts with a word naming something else (`token
 * path "x"`: the same parts as NOT_A_SECRET_KEY), nor when the value is a WEAK_LOOKALIKE
 * (docs/credentials.md, "Near, not tied").
 */
/** Two lower-case words joined (`test_entity`, `key-only`): a name; a passphrase has three or more. */
const TWO_LOWER_WORDS = /^[a-z]+[-_][a-z]+$/;
function weaklyTied(label: string, gap: string, value: string): boolean {
  if (label.toLowerCase() === 'pass' || SENTENCE_END.test(gap) || gapEndsInOwner(gap)) return false;
  const next = FIRST_WORD().exec(gap)?.[1];
  if (next !== undefined && NOT_A_SECRET_KEY.test(next.toLowerCase())) return false;
  // Near but not tied, words between loosen the tie, so the shape decides: a key's after a key or
  // token word (`API key — \`text-embedding-3-small\`` is a model), and no two-word name after a
  // password word (`password but rejected \`test_entity\``).
  const shaped = PASSWORD_WORD.test(label)
    ? !TWO_LOWER_WORDS.test(value) && !value.includes('|')
    : isKeyShaped(value) || UUID.test(value);
  return shaped && !WEAK_LOOKALIKE.test(value);
}

/** Code points (a surrogate pair once): what `for (const _ of s) n++` counts, without the string iterator. */
export const codePoints = codePointLength;

/** The placeholders as two regexes (by flags), one test each instead of ten. */
const PLACEHOLDER_EXACT = new RegExp(
  PLACEHOLDERS.filter((p) => !p.flags.includes('i'))
    .map((p) => `(?:${p.source})`)
    .join('|'),
);
const PLACEHOLDER_ANY_CASE = new RegExp(
  PLACEHOLDERS.filter((p) => p.flags.includes('i'))
    .map((p) => `(?:${p.source})`)
    .join('|'),
  'i',
);
function isPlaceholder(v: string): boolean {
  return PLACEHOLDER_EXACT.test(v) || PLACEHOLDER_ANY_CASE.test(v);
}

/**
 * What isCredentialValue rules out by shape, as two regexes (by flags) instead of eight tests:
 * a placeholder, a UUID, a hash prefix, an IPv4 address, a date or version, a path or URL, an
 * e-mail address. One alternation tests true exactly when one of its parts does (each part
 * keeps its own anchors), and the checks only ever say no, so their order never mattered
 * (docs/performance-validators.md, "secret-check: fast paths").
 */
const unionOf = (parts: readonly RegExp[], flags: string) =>
  new RegExp(parts.map((p) => `(?:${p.source})`).join('|'), flags);
const NOT_A_VALUE_EXACT = unionOf([PLACEHOLDER_EXACT, IPV4, DATE_OR_VERSION, EMAIL], '');
const NOT_A_VALUE_ANY_CASE = unionOf([PLACEHOLDER_ANY_CASE, UUID, HASH_PREFIX, PATH_OR_URL], 'i');
/** For the unit test that holds each union to its parts. */
export const NOT_A_VALUE_FOR_TEST = [
  {
    union: NOT_A_VALUE_EXACT,
    parts: [...PLACEHOLDERS.filter((x) => !x.flags.includes('i')), IPV4, DATE_OR_VERSION, EMAIL],
  },
  {
    union: NOT_A_VALUE_ANY_CASE,
    parts: [...PLACEHOLDERS.filter((x) => x.flags.includes('i')), UUID, HASH_PREFIX, PATH_OR_URL],
  },
];

const LETTER_OR_DIGIT = onFirstUse(() => /[\p{L}\p{N}]/u);

/*
 * HAS_DIGIT_OR_SYMBOL.test(v) and LETTER_OR_DIGIT.test(v), answered by the ASCII units when
 * they can: on a value cut from a line with characters beyond ASCII (a two-byte string) the
 * Unicode classes cost a call per unit (docs/performance-validators.md, "secret-check: fast paths"). The
 * first unit beyond ASCII hands the whole value to the regex.
 */
const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
export function hasNonLetter(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 128) return HAS_DIGIT_OR_SYMBOL().test(v);
    if (!isAsciiLetter(c)) return true;
  }
  return false;
}
export function hasLetterOrDigit(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 128) return LETTER_OR_DIGIT().test(v);
    if (isAsciiAlnum(c)) return true;
  }
  return false;
}

/**
 * More shapes that are no credential, after any label (docs/credentials.md §2, "Not
 * credentials"): a dotfile (`.env.local`), a package (`@scope/name`), a site-verification
 * token, a publishable key (`pk_live_…`, `…_publishable_…`, public by design), a key cut to its prefix
 * (`sk-ant-oat01-`), a placeholder ending in `xxx` (`shpat_xxx`), a call or a decorator
 * (`getUser()`, `@task(3)`), an index (`data['token']`), a path to a file or a glob
 * (`secrets/.env`, `content/*.png`). A lower-case host name is tested beside FILE_NAME.
 */
const NOT_A_VALUE_MORE =
  /^\.[\w-]+(?:\.[\w-]+)*$|^@[\w-]+\/[\w.-]+$|verification[=:]|^pk_(?:live|test)_|publishable|(?:^|[_-])x{3,}$|^[A-Za-z_$@][\w$.]*\([^()]*\)?(?:\.[\w$]+\([^()]*\)?)*$|\w\[['"\w]|^[\w.-]+(?:\/[\w.*-]+)*\/(?:[\w*-]*\.[\w.*-]+|\*[\w.*-]*)$/i;

/**
 * Names that pass the class test (docs/credentials.md §2, "Not credentials"): a PEM armour line
 * (`-----BEGIN`), a variable's name ending in its kind (`minimax_token`, `BOT_TOKEN`), words of
 * letters around colons (`subagents:read`, `vendor:default`, `Zone:DNS:edit`: a scope, a profile), a command-line flag (`--files`), a folder (`.cache/`,
 * `\\temp\\Projects\\`), a flow of steps (`A→B→C`), and a key whose tail is a word of another
 * script (`sk-or-v1-` followed by "your key" translated: a placeholder), and a JSON string's text
 * across an escaped line break (`_\n\nThen`, a chat log's message body).
 */
const NAME_SHAPE =
  /^-{3,}|^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_(?:token|key|secret|password|pass|pwd|TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS|PWD)$|^id_(?:rsa|dsa|ecdsa|ed25519)\w*(?:\.pub)?$|^[a-z]+(?:\/[a-z]+)+$|^@\w+[Bb]ot$|^[A-Z][A-Z0-9]{1,9}-[0-9a-f]{4,8}$|^(?:[a-z0-9-]+\.)+[a-z]{2,}\/|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2}|^[A-Za-z_][\w.-]*=-?[\d.]+%?$|\[[A-Za-z_-]+\]|\.\*|\\[dwsb]|[[(]$|^[A-Za-z][A-Za-z_-]*(?::[A-Za-z][A-Za-z_-]*)+$|^--?[A-Za-z]|[/\\]$|^(?:[A-Za-z]:)?\\[^\\]+\\|[→←⇒]|^[A-Za-z0-9][\w-]*[-_][^\t -~]{2}|\\n(?:\\n|[A-Z])/;

/**
 * More names that pass the class test: a lower-case setting of a word (`mode=bot`,
 * `mode=strict`; `ADMIN_PASSWORD=word` is a password set), a
 * comparison (`drop5<-8%`, `score>=0.8`: a filter's condition), and a UUID named by words before
 * it (`sweep-contract-<uuid>`: a record's key; a UUID is an id, CONTRACT §2.2).
 */
const SETTING_OR_COMPARISON =
  /^(?!.*(?:pass|pwd|secret|token|key))[a-z][\w.-]*=[a-z]+$|^[A-Za-z_][\w.]*(?:<=?|>=?)[-+]?\d[\d.]*%?$/;
const NAMED_UUID =
  /^[a-z][a-z0-9]*(?:[-_][a-z][a-z0-9]*)*[-_][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * A word of any script with the punctuation of its sentence: opening `¿`/`¡` (`¿Dónde`) or a
 * closing colon (`Password:`, a prompt's text). A word is no credential (CONTRACT §2.2).
 */
const WORD_PUNCTUATED = onFirstUse(() => /^(?:[¿¡]\p{L}+[!?.,:;]*|\p{L}+:)$/u);

/**
 * A value ending in `-` or `_` is a key cut to its prefix (`sk-ant-oat01-`) unless a part of it
 * is generated: twelve or more letters and digits of both cases with a digit, as in keys that
 * end in `-` or `_` themselves (a search API's 31-character keys; docs/credentials.md, "Not
 * credentials").
 */
const GENERATED_PART = /(?=[A-Za-z0-9]{0,40}[a-z])(?=[A-Za-z0-9]{0,40}[A-Z])(?=[A-Za-z0-9]{0,40}\d)[A-Za-z0-9]{12,}/;
function cutAtSeparator(v: string): boolean {
  const c = v.charCodeAt(v.length - 1);
  if (c !== 45 && c !== 95) return false;
  return !GENERATED_PART.test(v);
}

/** Is `raw` (already cut out of its quotes) a credential value rather than a look-alike? */
export function isCredentialValue(raw: string): boolean {
  // `trim()` only when an end is white space (rare): the builtin costs more than the two looks.
  let v = isJsSpace(raw.charCodeAt(0)) || isJsSpace(raw.charCodeAt(raw.length - 1)) ? raw.trim() : raw;
  // Quoted twice (`` `"1000"` ``): the inner quotes quote, they are not part of the value.
  const q = v.charCodeAt(0);
  if (v.length >= 2 && (q === 34 || q === 39) && v.charCodeAt(v.length - 1) === q) v = v.slice(1, -1);
  // A code point is one or two UTF-16 units: count them only where the length cannot decide.
  if (v.length < 6 || (v.length < 12 && codePoints(v) < 6)) return false;
  if (v.length > 200 && codePoints(v) > 200) return false;
  if (hasJsSpace(v)) return false;
  if (!hasNonLetter(v)) return false; // plain words: `password: required`
  if (NOT_A_VALUE_EXACT.test(v) || NOT_A_VALUE_ANY_CASE.test(v)) return false;
  // A password hash (`$2b$12$…`) or a blockchain address (`0x…`): both start with `$` or `0`.
  const first = v.charCodeAt(0);
  if ((first === 36 || first === 48 || v.length >= 16) && isHashOrAddress(v)) return false;
  // A file name holds a dot: most values do not, and skip the regex.
  if (v.includes('.') && (FILE_NAME().test(v) || HOST.test(v))) return false;
  if (NOT_A_VALUE_MORE.test(v) || NAME_SHAPE.test(v) || isMarkupOrCode(v)) return false;
  if (SETTING_OR_COMPARISON.test(v) || NAMED_UUID.test(v) || WORD_PUNCTUATED().test(v)) return false;
  if (cutAtSeparator(v)) return false;
  // A JWT whose claims make it a public client key (an anon key).
  if (v.startsWith('eyJ') && isPublicJwt(v)) return false;
  // Pure punctuation or a Markdown artefact (`|---|`, `**`, `->`).
  if (!hasLetterOrDigit(v)) return false;
  return true;
}

const TRAILING_PUNCTUATION = asciiSet('.,;:)]}>|\'"`*');
const LEADING_PUNCTUATION = asciiSet('([{<\'"`*');
const inAscii = (set: Uint8Array, c: number) => c < 128 && set[c] === 1;

/**
 * Trailing sentence punctuation is not part of an unquoted value: what
 * `value.replace(/[.,;:)\]}>|'"`*]+$/, '').replace(/^[([{<'"`*]+/, '')` gives, without the regexes.
 */
export function trimUnquoted(value: string): string {
  let end = value.length;
  while (end > 0 && inAscii(TRAILING_PUNCTUATION, value.charCodeAt(end - 1))) end--;
  let start = 0;
  while (start < end && inAscii(LEADING_PUNCTUATION, value.charCodeAt(start))) start++;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** Does `s` hold a character `\s` matches? */
export function hasJsSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isJsSpace(s.charCodeAt(i))) return true;
  return false;
}

/** How many characters `\s` matches from `at` on, up to `limit` (the length of a `\s` run there). */
export function spacesAt(line: string, at: number, limit = line.length): number {
  let i = at;
  while (i < limit && isJsSpace(line.charCodeAt(i))) i++;
  return i - at;
}

// ---------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------

/** Credential labels in the languages real notes use (English first). */
export const LABEL_WORDS =
  'passwords?|passwd|pass|passphrase|pwd|pw|client[ _-]?secrets?|secret[ _-]?keys?|secrets?|api[ _-]?keys?|apikeys?|access[ _-]?keys?|access[ _-]?tokens?|auth[ _-]?tokens?|tokens?|auth|consumer[ _-]?keys?|consumer[ _-]?secrets?|cookies?|snmp[ _-]?community|community[ _-]?strings?|' +
  'contraseña|contrasena|clave|mot de passe|mdp|passwort|kennwort|senha|пароль|비밀번호|비번|암호|密码|密碼|口令|パスワード|暗証番号|' +
  'mật khẩu|mat khau|ключ|密钥|clé|schlüssel|chave';

/** LABEL_WORDS grouped by first character for speed (alternation.ts): the same matches. */
export const LABEL_ALTERNATION = groupedAlternation(LABEL_WORDS.split('|'), true);

/** Labels whose unquoted value may follow a space (`pw X`, `비번 X`, `密码 X`), not only `:`/`=`. */
const SPACE_LABELS =
  /^(?:pw|pwd|contraseña|contrasena|mot de passe|mdp|passwort|kennwort|senha|пароль|비밀번호|비번|암호|密码|密碼|口令|パスワード|暗証番号)$/i;

/**
 * Identifier parts that turn a credential label into something else (an id, a limit, a file),
 * and the product 1Password, whose name holds the label word (`from 1Password via \`x.apiKey\``).
 */
export const NOT_A_SECRET_KEY =
  /(?:^|[_.\- ])(?:ids?|name|names|type|types|file|files|path|url|uri|endpoint|hint|policy|length|len|max|min|count|limit|size|ttl|expir\w*|expires?|rotation|header|prefix|format|field|budget|usage|used|total|totals|cost|costs|hash|hashed|salt|env|var|public|pub|pubkey|fingerprint|scope|scopes|location|manager|reset|required|store|stdin|helper|command|cmd|mode|algorithm|algo|filename|filenames|dir|directory|folder|nopasswd|passwordless|publishable|design|input|output|prompt|completion|context|sort|primary|foreign|partition|pacing|rate|refresh[ _-]?interval|config|configs|configuration|method|methods|provider|status|state|状态|狀態|estado|статус)(?:$|[_.\- ])|public|pubkey|max_?tokens|tokeniz|^1password$/i;

// ---------------------------------------------------------------------------
// Line selection
// ---------------------------------------------------------------------------

const HEADING_NAMES_SECRET =
  /^\s{0,3}#{1,6}\s.*(?:key|token|secret|password|passwd|credential|비번|비밀번호|密码|パスワード|пароль)/i;
const LINE_NAMES_SECRET_WORD =
  /(?<![A-Za-z])(?:keys?|tokens?|secrets?|passwords?|passwd|credentials?|apikey)(?![a-z])/i;
/** camelCase names: `PrivateKey = …`, `botToken: …`. */
const LINE_NAMES_SECRET_CAMEL = /[a-z](?:Key|Keys|Token|Secret|Password)(?![a-z])/;
const LINE_NAMES_SECRET = {
  test: (line: string) => LINE_NAMES_SECRET_WORD.test(line) || LINE_NAMES_SECRET_CAMEL.test(line),
};

// ---------------------------------------------------------------------------
// Detectors, each on one line. They push value ranges relative to the line.
// ---------------------------------------------------------------------------

interface Hit {
  start: number;
  end: number;
  code: string;
  what: string;
  /** Set when the line's hits are kept (proseCandidates' flush). */
  line: number;
}

type LineDetector = (line: string, out: Hit[]) => void;

const QUOTED =
  '`([^`\\n]{1,200})`|"([^"\\n]{1,200})"|\'([^\'\\n]{1,200})\'|[«“„「]\\s?([^»”“」\\n]{1,200}?)\\s?[»”“」]';

const QUOTED_NOW = new RegExp(`^(?:${QUOTED})`);
const QUOTED_SOON = new RegExp(`^[^\`"'\\n:=]{0,30}?(?:${QUOTED})`);

function push(out: Hit[], start: number, value: string, code: string, what: string): void {
  out.push({ start, end: start + value.length, code, what, line: -1 });
}

/**
 * The ideographic full stop, comma and enumeration comma and the full-width comma and semicolon:
 * Chinese and Japanese prose ends a clause with them and goes on without a space
 * (`密码 fallback)。config/x.py`), so they end an unquoted value as `,` and `;` do.
 */
function isCjkStop(c: number): boolean {
  // Full-width brackets too (`Token（2026-03-16 …）`): a note in CJK opens an aside with them, no space before.
  return (
    c === 0x3002 ||
    c === 0x3001 ||
    c === 0xff0c ||
    c === 0xff1b ||
    c === 0xff08 ||
    c === 0xff09 ||
    c === 0x3010 ||
    c === 0x3011
  );
}

/**
 * An unquoted run starting at `at`, cut at whitespace, at `;` (connection strings), at `,`, at a
 * backtick (the end of a code span) and at a CJK clause stop (isCjkStop), trimmed of punctuation:
 * `/^[^\s;,`。、，；]+/` on the next 220 characters, by hand.
 */
const CUT_SHORT = /(?:\.{3}|…)[)\]}>'"`*]*$/;
export function unquotedAt(line: string, at: number): { value: string; start: number } | null {
  const limit = Math.min(line.length, at + 220);
  let end = at;
  for (; end < limit; end++) {
    const c = line.charCodeAt(end);
    if (c === 59 /* ; */ || c === 44 /* , */ || c === 96 /* ` */ || isJsSpace(c) || isCjkStop(c)) break;
  }
  if (end === at) return null;
  const first = line.charCodeAt(at);
  if (first === 60 /* < */ || first === 123 /* { */ || first === 36 /* $ */ || first === 37 /* % */) return null;
  const run = line.slice(at, end);
  // A value cut short for the note (`ghp_U4p9...`, `sk-…`): no value, only its prefix.
  if (CUT_SHORT.test(run)) return null;
  const value = trimUnquoted(run);
  if (!value) return null;
  // The first occurrence is where the trim left it: what comes before is all leading punctuation, and the value does not start with any.
  const lead = run.indexOf(value);
  return { value, start: at + lead };
}

const SCHEME = /^(?:Bearer|Basic|Token|Digest)\s+/i;
/** `Bearer X` / `Basic X` / `token X`: the scheme is a word, the credential follows it. */
function skipScheme(line: string, at: number): number {
  // Every scheme starts with b, t or d; under the non-Unicode `i` flag only ASCII letters fold to them.
  const c = line.charCodeAt(at) | 0x20;
  if (c !== 0x62 && c !== 0x74 && c !== 0x64) return at;
  const s = SCHEME.exec(line.slice(at, at + 10));
  return s ? at + s[0].length : at;
}

/** `label: value`, `label = value`, `"label": "value"`, `label value` in quotes, foreign labels. */
export const LABEL_RE = new RegExp(
  // Latin boundaries only: Korean, Japanese and Chinese glue particles to the label (`パスワードは`, `관리자비번`).
  `(?<![A-Za-z\u00C0-\u024F0-9])([A-Za-z0-9]{0,24}[ _.-]?)?(${LABEL_ALTERNATION})((?:[_.-][A-Za-z0-9]{1,16})?)(?![A-Za-z\u00C0-\u024F0-9])`,
  'gi',
);

/** The label words alone: where the next LABEL_RE match can be, found without its prefix. */
export const LABEL_WORD = new RegExp(`(?:${LABEL_ALTERNATION})`, 'gi');

/**
 * LABEL_RE's next match at or after `from`, as `LABEL_RE.exec` from `from` finds it. The
 * prefix group makes LABEL_RE try up to 25 lengths at every word start; started at
 * labelSearchStart instead, it skips every position that cannot begin a match.
 */
function nextLabel(line: string, from: number): RegExpExecArray | null {
  LABEL_WORD.lastIndex = from;
  const word = LABEL_WORD.exec(line);
  if (word === null) return null;
  LABEL_RE.lastIndex = labelSearchStart(line, from, word.index);
  return LABEL_RE.exec(line);
}

/**
 * Where LABEL_RE's leftmost match at or after `from` can start at the earliest, given the first
 * label-word occurrence `a0` at or after `from`. A match is a run of up to 24 ASCII letters or
 * digits, an optional separator, then a label word; its look-behind forbids a letter or digit
 * before it. So a match labelled at `a0` starts where the run of letters and digits ending at
 * `a0` (or at the separator before `a0`) starts, and a match labelled later either starts at
 * one of those same places or after `a0`. The run is followed back 24 characters at most: a
 * longer one holds no match start that could reach `a0`.
 */
export function labelSearchStart(line: string, from: number, a0: number, maxRun = 24): number {
  let start = alnumRunStart(line, from, a0, maxRun);
  const before = line.charCodeAt(a0 - 1);
  if (a0 - 1 >= from && (before === 32 || before === 95 || before === 46 || before === 45)) {
    // `[ _.-]`: the optional separator between the prefix and the label.
    start = Math.min(start, alnumRunStart(line, from, a0 - 1, maxRun));
  }
  return start;
}

/** Where the run of ASCII letters and digits ending at `end` starts, looking back `maxRun` at most and not before `from`. */
function alnumRunStart(line: string, from: number, end: number, maxRun: number): number {
  let s = end;
  while (s > from && end - s < maxRun && isAsciiAlnum(line.charCodeAt(s - 1))) s--;
  return s;
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || isAsciiLetter(c);
}

/**
 * NOT_A_SECRET_KEY on the lower-cased key, cached per key as written: the same few keys
 * (`db_password`, `root password`) come back on every line.
 */
const notSecretKey = new Map<string, boolean>();
/**
 * A token named by the object it addresses (`doc_token`, `docToken`, `node_token`, `obj_token`):
 * document platforms call a document's, a wiki node's or a sheet's id its token; it opens
 * nothing without an app's own secret (docs/credentials.md, "Not credentials").
 */
const DOCUMENT_TOKEN_KEY = /^(?:docx?|document|node|obj|wiki|sheet|spreadsheet|bitable|block)[ _.-]?tokens?$/i;
const KEY_FILE_SUFFIX = new RegExp(`^\\.(?:${FILE_EXTENSIONS})$`, 'i');
function isNotSecretKey(m: RegExpExecArray): boolean {
  // A label word alone is never one of those parts (a unit test checks every form LABEL_WORDS spells).
  if (m[1] === undefined || m[1] === '') {
    if (m[3] === undefined || m[3] === '') return false;
  }
  // The match is prefix + label + suffix (the look-arounds take no characters): the key as written.
  const key = m[0];
  let v = notSecretKey.get(key);
  if (v === undefined) {
    // `design-tokens.json = …` names a file, not a secret.
    v = NOT_A_SECRET_KEY.test(key.toLowerCase()) || KEY_FILE_SUFFIX.test(m[3] ?? '') || DOCUMENT_TOKEN_KEY.test(key);
    // Bounded: a hostile file with a million distinct keys must not grow the cache without end.
    if (notSecretKey.size >= 4096) notSecretKey.clear();
    notSecretKey.set(key, v);
  }
  return v;
}

/** `label (admin): value`, `"label"`, `label**:`, and up to three words before a colon. */
const CLOSER = onFirstUse(
  () =>
    /^(?:["'`*_]+(?=\s*(?:\([^)\n]{0,30}\)\s*)?[:=：]))?(?:\s*\([^)\n]{0,30}\))?(?:(?:\s+[\p{L}\p{N}-]{1,12}){1,3}[*_]{0,3}(?=\s*[:：]))?/u,
);
/**
 * CLOSER matches more than the empty string only when the text starts with a quote, `*`,
 * `_`, `(` or white space (`/^[\s"'`*_(]/`) and holds one of `(`, `:`, `=`, `：`: two cheap tests first.
 */
const CLOSER_FIRST = asciiSet('"\'`*_(');
export const closerStarts = (c: number) => inAscii(CLOSER_FIRST, c) || isJsSpace(c);
const CLOSER_NEEDS = /[(:=：]/;
/** Every QUOTED form opens with one of these (`/[`"'«“„「]/`). */
export function isQuoteOpener(c: number): boolean {
  return c === 96 || c === 34 || c === 39 || c === 0xab || c === 0x201c || c === 0x201e || c === 0x300c;
}
/** A quote opener among the characters [from, to) of `line`. */
export function quoteOpenerIn(line: string, from: number, to: number): boolean {
  const end = Math.min(to, line.length);
  for (let i = from; i < end; i++) if (isQuoteOpener(line.charCodeAt(i))) return true;
  return false;
}
/** The regex `^[*_]+\s*` on the 6 characters from `at`: the length of Markdown emphasis closing there, or 0. */
export function emphasisAt(line: string, at: number): number {
  const limit = Math.min(line.length, at + 6);
  let i = at;
  while (i < limit && (line.charCodeAt(i) === 42 /* * */ || line.charCodeAt(i) === 95) /* _ */) i++;
  if (i === at) return 0;
  while (i < limit && isJsSpace(line.charCodeAt(i))) i++;
  return i - at;
}

/** Three stars or more at `at`, then white space or the end of the line: a value masked in the note. */
function maskedValueAt(line: string, at: number): boolean {
  let i = at;
  while (line.charCodeAt(i) === 42 /* * */) i++;
  return i - at >= 3 && (i === line.length || isJsSpace(line.charCodeAt(i)));
}

/** "in the vault": where a secret lives — unless the line also quotes a value. */
function storedElsewhere(line: string): boolean {
  return STORED_ELSEWHERE.test(line) && !QUOTED_VALUE.test(line);
}

/**
 * After a key or token word, an unquoted value followed by a word naming what it is
 * (`API key connected: some-name99 account`): the account's or model's name, not the key.
 */
const NAMED_AFTER =
  /^\s+(?:account|user|username|handle|profile|workspace|project|model|org|organi[sz]ation|team|id)\b/i;
function namedAfter(label: string, line: string, end: number): boolean {
  return !PASSWORD_WORD.test(label) && NAMED_AFTER.test(line.slice(end, end + 20));
}

/**
 * `old→new` as one unquoted run after a label (`key fixed: ak_→ck_…`): the value set is the part
 * after the last arrow; the part before is what it replaced (a prefix, an old value).
 */
function afterArrow(u: { value: string; start: number } | null): { value: string; start: number } | null {
  if (u === null) return null;
  const a = Math.max(u.value.lastIndexOf('→') + 1, u.value.lastIndexOf('->') + 2, 0);
  if (a <= 1) return u; // no arrow, or one at the very start
  const rest = u.value.slice(a);
  return rest === '' ? null : { value: rest, start: u.start + a };
}

/** The words CLOSER took between a label and its colon: a number (`Pass 1:`) or a part naming something else (`token filename:`). */
function qualifierNamesOther(closed: string): boolean {
  for (const w of closed.split(/[\s()*"'`_:=：]+/)) {
    if (w === '') continue;
    if (/^\d+$/.test(w) || NOT_A_SECRET_KEY.test(w.toLowerCase())) return true;
  }
  return false;
}
/** Words before an all-caps `PASS` that make it a test result. */
const RESULT_WORD = /(?:sanity|smoke|tests?|checks?|ci|build|lint|e2e|unit|all|status)[ _-]?$/i;
/** A `→` or `->` separator at `at` (after white space). */
function isArrowAt(line: string, at: number): boolean {
  const i = at + spacesAt(line, at);
  return line.charCodeAt(i) === 0x2192 || (line.charCodeAt(i) === 45 && line.charCodeAt(i + 1) === 62);
}
/** A `→`, `->` or `>` before the label: the label is one step of a menu path. */
function menuBefore(line: string, labelAt: number): boolean {
  const before = line.slice(Math.max(0, labelAt - 80), labelAt);
  return before.includes('→') || before.includes('->') || / > /.test(before);
}

/** One word with a capital inside (`BlueHarbor`, `BlueFish`): a password after a password word, a name elsewhere. */
const CAMEL_WORD = /^[A-Za-z]*[a-z][A-Z][A-Za-z]*$/;
/**
 * Is `value`, tied to `label`, its credential? The shape every value passes (isCredentialValue),
 * not a name after a key word (isNameNotSecret) — and two shapes only a label makes credentials:
 * a UUID after a key, token or password word (many services issue UUID keys; a UUID named an id
 * never reaches here, NOT_A_SECRET_KEY), and one CamelCase word after a password word (a vendor's
 * default password, `password 'BlueHarbor'`).
 */
function labelledValue(label: string, value: string, quoted: boolean): boolean {
  if (isCredentialValue(value)) return !isNameNotSecret(label, value);
  // `auth` names a service as often as its key (`auth api: <uuid>` in a list of service ids), and
  // `pass` a verdict (`EVAL PASS: <uuid>`: the run's id).
  if (UUID.test(value)) return !/^auth/i.test(label) && label.toLowerCase() !== 'pass';
  // Generated letters after a password label (an app password of sixteen lower-case letters).
  if (PASSWORD_WORD.test(label) && isRandomLetters(value)) return true;
  // Quoted only: unquoted, a CamelCase word is a product's name as often (`passphrase → MacBook`).
  return quoted && value.length >= 6 && PASSWORD_WORD.test(label) && CAMEL_WORD.test(value);
}

/** What separates a label from its value. */
export const SEP =
  /^\s*(?::=|[:=：]|=>|->|→|\s(?:is|was|ist|war|est|es|era|é|era|это|は|은|는|이|是|为|為)(?![A-Za-z\u00C0-\u024F])\s*[:：]?|[은는이は是为為]\s*[:：]?)\s*/;
/** SEP's match starts with white space or one of these (each alternative's first character). */
const SEP_FIRST_CODES = [...':=：-→은는이は是为為'].map((c) => c.charCodeAt(0));
const isSepFirst = (c: number) => SEP_FIRST_CODES.includes(c);

/**
 * The length of `SEP.exec(line.slice(at, at + 20))`'s match, or -1 for none. Skipped when the
 * character at `at` cannot start a match; read by hand for `:`, `:=`, `=` and `：` (nearly
 * every label's separator), where SEP's match is that and the white space after it, in the
 * window (docs/performance-validators.md, "secret-check: fast paths").
 */
export function separatorLength(line: string, at: number): number {
  const c = line.charCodeAt(at);
  if (c === 58 /* : */ || c === 61 /* = */ || c === 0xff1a /* ： */) {
    // `:=` is SEP's first alternative; `=>` never wins, as `[:=：]` is tried before it.
    const len = c === 58 && line.charCodeAt(at + 1) === 61 ? 2 : 1;
    return len + spacesAt(line, at + len, Math.min(line.length, at + 20));
  }
  if (!isJsSpace(c) && !isSepFirst(c)) return -1;
  return SEP.exec(line.slice(at, at + 20))?.[0].length ?? -1;
}

/**
 * Is `at` inside a shell parameter expansion (`${ADMIN_PASSWORD:-admin}`)? There the label is a
 * variable's name and what follows `:-` its default, as in the env references the placeholders
 * leave alone: an opening `${` before `at` that no `}` has closed yet.
 */
export function inParameterExpansion(line: string, at: number): boolean {
  // Most lines hold no `${`: one forward search settles it (lastIndexOf is a slower runtime call).
  const first = line.indexOf('${');
  if (first === -1 || first > at) return false;
  const open = line.lastIndexOf('${', at);
  return open !== -1 && line.lastIndexOf('}', at) < open;
}

/**
 * Is the label at `at` a field of a format (`host:port:user:pass:…`, `ip|user|password`)? Two
 * lower-case names joined to it by `:` or `|` before it: the names of fields, not a value.
 */
const FIELD_FORMAT_BEFORE = /(?:^|[^\w])[a-z]{2,10}[:|][a-z]{2,10}[:|]$/;
function inFieldFormat(line: string, at: number): boolean {
  const c = line.charCodeAt(at - 1);
  return (c === 58 || c === 124) && FIELD_FORMAT_BEFORE.test(line.slice(Math.max(0, at - 24), at));
}

/** Does the backtick at `at` close a code span: an odd number of backticks before it on the line? */
export function closesCodeSpan(line: string, at: number): boolean {
  let n = 0;
  for (let i = line.indexOf('`'); i !== -1 && i < at; i = line.indexOf('`', i + 1)) n++;
  return n % 2 === 1;
}

const detectLabel: LineDetector = (line, out) => {
  // "in the vault" names where a secret lives — unless the line also quotes a value
  // ("the password is `X` until we move it to the vault" still gives X away).
  // Decided when the first value is found, not before: most lines' labels find none, and the
  // test costs more than they do. Nothing is pushed before, so the outcome is the same.
  const first = nextLabel(line, 0);
  if (first === null) return;
  let stored = 0; // 0 not yet known; 1 the line says where the secret is stored and quotes no value; 2 not
  for (let m: RegExpExecArray | null = first; m !== null; m = nextLabel(line, m.index + m[0].length)) {
    if (isNotSecretKey(m) || inParameterExpansion(line, m.index) || inFieldFormat(line, m.index)) continue;
    const label = m[2] ?? '';
    // `OAuth`: `auth` glued to a word is the protocol's name, not a label.
    if (label.length === 4 && (label.charCodeAt(0) | 0x20) === 0x61 && m[1] && /[A-Za-z0-9]$/.test(m[1])) continue;
    let at = m.index + m[0].length;
    // `label (admin): value`, `"label"`, `label**:`
    // …and up to three short words naming what it is for: `mot de passe root :`, `senha do roteador:`, `пароль от NAS:`.
    if (closerStarts(line.charCodeAt(at))) {
      const window = line.slice(at, at + 60);
      if (CLOSER_NEEDS.test(window)) {
        const closed = CLOSER().exec(window)?.[0] ?? '';
        // `token filename:`, `Pass 1:`, `password hint:`: the words before the colon name something else.
        if (closed.length > 0 && qualifierNamesOther(closed)) continue;
        at += closed.length;
      }
    }
    // `Sanity PASS`, `tests PASS`: a result, not a label.
    if (label === 'PASS' && RESULT_WORD.test(m[1] ?? '')) continue;
    const sepLength = separatorLength(line, at);
    const sep = sepLength !== -1;
    // `System → Reset Root Password → Apply`: a menu path, the label is an item's name.
    if (sep && isArrowAt(line, at) && menuBefore(line, m.index)) continue;
    // `**Password:** value`: Markdown emphasis closing after the separator.
    const afterSep = sep ? at + sepLength + emphasisAt(line, at + sepLength) : at;
    // `KEY=*** next`: the label's value is masked (three stars or more, then a space or the end),
    // so whatever follows belongs to something else.
    if (sep && maskedValueAt(line, at + sepLength)) continue;
    // Quoted value right after the separator (or, without one, within a short gap).
    // A quote opens the value right away (after a separator) or within 30 characters (without one).
    // A label inside a code span (`` `BACKUP_API_SECRET` worked: `list` ``): the backtick after it
    // closes that span, it opens no value (docs/credentials.md, "Real stores").
    if (!sep && line.charCodeAt(afterSep) === 96 /* ` */ && closesCodeSpan(line, afterSep)) continue;
    const q = (sep ? isQuoteOpener(line.charCodeAt(afterSep)) : quoteOpenerIn(line, afterSep, afterSep + 31))
      ? (sep ? QUOTED_NOW : QUOTED_SOON).exec(line.slice(afterSep, afterSep + 260))
      : null;
    if (q) {
      const qv = q[1] ?? q[2] ?? q[3] ?? q[4];
      if (qv !== undefined) {
        const start = afterSep + q[0].lastIndexOf(qv);
        const inner = skipScheme(line, start) - start;
        const value = qv.slice(inner);
        // Without a separator the quote is only near the label: docs/credentials.md, "Near, not tied".
        if (!sep && !weaklyTied(label, line.slice(afterSep, start), value)) continue;
        if (labelledValue(label, value, true)) {
          if (stored === 0) stored = storedElsewhere(line) ? 1 : 2;
          if (stored === 1) return;
          push(out, start + inner, value, 'secret.password', `value after a "${label.toLowerCase()}" label`);
        }
        continue;
      }
    }
    // Unquoted: needs a separator, or a label that takes a space (`pw X`, `비번 X`).
    // `/^\s+\S/` on the two characters at `at`: white space, then something else (tested before the label, both pure).
    const spaced =
      !sep &&
      isJsSpace(line.charCodeAt(at)) &&
      at + 1 < line.length &&
      !isJsSpace(line.charCodeAt(at + 1)) &&
      SPACE_LABELS.test(label);
    if (!sep && !spaced) continue;
    const from = skipScheme(line, spaced ? at + spacesAt(line, at) : afterSep);
    const u = afterArrow(unquotedAt(line, from));
    if (u && labelledValue(label, u.value, false) && !namedAfter(label, line, u.start + u.value.length)) {
      if (stored === 0) stored = storedElsewhere(line) ? 1 : 2;
      if (stored === 1) return;
      push(out, u.start, u.value, 'secret.password', `value after a "${label.toLowerCase()}" label`);
    }
  }
};

/**
 * A table row whose first cell is a credential label (`| **API Key** | … |`): the second cell is
 * its value, as after a colon. A key-value table names its values by the row, not the column.
 */
const ROW_LABEL = /^\s*\|\s*[*_`]*\s*([^|*_`]{2,40}?)\s*[*_`]*\s*\|\s*([^|]{6,200}?)\s*\|/;
const detectRowLabel: LineDetector = (line, out) => {
  if (line.charCodeAt(spacesAt(line, 0)) !== 124 /* | */) return;
  const r = ROW_LABEL.exec(line);
  if (r === null) return;
  const cell = r[1]!;
  LABEL_RE.lastIndex = 0;
  const m = LABEL_RE.exec(cell);
  // The label is the whole cell (a qualifier of up to 24 characters before it aside).
  if (m === null || m.index + m[0].length !== cell.length || isNotSecretKey(m)) return;
  let value = r[2]!;
  let start = r.index + r[0].lastIndexOf(value);
  const q = /^(`+|\*\*|"|')(.*)\1$/.exec(value);
  if (q) {
    start += q[1]!.length;
    value = q[2]!;
  }
  // A later cell saying what the value is (`| Secret Key | \`…\` | SSH password |`) names it as a label would.
  const label = ROW_SAYS_PASSWORD.test(line.slice(r.index + r[0].length)) ? 'password' : (m[2] ?? '');
  if (labelledValue(label, value, q !== null))
    push(out, start, value, 'secret.table-credential', `value in a row named "${(m[2] ?? '').toLowerCase()}"`);
};
const ROW_SAYS_PASSWORD = /passw|парол|비밀번호|密码|パスワード|contrase|senha|mot de passe|kennw/i;

/** `DB_PASSWORD=…`, `SSHPASS=…`, `export GH_TOKEN=…` (the variable name decides). */
const ENV_RE =
  /(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]{0,60})[ \t]*=[ \t]*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';&|]{1,200}))/g;
const ENV_NAME = /PASSWORD|PASSWD|PASS|SECRET|TOKEN|API_?KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL/;
const ENV_PASSWORD = /PASSWORD|PASSWD|PASS|PWD/;
const ENV_NOT =
  /(?:_ID|_IDS|_FILE|_PATH|_URL|_URI|_NAME|_TYPE|_HINT|_LEN|_LENGTH|_MAX|_MIN|_TTL|_COUNT|_ENDPOINT|_HEADER|PUBLIC|_PUB|BYPASS|PASSTHROUGH|COMPASS|PASSIVE|_PASSES|MAX_TOKENS|TOKENIZER)(?:_|$)/;

/**
 * Words joined that name a variable or say there is no value (`telegram_bot_token`, `BOT_TOKEN`,
 * `state.epic`, `not-set`, `runner-local`: a local server that checks no key), not lower-case words set as the value itself (`change-me`, a
 * translated "your long random secret" recorded as the one in use: real tune folders).
 */
const VARIABLE_PART =
  /^(?:tokens?|keys?|secrets?|api|apikey|bot|pass|passwords?|auth|env|var|name|id|not|none|unset|empty|null|todo|tbd|placeholder|example|sample|dummy|redacted|missing|here|your|my|local)$/i;
function namesAVariable(value: string): boolean {
  if (!/^[a-z]+(?:[-_][a-z]+)+$/.test(value)) return true;
  for (const part of value.split(/[-_]/)) if (VARIABLE_PART.test(part)) return true;
  return false;
}

const detectEnv: LineDetector = (line, out) => {
  if (!line.includes('=')) return;
  ENV_RE.lastIndex = 0;
  for (let m = ENV_RE.exec(line); m !== null; m = ENV_RE.exec(line)) {
    const name = m[1] ?? '';
    if (ENV_NOT.test(name)) continue;
    // `AK=`, `SK=`, `WIFI_PSK=`: a short part of the name says credential, the value's shape must agree.
    const short = ENV_NAME.test(name) ? null : envShortKind(name);
    if (short === null && !ENV_NAME.test(name)) continue;
    const raw = m[2] ?? m[3] ?? m[4] ?? '';
    // `<BRAVE_KEY>` unquoted: a placeholder before the trim takes its brackets away.
    if (m[4] !== undefined && raw.charCodeAt(0) === 60 /* < */) continue;
    // `GH_TOKEN=ghp_Ab3d...`: a value cut short names which key, it is not the key (docs/credentials.md).
    if (raw.endsWith('...') || raw.endsWith('…')) continue;
    const value = m[4] !== undefined ? trimUnquoted(raw) : raw;
    const start = m.index + m[0].length - raw.length - (m[4] !== undefined ? 0 : 1) + raw.indexOf(value);
    if (!isCredentialValue(value)) continue;
    if (short !== null && !(short === 'key' ? isKeyShaped(value) : isPasswordShaped(value))) continue;
    // A token's or a key's variable holding words joined (`BOT_TOKEN=telegram_bot_token`, `= "BOT_TOKEN"`)
    // holds a name; `PASS=` alone is a test's verdict as often as a password, so it asks a password's shape.
    if (!ENV_PASSWORD.test(name) && CODE_NAME().test(value) && namesAVariable(value)) continue;
    if (name === 'PASS' && !isPasswordShaped(value)) continue;
    push(out, start, value, 'secret.env-credential', `credential assigned to ${name}`);
  }
};

/**
 * The default of an environment lookup whose variable names a credential:
 * `os.environ.get("DB_PASSWORD", "x")`, `os.getenv('JWT_SECRET', 'x')`, `process.env.API_TOKEN || 'x'`.
 * The fallback is the credential the code runs with when the variable is unset.
 */
const ENV_FALLBACK =
  /(?:getenv|environ\.get|env\.get|ENV\.fetch)\(\s*["']([A-Z][A-Z0-9_]{1,60})["']\s*,\s*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})')|process\.env\.([A-Z][A-Z0-9_]{1,60})\s*(?:\|\||\?\?)\s*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})')/g;
const detectEnvFallback: LineDetector = (line, out) => {
  if (!line.includes('env')) return;
  ENV_FALLBACK.lastIndex = 0;
  for (let m = ENV_FALLBACK.exec(line); m !== null; m = ENV_FALLBACK.exec(line)) {
    const name = m[1] ?? m[4] ?? '';
    if (!ENV_NAME.test(name) || ENV_NOT.test(name)) continue;
    const value = m[2] ?? m[3] ?? m[5] ?? m[6] ?? '';
    if (!isCredentialValue(value)) continue;
    push(out, m.index + m[0].length - value.length - 1, value, 'secret.env-credential', `default of ${name}`);
  }
};

/** `` Login `demo`/`demo123` ``, `creds: admin / S3cret!`, `` account `ops:Pa55word` ``. */
const PAIR_KEY = onFirstUse(
  () =>
    /(log\s?-?in|sign\s?-?in|credentials?|creds|account|user(?:name)?|계정|로그인|账号|帳號|凭据|凭证|憑證|アカウント|ログイン)(?![\p{L}])/giu,
);
/**
 * Is there a letter (`\p{L}`, a whole code point) right before `at`? PAIR_KEY's key is a word
 * of its own: this is tested on each match (nextPairKey) rather than as the regex's
 * look-behind `(?<![\p{L}])`, which V8 ran at every position of the line, with a call per
 * unit on a line with characters beyond ASCII (docs/performance-validators.md, "secret-check: fast paths").
 */
const ONE_LETTER = onFirstUse(() => /^\p{L}$/u);
export function letterBefore(line: string, at: number): boolean {
  if (at === 0) return false;
  const c = line.charCodeAt(at - 1);
  if (c < 128) return isAsciiLetter(c);
  const pair = c >= 0xdc00 && c <= 0xdfff && at >= 2 && (line.charCodeAt(at - 2) & 0xfc00) === 0xd800;
  return ONE_LETTER().test(line.slice(at - (pair ? 2 : 1), at));
}
const PAIR_QUOTED = /^[^`\n]{0,30}?`([^`\s/:]{1,64})`\s*(?:\/|:|,)\s*`([^`\n]{1,128})`/;
const PAIR_GLUED = /^[^`\n]{0,30}?`([^`\s/:]{1,64})[/:]([^`\s]{1,128})`/;
const PAIR_PLAIN = /^[\s:=-]{0,4}(?:\S+\s+){0,3}?\(?([A-Za-z0-9_.-]{1,40})(?:\s?\/\s?|:)([^\s`'",;)]{1,128})/;

/** The pair forms after a key, in order; a strong key (`login`, `sign in`, `creds`) also takes the plain form. */
const PAIR_FORMS = [PAIR_QUOTED, PAIR_GLUED];
const STRONG_PAIR_FORMS = [PAIR_QUOTED, PAIR_GLUED, PAIR_PLAIN];

// Regex literals in a function are a new object on every call: the per-line ones are made once here.
const PAIR_PUNCTUATION = /[`/:]/;
const STRONG_PAIR_KEY = /^(?:log|sign|cred|로그인|ログイン)/i;
const HTTP_SCHEME = /^https?$/i;
/**
 * Pairs after a login word that are no login (docs/credentials.md, "Real stores"): two settings
 * (`` `mode=strict` / `prompt=never` ``), a model or package with its version
 * (`` `acme-labs/chat-7.2` ``: lower-case words and a dotted number), a home or relative path
 * (`` `~/.node-global` ``: `~`, `.` or `..` before the slash), a change of numbers (`755→700`).
 */
const SETTING = /^[A-Za-z_][\w.-]*=[\w.-]+$/;
const PATH_START = /^(?:~|\.{1,2})$/;
const NUMBER_CHANGE = /^\d+(?:→|->)\d+$/;
/** Digits and `:`, `.`, `-` only (`10-20:33`, a time range cut at its first colon): a time, never a login. */
const TIME_LIKE = /^[\d:.\-–]+$/;
/**
 * Lower-case words joined by `-` or `_` (`total_purchased`, `key-only`, `nvidia-kernel-dkms`):
 * names of columns, packages and modes. A password in a pair has a digit, a capital or a symbol.
 */
const WORDS_JOINED = /^[a-z]+(?:[-_][a-z]+)+$/;
function notALogin(user: string, pass: string): boolean {
  return (
    (user.includes('=') && SETTING.test(pass)) ||
    VERSIONED_NAME.test(pass) ||
    MODEL_SIZE.test(pass) ||
    PATH_START.test(user) ||
    NUMBER_CHANGE.test(pass) ||
    TIME_LIKE.test(pass) ||
    WORDS_JOINED.test(pass) ||
    UPPER_ID.test(pass) ||
    areSiblings(user, pass)
  );
}
/** The first PAIR_KEY match at or after `from` with no letter right before it. */
export function nextPairKey(line: string, from: number): RegExpExecArray | null {
  PAIR_KEY().lastIndex = from;
  for (let m = PAIR_KEY().exec(line); m !== null; m = PAIR_KEY().exec(line)) {
    if (!letterBefore(line, m.index)) return m;
    // As the look-behind would: no match starts here, so try from the next position.
    PAIR_KEY().lastIndex = m.index + 1;
  }
  return null;
}
const detectLoginPair: LineDetector = (line, out) => {
  if (!PAIR_PUNCTUATION.test(line)) return;
  for (let m = nextPairKey(line, 0); m !== null; m = nextPairKey(line, m.index + m[0].length)) {
    const at = m.index + m[0].length;
    const rest = line.slice(at, at + 260);
    const strongKey = STRONG_PAIR_KEY.test(m[1] ?? '');
    for (const re of strongKey ? STRONG_PAIR_FORMS : PAIR_FORMS) {
      const p = re.exec(rest);
      if (!p) continue;
      const pass = p[2] ?? '';
      if (re === PAIR_PLAIN && (pass.startsWith('//') || HTTP_SCHEME.test(p[1] ?? ''))) continue;
      const value = re === PAIR_PLAIN ? trimUnquoted(pass) : pass;
      if (!isCredentialValue(value) || value.includes('/') || notALogin(p[1] ?? '', value)) continue;
      const start = at + p.index + p[0].lastIndexOf(value);
      push(out, start, value, 'secret.login-pair', 'password of a login pair');
      break;
    }
  }
};

/** `` `admin/S3cret99` `` right after a host, `root` or `admin`. */
const HOST_PAIR = /`(root|admin|administrator|pi|ubuntu|ec2-user|[A-Za-z0-9_.-]{1,32})[/:]([^`\s]{6,128})`/g;
const HOSTISH =
  /(?:(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+\.(?:local|lan|home|internal|corp|com|net|org|io|dev)\b|@)[^`]{0,30}|\b(?:root|admin)\b[\s:=*(]{0,4})$/i;

const KNOWN_USER = /^(?:root|admin|administrator|pi|ubuntu|ec2-user)$/i;
const detectHostPair: LineDetector = (line, out) => {
  if (!line.includes('`')) return;
  HOST_PAIR.lastIndex = 0;
  for (let m = HOST_PAIR.exec(line); m !== null; m = HOST_PAIR.exec(line)) {
    const user = m[1] ?? '';
    const value = m[2] ?? '';
    const known = KNOWN_USER.test(user);
    if (!known && !HOSTISH.test(line.slice(Math.max(0, m.index - 60), m.index))) continue;
    if (value.includes('/') || !isCredentialValue(value)) continue;
    push(out, m.index + 1 + user.length + 1, value, 'secret.login-pair', 'password of a user/password pair');
  }
};

/** Passwords on command lines. */
const COMMANDS: Array<{ re: RegExp; what: string; group: number }> = [
  { re: /\bsshpass\s+-p\s*(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';|&]{1,200}))/g, what: 'sshpass -p', group: 1 },
  {
    re: /\b(?:mysql|mariadb|mysqldump|mysqladmin)\b[^\n|;&]{0,120}?\s-p(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';|&]{1,200}))/g,
    what: 'mysql -p',
    group: 1,
  },
  {
    re: /(?<![\w-])--?[A-Za-z0-9-]{0,30}(?:password|passwd|secret|token)(?:=|[ \t]+)(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';|&]{1,200}))/gi,
    what: 'a password flag',
    group: 1,
  },
  {
    re: /\bcurl\b[^\n|;&]{0,200}?\s(?:-u|--user)[ \t]*(?:"[^":\n]{1,64}:([^"\n]{1,200})"|'[^':\n]{1,64}:([^'\n]{1,200})'|[^\s:"']{1,64}:([^\s"';|&]{1,200}))/g,
    what: 'curl -u',
    group: 1,
  },
  {
    re: /\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';|&]{1,200}))/g,
    what: 'htpasswd -b',
    group: 1,
  },
  {
    re: /\b(?:echo|printf)\s+(?:-\w+\s+)?(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"';|&]{1,200}))\s*\|\s*sudo\s+(?:-\w+\s+)*-\w*S/g,
    what: 'sudo -S input',
    group: 1,
  },
  {
    re: /\b(?:echo|printf)\s+(?:-\w+\s+)?["']?[\w.-]{1,40}:([^\s"';|&]{1,200})["']?\s*\|\s*(?:sudo\s+)?chpasswd/g,
    what: 'chpasswd input',
    group: 1,
  },
  { re: /\bchpasswd\s*<<<\s*["']?[\w.-]{1,40}:([^\s"';|&]{1,200})/g, what: 'chpasswd input', group: 1 },
];

const PASS_IN_FLAG = /pass/i;
const COMMAND_HINT = /sshpass|mysql|maria|curl|htpasswd|sudo|chpasswd|-[\w-]*(?:password|passwd|secret|token)/i;

const detectCommand: LineDetector = (line, out) => {
  if (!COMMAND_HINT.test(line)) return;
  for (const c of COMMANDS) {
    c.re.lastIndex = 0;
    for (let m = c.re.exec(line); m !== null; m = c.re.exec(line)) {
      // The first of the three value groups that took part (no closure per match).
      const idx = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 0;
      if (idx === 0) continue;
      const raw = m[idx]!;
      const value = idx === 3 ? trimUnquoted(raw) : raw;
      if (value.charCodeAt(0) === 45 /* - */ || !isCredentialValue(value)) continue;
      const rawAt = line.lastIndexOf(raw, m.index + m[0].length);
      // `--token NEW_TOKEN`: after a token or secret flag a name without a digit is a name, as
      // after those labels (isNameNotSecret); after a password flag it may be a passphrase.
      if (c.what === 'a password flag' && CODE_NAME().test(value)) {
        if (!PASS_IN_FLAG.test(line.slice(m.index, rawAt >= 0 ? rawAt : m.index))) continue;
      }
      const start = (rawAt >= 0 ? rawAt : m.index) + raw.indexOf(value);
      push(out, start, value, 'secret.command-line', `password on a command line (${c.what})`);
    }
  }
};

/** "password reset/changed/set to X". */
const RESET_RE =
  /(?:password|passwd|passphrase|pw|pwd|pin|비번|비밀번호|密码|パスワード|пароль)[^\n]{0,40}?\b(?:reset|changed|set|rotated|updated)\s+to\s*:?\s*(?:`([^`\n]{1,200})`|"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"'`]{1,200}))/gi;

const WORD_TO = /\bto\b/i;
const detectReset: LineDetector = (line, out) => {
  if (!WORD_TO.test(line)) return;
  RESET_RE.lastIndex = 0;
  for (let m = RESET_RE.exec(line); m !== null; m = RESET_RE.exec(line)) {
    // The first of the four value groups that took part (no closure per match).
    const idx = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : m[4] !== undefined ? 4 : 0;
    if (idx === 0) continue;
    const raw = m[idx]!;
    const value = idx === 4 ? trimUnquoted(raw) : raw;
    if (!isCredentialValue(value)) continue;
    const start = m.index + m[0].length - raw.length - (idx === 4 ? 0 : 1) + raw.indexOf(value);
    push(out, start, value, 'secret.password', 'password reset/changed/set to a value');
  }
};

/**
 * BMP ranges of letters (`\p{L}`, every unit in them; a unit test checks each): Latin-1 and
 * Latin Extended, Greek, Cyrillic, kana, CJK ideographs, Hangul syllables. Outside them a unit
 * is taken to be possibly not a letter, which only makes mayHoldValue say yes more often.
 */
const LETTER_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0xc0, 0xd6],
  [0xd8, 0xf6],
  [0xf8, 0x24f],
  [0x391, 0x3a1],
  [0x3a3, 0x3a9],
  [0x3b1, 0x3c9],
  [0x400, 0x481],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
];
/** For the unit tests: LETTER_RANGES, and what the line detectors push for one line. */
export const LETTER_RANGES_FOR_TEST = LETTER_RANGES;
export function lineDetectorHits(line: string): Array<{ start: number; end: number; code: string }> {
  const out: Hit[] = [];
  detectLine(line, out);
  return out;
}

/** What mayHoldValue needs to know of a unit, as bits. */
const SPACE = 1;
const QUOTE = 2;
const LETTER = 4;
const LEAD = 8;
const TRAIL = 16;
const ASCII_FLAGS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_FLAGS[c] =
    (isJsSpace(c) ? SPACE : 0) |
    (isQuoteOpener(c) ? QUOTE : 0) |
    (isSureLetter(c) ? LETTER : 0) |
    (LEADING_PUNCTUATION[c] === 1 ? LEAD : 0) |
    (TRAILING_PUNCTUATION[c] === 1 ? TRAIL : 0);
}
/** The same bits beyond ASCII (no unit there is leading or trailing punctuation). */
function nonAsciiFlags(c: number): number {
  return (isJsSpace(c) ? SPACE : 0) | (isQuoteOpener(c) ? QUOTE : 0) | (isSureLetter(c) ? LETTER : 0);
}

/**
 * nonAsciiFlags for every UTF-16 unit, as a table made on the first line with a unit beyond
 * ASCII (64 KiB, filled range by range): the ranges cost a dozen tests per unit on every line
 * of Korean, Chinese or Cyrillic prose (docs/performance-validators.md, "secret-check: fast paths"). A unit
 * test holds the table to nonAsciiFlags for every unit.
 */
let unitFlags: Uint8Array | undefined;
function bmpFlags(): Uint8Array {
  const t = new Uint8Array(0x10000);
  t.set(ASCII_FLAGS);
  for (const [lo, hi] of LETTER_RANGES) t.fill(LETTER, lo, hi + 1);
  // isJsSpace and isQuoteOpener beyond ASCII: a handful of units (none of them a letter).
  for (const c of [0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]) t[c] = SPACE;
  t.fill(SPACE, 0x2000, 0x200b);
  for (const c of [0xab, 0x201c, 0x201e, 0x300c]) t[c] = QUOTE;
  unitFlags = t;
  return t;
}
/** For the unit test: the table, and the flags it stands for. */
export const UNIT_FLAGS_FOR_TEST = { table: () => unitFlags ?? bmpFlags(), nonAsciiFlags };

/** Is the UTF-16 unit `c` certainly a letter (`\p{L}`) on its own? ASCII exactly, the rest by LETTER_RANGES. */
function isSureLetter(c: number): boolean {
  if (c < 128) return isAsciiLetter(c);
  for (const [lo, hi] of LETTER_RANGES) if (c >= lo && c <= hi) return true;
  return false;
}

/**
 * Can any line detector (detectLine) find a value on `line`? Each pushes a value only when
 * isCredentialValue accepts it: no white space, at least 6 units, a character that is not a
 * letter. A value is quoted (it needs one of the quote openers on the line), a `chpasswd`
 * input (the only other value left untrimmed), or an unquoted run cut from one white-space-free
 * run R of the line and trimmed as trimUnquoted trims, so it lies inside trimUnquoted(R): that
 * trimmed run then has 6 units or more and a unit that is not a letter. A line with neither
 * (most selected lines: "passphrase length: 6 words", "Login with your SSO account.") is left
 * out of every detector at the cost of one pass over its characters.
 */
export function mayHoldValue(line: string): boolean {
  return runsMayHoldValue(line, 0, line.length) || line.includes('chpasswd');
}

/**
 * mayHoldValue's quote and run tests on the characters [from, to) of `text`. proseCandidates
 * passes the whole text and the line's bounds: the characters of a flat string load faster
 * than those of a slice of it.
 */
function runsMayHoldValue(text: string, from: number, to: number): boolean {
  // The current white-space-free run, trimmed as trimUnquoted trims it, is [p, q): p its first
  // unit not in LEADING_PUNCTUATION (-1 until there is one), q one past its last unit at or
  // after p not in TRAILING_PUNCTUATION (-1 until there is one). The units before p are all
  // leading punctuation, so when the trimmed run is not empty its last unit is at or after p.
  let p = -1;
  let q = -1;
  let nonLetter = -1; // the run's first unit at or after p that is not surely a letter
  for (let e = from; e <= to; e++) {
    // Past the end counts as white space: it closes the last run.
    const c = e < to ? text.charCodeAt(e) : 32;
    const f = c < 128 ? ASCII_FLAGS[c]! : (unitFlags ?? bmpFlags())[c]!;
    if ((f & QUOTE) !== 0) return true;
    if ((f & SPACE) !== 0) {
      if (p !== -1 && q - p >= 6 && nonLetter !== -1 && nonLetter < q) return true;
      // Generated letters (isRandomLetters: an app password after its label) are letters alone.
      if (p !== -1 && q - p >= 12 && (nonLetter === -1 || nonLetter >= q) && isRandomLetters(text.slice(p, q)))
        return true;
      p = -1;
      q = -1;
      nonLetter = -1;
      continue;
    }
    if (p === -1) {
      if ((f & LEAD) !== 0) continue;
      p = e;
    }
    if ((f & TRAIL) === 0) q = e + 1;
    if (nonLetter === -1 && (f & LETTER) === 0) nonLetter = e;
  }
  return false;
}

/**
 * Every line detector, most specific first: when two claim the same value, the first names
 * the finding.
 */
function detectLine(line: string, out: Hit[], inContext = false): void {
  detectRowLabel(line, out);
  detectEnv(line, out);
  detectEnvFallback(line, out);
  detectCommand(line, out);
  detectSnmp(line, out);
  detectServiceTriple(line, out);
  detectBearer(line, out);
  detectLoginPair(line, out);
  detectHostPair(line, out);
  detectReset(line, out);
  detectLabel(line, out);
  detectPin(line, out);
  detectKeyItem(line, out);
  // Context and shape (secrets-context.ts): a value no label is tied to.
  detectPairs(line, inContext, out);
  detectNearPasswordWord(line, out);
  detectNearKeyWord(line, out, isNotSecretLine, isSlug);
}
const isNotSecretLine = (line: string) => NOT_SECRET_LINE.test(line);

// ---------------------------------------------------------------------------
// Bare keys and tables: context from the line itself, a heading, or a header row
// ---------------------------------------------------------------------------

const BARE_RUN = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_-])/g;
/** Lines where a long run is an id, a commit, a hash or a public key, not a secret. */
const NOT_SECRET_LINE =
  /\b(?:commit|sha1?|revision|rev|verified-at|checksum|digest|integrity|fingerprint|public|publishable|pubkey|publickey|account[ _-]?id|zone[ _-]?id|tenant[ _-]?id|client[ _-]?id|folder[ _-]?id|drive[ _-]?id|project[ _-]?id|org(?:anization)?[ _-]?id|app[ _-]?id|key[ _-]?id|object[ _-]?id|request[ _-]?id|session[ _-]?id|trace[ _-]?id)\b|\/commit\/|\/blob\/|\/tree\/|ssh-(?:ed25519|rsa|dss)|ecdsa-sha2|sha256:|sha512-|sha384-|integrity=/i;

/**
 * Words joined by `-`/`_`: a canonical key like `some-entry-name-2026-06-23`, each part all
 * letters or all digits; or one written from a title with a short id, a version or a
 * product name among its words (`a-pipe-in-a-filename-breaks-the-gate-5c04`,
 * `context7-outcome-not-tool-mandate`, `drifted-at-b164ae7`): three or more words of
 * letters holding most of its characters. A key's random run is mostly mixed parts.
 */
export function isSlug(run: string): boolean {
  // One pass over the characters (every bare run comes here): per part between `-`/`_`, is
  // it empty, all digits (skipped), all ASCII letters (a word) or anything else (mixed)?
  let separators = 0;
  let words = 0;
  let wordChars = 0;
  let mixedChars = 0;
  let length = 0;
  let letters = 0;
  let digits = 0;
  for (let i = 0; i <= run.length; i++) {
    const c = i < run.length ? run.charCodeAt(i) : 45; // a `-` after the end closes the last part
    if (c === 45 /* - */ || c === 95 /* _ */) {
      if (i < run.length) separators++;
      if (length > 0 && digits < length) {
        if (letters === length) {
          words++;
          wordChars += length;
        } else mixedChars += length;
      }
      length = 0;
      letters = 0;
      digits = 0;
    } else {
      length++;
      const lower = c | 0x20;
      if (lower >= 97 && lower <= 122) letters++;
      else if (c >= 48 && c <= 57) digits++;
    }
  }
  return separators > 0 && (mixedChars === 0 || (words >= 3 && wordChars >= 1.5 * mixedChars));
}

/** A lower-case relative or absolute path (`docs/vision/plan-v1-draft`, `/org/sdk/v1`): no key is lower case only with a word among its parts. */
function isLowerCasePath(run: string): boolean {
  if (!run.includes('/') || !/^[a-z0-9._/-]+$/.test(run)) return false;
  const parts = run.split('/').filter((p) => p !== '');
  return parts.length >= 2 && parts.some((p) => /^[a-z]{3,}$/.test(p) || isSlug(p));
}

/**
 * A path of words and numbers (`spaces/OPS/pages/40213377`, a wiki page's URL cut at a dot):
 * two slashes or more, each part all letters, all digits or a slug. A key with slashes
 * (base64, a webhook's path) has parts that mix letters and digits.
 */
export function isWordPath(run: string): boolean {
  const parts = run.split('/');
  if (parts.length < 3) return false;
  for (const p of parts) if (p !== '' && !/^(?:[A-Za-z]+|\d+)$/.test(p) && !isSlug(p)) return false;
  return true;
}

/**
 * A storage path of ids (`project/pr_x1Y2/tool_router_session/trs_Z9/file`): three parts or more,
 * two of them lower-case words or words joined by `_`/`-`. A key with slashes (base64) has no
 * two parts that are words.
 */
export function isIdPath(run: string): boolean {
  const parts = run.split('/');
  if (parts.length < 3) return false;
  let words = 0;
  for (const p of parts) if (p.length >= 4 && /^[a-z]+(?:[_-][a-z]+)*$/.test(p)) words++;
  return words >= 2;
}

/**
 * Names joined (`PANEL_INK/INK2/BAR_BG/`, a list of constants): three parts or more between
 * `/`, `_` and `-`, each a word of one case with at most two digits after it. A key's parts mix
 * cases and digits.
 */
const NAME_PART = /^(?:[A-Z]+|[a-z]+)\d{0,2}$/;
export function isNamesJoined(run: string): boolean {
  let parts = 0;
  for (const p of run.split(/[/_-]/)) {
    if (p === '') continue;
    if (!NAME_PART.test(p)) return false;
    parts++;
  }
  return parts >= 3;
}

export function isBareKey(run: string): boolean {
  // `/=+$/` removed by hand: few runs end in `=`, and a replace is a builtin call on every run.
  let cut = run.length;
  while (cut > 0 && run.charCodeAt(cut - 1) === 61 /* = */) cut--;
  const body = cut === run.length ? run : run.slice(0, cut);
  // `=` inside (padding was cut above): an assignment (`Environment=NAME=value`), not base64.
  if (UUID.test(body) || NAMED_UUID.test(body) || isSlug(body) || isLowerCasePath(body) || body.includes('='))
    return false;
  if (body.includes('/') && (isWordPath(body) || isIdPath(body))) return false;
  if (isNamesJoined(body)) return false;
  // 32+ hex is a key here; git SHAs were already excluded by the line (commit, sha, revision, /commit/).
  if (/^[0-9a-f]{32,}$/i.test(body)) return true;
  return /[A-Za-z]/.test(body) && /\d/.test(body) && !isPlaceholder(body);
}

/** BARE_RUN's run class: without 32 of these in a row there is nothing to look at (hasRun). */
const RUN_CHARS = asciiSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-');
const hasBareRun = (line: string) => hasRun(line, RUN_CHARS, 32);

const FILE_SUFFIX_AFTER = new RegExp(`^\\.(?:${FILE_EXTENSIONS})(?![A-Za-z0-9])`, 'i');

function bareKeys(line: string, out: Hit[], why: string): void {
  if (!hasBareRun(line) || NOT_SECRET_LINE.test(line)) return;
  BARE_RUN.lastIndex = 0;
  for (let m = BARE_RUN.exec(line); m !== null; m = BARE_RUN.exec(line)) {
    // `nodekey:…`, `mkey:…`: a typed identifier glued to its type name is an id, not a key.
    if (
      /[A-Za-z]:$/.test(line.slice(Math.max(0, m.index - 2), m.index)) &&
      !/(?:password|passwd|secret|token|apikey|api_key)\s*:$/i.test(line.slice(0, m.index))
    )
      continue;
    const after = m.index + m[0].length;
    // A path cut at the dot of its file type (`…/skills/router-ax3000/SKILL.md:1`) is a file.
    if (m[0].includes('/') && FILE_SUFFIX_AFTER.test(line.slice(after, after + 14))) continue;
    if (!isBareKey(m[0]) || notAKeyHere(line, m.index, after)) continue;
    // A run right before `: ` labels what follows (a chat log's sender, `<id>: message`): a name.
    if (NAME_BEFORE_COLON.test(line.slice(after, after + 2))) continue;
    // On a table row, the key word must be in the run's own cell or the row's label (its first
    // cell): another cell describing an event (`new secret deployed | chat <message id>`) names none.
    if (why === 'on a line naming a key' && (!keyNamedInCell(line, m.index) || !keyNamedInClause(line, m.index, after)))
      continue;
    push(out, m.index, m[0], 'secret.bare-key', `key-like value ${why}`);
  }
}

const NAME_BEFORE_COLON = /^[:：]\s/;

/** Where a clause ends: a sentence's stop and a space, `; `, and the CJK stops. */
const CLAUSE_STOP = /[。，；！？]|[.;!?]\s/g;
/**
 * Does the clause holding the run [start, end) name a key? A key word in another clause of the
 * line (`…, test after the API key arrives，voice A <id>/voice B <id>`) names none of it.
 */
function keyNamedInClause(line: string, start: number, end: number): boolean {
  let from = 0;
  let to = line.length;
  CLAUSE_STOP.lastIndex = 0;
  for (let m = CLAUSE_STOP.exec(line); m !== null; m = CLAUSE_STOP.exec(line)) {
    if (m.index < start) from = m.index + m[0].length;
    else if (m.index >= end) {
      to = m.index;
      break;
    }
  }
  return from === 0 && to === line.length ? true : LINE_NAMES_SECRET.test(line.slice(from, to));
}

/**
 * Does the run at `at` stand in a table cell, or a row whose first cell, naming a key — or
 * outside any cell (between a row's first and last `|`)? A row may be a list item too (`- | … |`).
 */
function keyNamedInCell(row: string, at: number): boolean {
  const first = row.indexOf('|');
  if (first === -1 || first > at || row.indexOf('|', at) === -1) return true;
  const all = cells(row);
  let own: { text: string } | undefined;
  for (const c of all) if (c.start <= at) own = c;
  return (
    (own !== undefined && LINE_NAMES_SECRET.test(own.text)) ||
    (all[0] !== undefined && LINE_NAMES_SECRET.test(all[0].text))
  );
}

/** The words of a `label:` right before a run (back to a `,`, `;`, `|`, bracket or quote), emphasis and an opening quote allowed between. */
const LABEL_RIGHT_BEFORE = onFirstUse(() => /([\p{L}][^,;|()[\]:：=`'"]*?)[*_]*\s*[:：=]\s*[*_]*\s*[`'"]?\s*$/u);
/** A label word that names a key, a token, a secret or a password, in the languages of docs/credentials.md §2. */
const KEY_LABEL_WORD =
  /key|token|secret|pass|pw|pwd|cred|auth|bearer|cookie|session|sig|hmac|jwt|ключ|токен|пароль|секрет|密|钥|鑰|キー|トークン|パスワード|키|토큰|비번|비밀번호|암호|clave|chave|schl[üu]ssel|cl[ée]|senha|contrase|m[ậa]t|passwort/i;
/** Does a part of a URL's path hold a key: 16 or more characters mixing letters and digits? */
function urlPartIsKey(path: string): boolean {
  // A webhook's secret ends its path (`…/T0AB/B9XY/<secret>`); a key-like part with more parts
  // after it is the id of what they address (`posts/xq5taGA6Tz6YShCB9/title-words`), unless it is
  // as long as a token (32 or more).
  const parts = path.split('/').filter(Boolean);
  const keyLike = (p: string, min: number) =>
    p.length >= min && /[A-Za-z]/.test(p) && /\d/.test(p) && !/^[a-z]+(?:-[a-z0-9]+)+$/.test(p);
  return parts.some((p, i) => keyLike(p, i === parts.length - 1 ? 16 : 32));
}
const JWT_IN = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/;
/** A key cut short for the note (`…`, `...` right after it). */
const TRUNCATED_AFTER = /^(?:…|\.{3})/;
/** An id named right before the run, or the object it identifies: `(id X`, `ID: X`, `zone: X`, ``project `X` ``. */
const ID_BEFORE = onFirstUse(
  () =>
    /(?:^|[^\p{L}])(?:id|uuid|guid|zone|project|проект\p{L}*|doc|document|sheet|folder|script|site|workspace)[*_]*\s*[:=#]?[*_]*\s*[([`'"]?\s*$/iu,
);
/** A parenthesis right after a run that names it an id: `` `X` (currency UUID) ``, `X (document id)`. */
const ID_AFTER = onFirstUse(() => /^[`'"*_]*\s*\((?:[\p{L}-]+\s+){0,2}(?:id|ids|uuid|guid|hash)\)/iu);
/** A document's address: its id is in the path (Google Docs, Sheets, Drive, Notion, Dropbox, OneDrive, SharePoint). */
export const DOCUMENT_URL =
  /(?:docs|drive|sheets|slides)\.google\.com|notion\.(?:so|site)|dropbox\.com|onedrive|sharepoint|feishu\.cn|larksuite\.com|larkoffice\.com|\/(?:d|folders|file|document|spreadsheets|presentation|forms|docx|base|wiki|sheets|bitable|mindnote)\//i;
const TOKEN_STOP = asciiSet(' \t`\'"()[]<>|,;');
/** The white-space-free token around [start, end), cut at quotes, brackets and separators. */
function tokenAround(line: string, start: number, end: number): string {
  let a = start;
  while (a > 0 && !inAscii(TOKEN_STOP, line.charCodeAt(a - 1))) a--;
  let b = end;
  while (b < line.length && !inAscii(TOKEN_STOP, line.charCodeAt(b))) b++;
  return line.slice(a, b);
}
/**
 * A long run that is not a key where it stands (docs/credentials.md §2, "Not credentials"):
 * cut short (`…`), named an id, part of a document's address, a blockchain address or a
 * password hash (`$2b$10$…`).
 */
function notAKeyHere(line: string, start: number, end: number): boolean {
  if (TRUNCATED_AFTER.test(line.slice(end, end + 3))) return true;
  // The value of a label that names something else (`Drive Root: X` on a line that mentions a key elsewhere).
  const label = LABEL_RIGHT_BEFORE().exec(line.slice(Math.max(0, start - 60), start))?.[1];
  if (label !== undefined && !KEY_LABEL_WORD.test(label)) return true;
  // `Access Key: <hex>`: an access key's id in one case (its secret is the secret key).
  if (label !== undefined && ACCESS_KEY_ID_LABEL.test(label) && ID_CHARS.test(line.slice(start, end))) return true;
  // A key file's name (`<hex>.txt`): a file.
  if (FILE_SUFFIX_AFTER.test(line.slice(end, end + 14))) return true;
  if (ID_BEFORE().test(line.slice(Math.max(0, start - 12), start))) return true;
  // Named an id in parentheses right after it (`` `X` (currency UUID) ``): an id.
  if (ID_AFTER().test(line.slice(end, end + 40))) return true;
  const token = tokenAround(line, start, end);
  if (token.length > end - start) {
    if (isHashOrAddress(token)) return true;
    // A part of a URL's path (`host.example/owner/repo-name/settings`): a place, unless one of its
    // parts is a key of its own (a webhook's path ends in one).
    if (token.includes('://') && line.slice(start, end).includes('/') && !urlPartIsKey(line.slice(start, end)))
      return true;
    if (token.includes('://') && DOCUMENT_URL.test(token)) return true;
    // A part of a JWT whose claims make it a public client key (an anon key).
    const jwt = JWT_IN.exec(token);
    if (jwt !== null && isPublicJwt(jwt[0])) return true;
  }
  return isHashOrAddress(line.slice(start, end));
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const PASSWORD_HEADER =
  /^(?:passwords?|passwd|pw|pwd|pass|passphrase|secrets?|client secret|pin|비번|비밀번호|암호|密码|密碼|パスワード|пароль|contraseña|mot de passe|passwort|kennwort|senha|(?:initial|default|admin|root|db|login)[ _-]?(?:password|pw|pass))$/i;
const KEY_HEADER = /(?<![A-Za-z])(?:api[ _-]?)?(?:keys?|tokens?|secrets?|passwords?|credentials?)(?![a-z])/i;
const HEADER_NOT =
  /\b(?:ids?|name|type|scope|scopes|expir\w*|hint|location|where|vault|public|pubkey|fingerprint|rotation|created|owner|notes?|description|purpose|used|file|path)\b/i;

function cells(row: string): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = [];
  let i = row.indexOf('|');
  while (i !== -1) {
    const next = row.indexOf('|', i + 1);
    if (next === -1) break;
    const raw = row.slice(i + 1, next);
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), start: i + 1 + lead });
    i = next;
  }
  return out;
}

type ColumnKind = 'password' | 'key' | 'login' | null;

/** A column of logins or credentials (`Login`, `Access`, `Credentials`): its cells hold pairs, or the names of stored credentials. */
const LOGIN_HEADER =
  /^(?:logins?|access|accounts?|credentials?|creds|auth|sign[ -]?in|계정|로그인|账号|帳號|アカウント|ログイン|zugang\w*|identifiants?|acceso|credenciales|tài khoản)$/i;

function columnKind(header: string): ColumnKind {
  const h = header.replace(/[*_`]/g, '').trim();
  if (PASSWORD_HEADER.test(h)) return 'password';
  if (LOGIN_HEADER.test(h)) return 'login';
  if (KEY_HEADER.test(h) && !HEADER_NOT.test(h)) return /pass|secret|pw/i.test(h) ? 'password' : 'key';
  return null;
}

/** A header naming a password (any label in another script is taken as one): its cells may be passphrases. */
const PASSWORD_IN_HEADER = /pass|pw|pin|[\u0080-\uffff]/i;

function tableCell(
  cell: { text: string; start: number },
  kind: Exclude<ColumnKind, null>,
  header: string,
  out: Hit[],
): void {
  if (kind === 'login') {
    // A pair (`admin/…`, `` `root / …` ``); a single value only with a symbol (an n8n credential
    // column lists ids of letters and digits, the names of stored credentials).
    const pairs: Hit[] = [];
    detectPairs(cell.text, true, pairs);
    for (const h of pairs) push(out, cell.start + h.start, cell.text.slice(h.start, h.end), h.code, h.what);
    if (pairs.length > 0) return;
    const single = /^(`+|\*\*|")?([^\s`*"]{6,128})\1?$/.exec(cell.text);
    if (single) {
      const v = single[2]!;
      if (isCredentialValue(v) && isPasswordShaped(v) && /[^A-Za-z0-9._-]/.test(v))
        push(out, cell.start + cell.text.indexOf(v), v, 'secret.table-credential', 'value in a login column');
    }
    return;
  }
  let text = cell.text;
  let start = cell.start;
  const q = /^(`+|\*\*|")(.*)\1$/.exec(text);
  if (q) {
    start += q[1]!.length;
    text = q[2]!;
  }
  if (!isCredentialValue(text)) return;
  // A `Secret` or `Token` column listing names (`BUILD_HOOK_TOKEN`): the names of the secrets, as
  // after those labels (isNameNotSecret); a password column may hold a passphrase of words.
  if (!PASSWORD_IN_HEADER.test(header) && (CODE_NAME().test(text) || NO_ASCII_ALNUM.test(text))) return;
  // Key/token columns also hold ids and names: only a long mixed run is a key there.
  // A key's shape too: a citation key or a slug with a year (`name2023word`) is a row's name.
  if (
    kind === 'key' &&
    !(codePoints(text) >= 16 && isBareKey(text) && !/\s/.test(text) && (isKeyShaped(text) || UUID.test(text)))
  )
    return;
  push(
    out,
    start,
    text,
    'secret.table-credential',
    `value in a ${kind === 'password' ? 'password' : 'key/token'} column`,
  );
}

// ---------------------------------------------------------------------------
// Sections: the lines under a heading, or after a label line, that names credentials
// ---------------------------------------------------------------------------

interface Section {
  /** The first line under the heading or label line. */
  from: number;
  /** The heading's level (1–6): the section ends at a heading of this level or higher; 7 for a label line. */
  level: number;
  kind: 'password' | 'key';
  /** A label line opens the next non-blank line only, and the list nested under it. */
  oneLine: boolean;
  /** The label line's indentation: the lines of its nested list are indented more. */
  indent: number;
  /** The heading or label names PINs (`PIN scheme:`): six to ten digits under it are PINs. */
  pin: boolean;
}

/** The level of a Markdown heading (`## x` is 2), 0 when the line is none. */
function headingLevel(line: string): number {
  const m = /^\s{0,3}(#{1,6})\s/.exec(line);
  return m ? m[1]!.length : 0;
}

/**
 * A label line: a short line ending with a colon (`Wi-Fi password:`, `**DB 비밀번호**:`, a bold
 * label holding a code span `**PIN scheme (in \`table\`):**`) or a short line wholly in emphasis
 * (`**Admin creds**`), its value on the line after it or in the list nested under it.
 */
const LABEL_LINE =
  /^\s*(?:[-*+]\s+)?(?:[*_]{1,2}[^*_`]{1,60}[*_]{1,2}\s*[:：]?|[^`|]{1,60}[:：]\s*[*_]{0,2}|[*_]{2}[^*|]{1,60}[:：][*_]{2})\s*$/;
function isLabelLine(line: string): boolean {
  if (line.length > 80) return false;
  // It ends with a colon or with emphasis (white space after it aside): one look before the regex.
  let e = line.length - 1;
  while (e >= 0 && isJsSpace(line.charCodeAt(e))) e--;
  const c = line.charCodeAt(e);
  return (c === 58 || c === 0xff1a || c === 42 || c === 95) && LABEL_LINE.test(line);
}

/** A section reaches at most this many lines: a long note's heading says little about its end. */
const SECTION_LINES = 40;

function underSection(text: string, starts: readonly number[], sec: Section, buf: Hit[], hits: Hit[]): void {
  let seen = 0;
  for (let l = sec.from; l < starts.length && l < sec.from + SECTION_LINES; l++) {
    const line = lineOfText(text, starts, l);
    const level = headingLevel(line);
    if (level > 0 && level <= sec.level) break;
    // A table's rows answer to their column headers (the table loop), not to the heading.
    if (sec.oneLine && seen >= 1 && line.trim() === '') break;
    if (level > 0 || line.trim() === '' || /^\s*```/.test(line) || /^\s*\|/.test(line)) continue;
    // A label line's next line, then the items nested under the label (indented more than it).
    if (sec.oneLine && seen >= 1 && spacesAt(line, 0) <= sec.indent) break;
    detectUnderContext(line, sec.kind, buf, sec.pin);
    detectPairs(line, true, buf);
    if (line.length >= 29) detectAppPasswords(line, buf);
    keepHits(buf, hits, l);
    seen++;
  }
}

// ---------------------------------------------------------------------------
// E-mail logins: `name@mail.example / password`
// ---------------------------------------------------------------------------

/** After an `@`: the rest of an e-mail address, a slash, and the start of a value. */
const EMAIL_THEN_SLASH = /[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\s?\/\s?[^\s/]/y;

/** The lines holding an e-mail address followed by ` / ` (one native search for `@` over the text). */
function emailPairLines(text: string, starts: readonly number[]): number[] {
  const out: number[] = [];
  let line = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    EMAIL_THEN_SLASH.lastIndex = at + 1;
    if (!EMAIL_THEN_SLASH.test(text)) continue;
    while (line + 1 < starts.length && starts[line + 1]! <= at) line++;
    if (out[out.length - 1] !== line) out.push(line);
  }
  return out;
}

/**
 * A line naming a key or a token, in the languages of the notes: its neighbours may hold one
 * alone. The words not glued to an ASCII letter before them (`(?<![A-Za-z])`; under the
 * non-Unicode `i` flag only ASCII letters fold to ASCII ones): that look-behind is tested per
 * match of the words (`namesKeyForNeighbours`), not at every position of every selected line
 * (docs/performance-validators.md, "secret-check: fast paths").
 */
export const NEIGHBOUR_KEY_WORDS =
  /(?:api[ _-]?keys?|keys?|tokens?|secrets?|credentials?|apikey|chave|clave|credencial|ключ|токен|密钥|令牌|秘钥|토큰|キー|トークン)(?![a-z])/gi;
export function namesKeyForNeighbours(line: string): boolean {
  NEIGHBOUR_KEY_WORDS.lastIndex = 0;
  for (let m = NEIGHBOUR_KEY_WORDS.exec(line); m !== null; m = NEIGHBOUR_KEY_WORDS.exec(line)) {
    if (m.index === 0 || !isAsciiLetter(line.charCodeAt(m.index - 1))) return true;
    // As the look-behind would: no match starts here, so try from the next position.
    NEIGHBOUR_KEY_WORDS.lastIndex = m.index + 1;
  }
  return false;
}
/** An armour line (`-----BEGIN …`, `-----END …`) or a line of base64 alone: a neighbour inside a block. */
const BLOCK_LINE = /^\s*(?:-----|[A-Za-z0-9+/=]{40,}\s*$)/;
/**
 * A line that is one run of 32 to 512 key characters and nothing else (a code span or emphasis
 * around it aside, and a speaker's name before it: a chat message holding only the key).
 */
const LONE_RUN = /^\s*(?:([^\s:：`*]{1,24})[:：]\s+)?[`*_]{0,2}([A-Za-z0-9+/_=-]{32,512})[`*_]{0,2}\s*$/;
/** A speaker's name before the run (`name: <run>`, a chat message) that names what the run is instead. */
const NOT_A_SPEAKER =
  /id|sha|commit|hash|uuid|url|uri|path|file|sender|name|model|host|user|account|digest|checksum|pub|key|token|secret|pass|sig|fingerprint/i;
/**
 * The key on a line of its own: upper- and lower-case letters and digits mixed, a random
 * string's entropy (4 bits a character or more), not hex (a hash or an id listed alone), not a
 * PEM body line (64 base64 characters) and none of the shapes isBareKey rules out.
 */
function loneKey(line: string): string | null {
  if (line.length < 32 || line.length > 530) return null;
  const m = LONE_RUN.exec(line);
  if (m === null) return null;
  // A chat message holding only the key after its speaker's name (`name: <key>`), then "this is the key".
  if (m[1] !== undefined && NOT_A_SPEAKER.test(m[1])) return null;
  const v = m[2]!;
  if (v.length === 64 && /^[A-Za-z0-9+/]+$/.test(v)) return null;
  if (/^[0-9a-fA-F-]+$/.test(v) || !/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/\d/.test(v)) return null;
  if (entropy(v) < 4 || !isBareKey(v) || isHashOrAddress(v)) return null;
  return v;
}

/** Is `l` in the sorted list `wanted`? */
function wantedHas(wanted: readonly number[], l: number): boolean {
  let lo = 0;
  let hi = wanted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = wanted[mid]!;
    if (w === l) return true;
    if (w < l) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

// ---------------------------------------------------------------------------
// The scan
// ---------------------------------------------------------------------------

/** Line `l` of `text` without its line break (and without a CR before it). */
function lineOfText(text: string, starts: readonly number[], l: number): string {
  const end = (starts[l + 1] ?? text.length + 1) - 1;
  const line = text.slice(starts[l]!, end);
  return line.charCodeAt(line.length - 1) === 13 /* \r */ ? line.slice(0, -1) : line;
}

/** Moves the line's hits from `buf` to `hits`, giving each its line. */
function keepHits(buf: Hit[], hits: Hit[], l: number): void {
  // Most lines push nothing: then the length store (a slow runtime call) is skipped too.
  if (buf.length === 0) return;
  for (const h of buf) {
    h.line = l;
    hits.push(h);
  }
  buf.length = 0;
}

function byLineThenSpan(a: Hit, b: Hit): number {
  return a.line - b.line || a.start - b.start || b.end - a.end;
}

/** Already sorted by byLineThenSpan (most files: a hit or two, in line order): no sort needed. */
function inOrder(hits: readonly Hit[]): boolean {
  for (let i = 1; i < hits.length; i++) if (byLineThenSpan(hits[i - 1]!, hits[i]!) > 0) return false;
  return true;
}

/** `words`: the trigger words' matches already found in `text` (secret-words.ts), when the caller has them. */
export function proseCandidates(
  text: string,
  lineStartsOfText?: readonly number[],
  words?: SecretWords,
): SecretCandidate[] {
  // Which lines to look at: those with a trigger word, plus table rows and lines under a heading.
  const starts = lineStartsOfText ?? lineStarts(text);
  const wanted = wantedLines(text, starts, words);

  // Detectors push line-relative hits into `buf`; keepHits gives them their line and keeps them.
  const hits: Hit[] = [];
  const buf: Hit[] = [];

  const headingUntil: Array<[number, number]> = [];
  const keyLines: number[] = [];
  const sections: Section[] = [];
  let tableCandidate = false;
  for (const l of wanted) {
    const line = lineOfText(text, starts, l);
    if (line.length > 4000 && !line.includes('|')) {
      // A very long line is data, not a note: only the bare-key rule applies (it is one linear regex).
      if (LINE_NAMES_SECRET.test(line.slice(0, 200))) bareKeys(line, buf, 'on a line naming a key');
      keepHits(buf, hits, l);
      continue;
    }
    // mayHoldValue(line), read on the text (the line is its characters from starts[l]).
    const from = starts[l]!;
    if (runsMayHoldValue(text, from, from + line.length) || line.includes('chpasswd')) detectLine(line, buf);
    // Application passwords are groups of four: no run of six for the gate above to see.
    if (line.length >= 29) detectAppPasswords(line, buf);
    // Both tests are pure: the cheap run test first (bareKeys would make it anyway).
    if (hasBareRun(line) && LINE_NAMES_SECRET.test(line)) bareKeys(line, buf, 'on a line naming a key');
    keepHits(buf, hits, l);
    if (namesKeyForNeighbours(line)) keyLines.push(l);
    // `/^\s{1,3}#/`: one to three white-space characters, then `#`.
    const hashAt = spacesAt(line, 0, 3);
    if (line.charCodeAt(hashAt) === 35 /* # */) {
      if (HEADING_NAMES_SECRET.test(line)) headingUntil.push([l, l + 3]);
      const level = headingLevel(line);
      const kind = level > 0 ? sectionKind(line) : null;
      if (kind !== null) sections.push({ from: l + 1, level, kind, oneLine: false, indent: 0, pin: false });
    } else if (isLabelLine(line)) {
      const pin = PIN_WORD().test(line);
      const kind = sectionKind(line) ?? (pin ? 'password' : null);
      if (kind !== null) sections.push({ from: l + 1, level: 7, kind, oneLine: true, indent: spacesAt(line, 0), pin });
    }
    if (!tableCandidate && line.includes('|')) tableCandidate = true;
  }
  // Under a heading that names a key, within 3 lines.
  for (const [h, until] of headingUntil) {
    for (let l = h + 1; l <= until && l < starts.length; l++) {
      const line = lineOfText(text, starts, l);
      if (/^\s{0,3}#{1,6}\s/.test(line)) break;
      bareKeys(line, buf, 'under a heading naming a key');
      keepHits(buf, hits, l);
    }
  }
  // A key pasted alone on its line, right before or after a line naming one (`<run>` then "saved the
  // new key"): the value's shape and its neighbour together (docs/credentials.md §2).
  let lastLone = -1;
  for (const l of keyLines) {
    for (let n = Math.max(0, l - 2); n <= l + 2 && n < starts.length; n++) {
      if (n === l || n <= lastLone) continue;
      const line = lineOfText(text, starts, n);
      const v = loneKey(line);
      if (v === null) continue;
      // A line of a block (a PEM body, a base64 dump): its neighbours are lines of the same kind.
      if (n > 0 && BLOCK_LINE.test(lineOfText(text, starts, n - 1))) continue;
      if (n + 1 < starts.length && BLOCK_LINE.test(lineOfText(text, starts, n + 1))) continue;
      lastLone = n;
      push(buf, line.indexOf(v), v, 'secret.bare-key', 'key-like value alone beside a line naming a key');
      keepHits(buf, hits, n);
    }
  }
  // `name@mail.example / password`: an e-mail login and its password, a pair no login word need name.
  for (const l of emailPairLines(text, starts)) {
    if (wantedHas(wanted, l)) continue; // the line detectors saw it
    detectPairs(lineOfText(text, starts, l), false, buf);
    keepHits(buf, hits, l);
  }
  // Under a heading or a label line naming credentials: values by their shape (secrets-context.ts).
  for (const sec of sections) underSection(text, starts, sec, buf, hits);
  // Markdown tables: a header row naming a credential column, then its rows.
  if (tableCandidate) {
    for (const l of wanted) {
      const header = lineOfText(text, starts, l);
      if (!header.includes('|') || !TABLE_ROW.test(header) || !TABLE_SEP.test(lineOfText(text, starts, l + 1)))
        continue;
      const heads = cells(header);
      const kinds = heads.map((c) => columnKind(c.text));
      if (!kinds.some((k) => k !== null)) continue;
      for (let r = l + 2; r < starts.length; r++) {
        const row = lineOfText(text, starts, r);
        if (!TABLE_ROW.test(row)) break;
        for (const [i, c] of cells(row).entries()) {
          const kind = kinds[i];
          if (kind) tableCell(c, kind, heads[i]!.text, buf);
        }
        keepHits(buf, hits, r);
      }
    }
  }

  // One finding per value: the first detector to claim a range keeps it.
  if (hits.length > 1 && !inOrder(hits)) hits.sort(byLineThenSpan);
  const out: SecretCandidate[] = [];
  if (hits.length === 0) return out;
  let lastEnd = -1;
  for (const h of hits) {
    const start = starts[h.line]! + h.start;
    const end = starts[h.line]! + h.end;
    if (start < lastEnd) continue;
    lastEnd = end;
    const length = codePoints(text.slice(start, end));
    out.push({ start, end, code: h.code, message: `${h.what} …(${length} chars)`, tier: TIER });
  }
  return out;
}
