/**
 * The shape of a credential value found by its context rather than tied to a label
 * (docs/credentials.md §2, "Context and shape"): length, character classes, entropy, and
 * not being a word, an id, a path, a hash, an address or a placeholder. isCredentialValue
 * (secrets-prose.ts) is the floor every value passes; these tests ask more of a value the
 * farther it sits from the word that names it.
 */

/** Character classes of `v`: lower, upper, digit, other symbol (`-`, `_` and `.` join words: not symbols). */
export function classesOf(v: string): {
  lower: boolean;
  upper: boolean;
  digit: boolean;
  symbol: boolean;
  count: number;
} {
  let lower = false;
  let upper = false;
  let digit = false;
  let symbol = false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c >= 48 && c <= 57) digit = true;
    else if (c === 45 || c === 95 || c === 46) continue;
    else if (c >= 128)
      lower = true; // a letter of another script counts as a letter
    else symbol = true;
  }
  return { lower, upper, digit, symbol, count: +lower + +upper + +digit + +symbol };
}

/** Shannon entropy in bits per character. */
export function entropy(v: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / v.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Blockchain addresses and transaction hashes (`0x` + 40 or 64 hex): public, not secrets. */
const CHAIN_ADDRESS = /^0x(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;
/** Password hashes (`$2b$12$…` bcrypt, `$argon2id$…`, `$6$…` crypt): what a system stores instead of the password. */
const PASSWORD_HASH = /^\$(?:2[abxy]?|argon2(?:id|i|d)|[156y]|scrypt|pbkdf2[\w-]*)\$/;
/** A lower-case name joined by `-`/`_`/`.` (or `__`/`--`, a CSS class: `card__text--clamp-5`) with digits (`svc-backup-01`, `node_v18`, `brand-500`): a name, not a password. */
const LOWER_NAME = /^[a-z][a-z0-9]*(?:(?:[-_.]|__|--)[a-z0-9]+)+$/;
/** A lower-case host name, maybe with a port (`nas.lan:5001`, `box.example.org`); `Blue.Fish.42` is none. */
export const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*(?::\d{1,5})?$/;
/** A time, a date or a version in any common writing (`802.11be`, a standard's amendment, too). */
const DATE_TIME_VERSION =
  /^(?:v?\d+(?:[._]\d+){1,3}[a-z]{0,3}(?:[-+][\w.]+)?|\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?|\d+(?:\.\d+)?(?:ms|s|m|h|d|k|kb|mb|gb|tb|%|px|rem|em)?)$/i;
/** A file name (`approve-2026-06-01.tok`): a name of words and numbers, a dot, a short lower-case type. */
const FILE_LIKE = /^[\w.-]*[A-Za-z0-9]\.[a-z][a-z0-9]{0,4}$/;
/** A path: a slash between parts, the last one a word, a slug or a file (`.secrets/gh-token-2.txt`). */
const PATH_LIKE = /^[~.]{0,2}\/?(?:[\w.@-]+\/)+[\w.@-]*$/;
/** Code: a setting (`autoRefresh:false`), a call, a comparison, an arrow, a reference (`${X}`, `$(…)`), an assignment (`K=…`, judged by the env rule), a flag, a property path. */
/** A price (`$6.50/user/month`, `€12`): an amount, however many letters follow. */
const PRICE = /^[~≈<>]?[$€£¥]\d/;
/**
 * Markup and code, not a value (docs/credentials.md §2, "Not credentials"): an XML or HTML tag
 * (`key>Label</key`, a plist's line), text escaped for HTML (`&quot;`), a generic type
 * (`Omit<User`).
 */
const MARKUP_OR_CODE = /<\/|^[A-Za-z][\w.-]*>|&(?:quot|amp|lt|gt|apos|#\d{2,5});?|^[A-Z]\w*<[A-Z]/;
/** MARKUP_OR_CODE, read only when the value holds `<`, `>` or `&` (most hold none). */
export function isMarkupOrCode(v: string): boolean {
  return (v.includes('<') || v.includes('>') || v.includes('&')) && MARKUP_OR_CODE.test(v);
}
/** A model's name with its size in parameters (`Qwen3-8B`, `Llama-3.1-70B-Instruct`, `gemma-2-9b-it`). */
export const MODEL_SIZE = /^[A-Za-z][\w.]*-(?:[\w.]+-)*\d+(?:\.\d+)?[BbMm](?:-[\w.]+)*$/;
/** An address of a service with a scheme and no `//` (`stun:stun.example.org:3478`). */
const SCHEME_HOST = /^[a-z][a-z0-9+.-]*:[a-z0-9.-]+\.[a-z]{2,}(?::\d+)?$/;
const CODE_LIKE =
  /^[A-Za-z_][\w.-]*[:=](?:true|false|null|none|yes|no|on|off|ok|\d{1,6})$|\(\)|={2}|!=|=>|->|&&|\|\||\$\{|\$\(|^--?[A-Za-z]|^[A-Za-z_][\w.-]*=|^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$.]*$/;
/** Lower-case letters, a number, lower-case letters (`geiger2023foundation`, a citation key): a name, not a key. */
const WORDS_AROUND_NUMBER = /^[a-z]{2,}\d{1,4}[a-z]{2,}$/;
/** Parts of words and numbers joined by `-`, `_` or `.` (`nightly-backup-job-2026`): a name, however long. */
const WORD_SLUG = /^(?:[A-Za-z]+|\d+|[A-Za-z]{1,3}\d{1,3})(?:[-_.](?:[A-Za-z]+|\d+|[A-Za-z]{1,3}\d{1,3}))+$/;
/**
 * A product or model name with its dotted version (`chat-model-2.0-flash`, `gpt-5.3-codex`,
 * `MiniMax-M2.7`): words joined by `-`, one part a version (`2.0`, `M2.7`). A name, after a key
 * word as in a pair (docs/credentials.md, "Not credentials").
 */
export const VERSIONED_NAME = /^[A-Za-z]+(?:-[A-Za-z]+)*-[A-Za-z]{0,2}\d+(?:\.\d+)+(?:-[A-Za-z]+)*$/;
/** The fields of a format (`ip:port:user:pass:HTTP2`): two lower-case names or more, each followed by `:`. */
const FIELD_FORMAT = /^(?:[a-z]{2,10}:){2,}/;
/** Groups of hex in capitals joined by `-` (`B0458164-7F336A6D-F45BA74F`): a serial or an id, as a UUID is. */
const HEX_GROUPS_UPPER = /^[0-9A-F]{4,}(?:-[0-9A-F]{4,}){2,}$/;
/** Lower-case hex of 7 to 40 characters: a commit or an object id. */
const SHORT_HEX = /^[0-9a-f]{7,40}$/;

/**
 * A bech32 address (`bc1q…`, `erd1…`, `cosmos1…`): a lower-case prefix, `1`, then 38 or more of
 * the bech32 alphabet, which has no `b`, `i`, `o` or `1`; a random key of that length holds one
 * of those four almost always (docs/credentials.md §2, "Not credentials").
 */
const BECH32_ADDRESS = /^[a-z]{2,10}1[02-9ac-hj-np-z]{38,90}$/;
/** Hex of 16 or more digits whose bytes are all printable ASCII: text written in hex (`Token hex: 434f…`), not a key. */
function isHexText(v: string): boolean {
  if (v.length < 16 || v.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(v)) return false;
  for (let i = 0; i < v.length; i += 2) {
    const b = Number.parseInt(v.slice(i, i + 2), 16);
    if (b < 0x20 || b > 0x7e) return false;
  }
  return true;
}

/**
 * A Google OAuth client id (`<project number>-<32 letters and digits>`, maybe with its
 * `.apps.googleusercontent.com` and glued to a file name's `client_secret_`): an id, under a
 * `client_secret` label too (the secret is another string).
 */
const OAUTH_CLIENT_ID = /(?:^|_)\d{9,14}-[a-z0-9]{32}(?:\.apps\.googleusercontent\.com)?$/;

/** A blockchain address, a password hash or an OAuth client id: never a credential, wherever it stands. */
export function isHashOrAddress(v: string): boolean {
  return (
    CHAIN_ADDRESS.test(v) ||
    PASSWORD_HASH.test(v) ||
    BECH32_ADDRESS.test(v) ||
    isHexText(v) ||
    (v.length >= 42 && OAUTH_CLIENT_ID.test(v))
  );
}

/** Is `v` something that is not a secret by its shape alone (an address, a hash, a host, a date, a file, a path, code)? */
export function isNotSecretShape(v: string): boolean {
  return (
    isHashOrAddress(v) ||
    HOST.test(v) ||
    SCHEME_HOST.test(v) ||
    PRICE.test(v) ||
    v.includes('://') ||
    DATE_TIME_VERSION.test(v) ||
    FILE_LIKE.test(v) ||
    (v.includes('/') && PATH_LIKE.test(v)) ||
    CODE_LIKE.test(v) ||
    FIELD_FORMAT.test(v) ||
    isMarkupOrCode(v)
  );
}

/**
 * A password as people write one, found by the words around it rather than a label right before
 * it: 6 to 128 characters, a letter, and a digit or a symbol; two classes at least, not a lower-case
 * name (`svc-backup-01`), and none of the shapes isNotSecretShape names. `strict` (after a word that
 * is also a verb, `pass`) asks three classes.
 */
export function isPasswordShaped(v: string, strict = false): boolean {
  if (v.length < 6 || v.length > 128) return false;
  // Passwords found by context are ASCII: a value glued to words of another script is prose (`访问：https://…`).
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) > 126) return false;
  const k = classesOf(v);
  if (!(k.lower || k.upper) || !(k.digit || k.symbol)) return false;
  if (k.count < (strict ? 3 : 2)) return false;
  if (!k.upper && !k.symbol && LOWER_NAME.test(v)) return false;
  if (SHORT_HEX.test(v) || NOT_A_PASSWORD.test(v) || VERSIONED_NAME.test(v) || MODEL_SIZE.test(v)) return false;
  return !isNotSecretShape(v);
}

/**
 * Shapes of names, ids and amounts that pass the class test (docs/credentials.md §2): a list
 * (`a,b,c`), a word and its punctuation (`Valid!`, a message), a link anchor (`notes#M44`), a handle (`@name`), a possessive (`yesterday's`), an
 * amount with its unit (`311GiB`, `~300K-2M`, `-168.8%`), an id in capitals (`TASK-2026-027`,
 * `RTX900_PASS`, `EIP-1271`), a typed object id (`price_1TRA8p…`, `prod_UQ09…`), a call or a
 * decorator (`@task(3)`), code (`self.x`, `a['b']`), a lower-case name starting with a number
 * (`2026-milan`).
 */
const NOT_A_PASSWORD =
  /,|#|\||^[A-Z]?[a-z]+[!?.]+$|^@|^[A-Za-z]+'[a-z]{1,2}$|^[~≈<>+-]?\d[\d.,]*\s?(?:[KMGTkmgt]i?[Bb]?|ms|s|h|d|%|px|k|m|x)?(?:[-–~]\d[\d.,]*[KMGTkmgt%]?)?$|^[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+$|^[a-z]{2,10}_[A-Za-z0-9]{8,}$|[A-Za-z_]\(|^(?:self|this|cls)\.|\w\[|^\d+(?:[-_.][a-z][a-z0-9]*)+$/;

/**
 * A key or token found by context (after `Bearer`, in a short shell name, under a heading): 16
 * or more characters, letters and digits mixed, and the entropy of a random string (3.5 bits a
 * character or more: `aaaa1111bbbb2222` is not one).
 */
export function isKeyShaped(v: string): boolean {
  if (v.length < 16 || v.length > 512) return false;
  const k = classesOf(v);
  if (!k.digit || !(k.lower || k.upper)) return false;
  if (isNotSecretShape(v) || WORD_SLUG.test(v) || WORDS_AROUND_NUMBER.test(v) || HEX_GROUPS_UPPER.test(v)) return false;
  return entropy(v) >= 3.5;
}

/**
 * Letters with no word in them: 12 to 64 ASCII letters holding five consonants in a row, or
 * with fewer than three vowels in ten and a run of three consonants (`app password (\`…\`)`, a
 * generated app password of sixteen lower-case letters). Words of the languages of the notes
 * rarely hold five consonants in a row and have more vowels; a random run of 12 rarely does.
 */
const FIVE_CONSONANTS = /[bcdfghjklmnpqrstvwxz]{5}/i;
const THREE_CONSONANTS = /[bcdfghjklmnpqrstvwxz]{3}/i;
export function isRandomLetters(v: string): boolean {
  if (v.length < 12 || v.length > 64 || !/^[A-Za-z]+$/.test(v)) return false;
  if (FIVE_CONSONANTS.test(v)) return true;
  let vowels = 0;
  for (let i = 0; i < v.length; i++) if ('aeiouAEIOU'.includes(v[i]!)) vowels++;
  return vowels / v.length < 0.3 && THREE_CONSONANTS.test(v);
}

/** An application password: six groups of four letters and digits separated by single spaces, letters and digits mixed. */
const APP_PASSWORD = /(?<![A-Za-z0-9])[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5}(?![A-Za-z0-9])/g;
/**
 * Is there a run of six groups of four ASCII letters or digits, separated by single spaces?
 * One pass over the characters: the regex below runs only on the lines where this is true
 * (docs/performance-validators.md, "Where the time goes": each distinct regex run per line costs instruction cache).
 */
export function hasSixGroupsOfFour(line: string): boolean {
  // Each group but the first follows a space: from every space, look for five groups after it
  // (indexOf finds the spaces natively; most spaces fail on the first group).
  for (let sp = line.indexOf(' '); sp !== -1 && sp + 25 <= line.length; sp = line.indexOf(' ', sp + 1)) {
    // The group before the space is exactly four (no letter or digit five back) and so is the one after.
    if (sp < 4 || (sp > 4 && isAlnum(line.charCodeAt(sp - 5))) || line.charCodeAt(sp + 5) !== 32) continue;
    if (!fourAlnumAt(line, sp - 4)) continue;
    let g = 1;
    let at = sp;
    while (g < 6 && line.charCodeAt(at) === 32 && fourAlnumAt(line, at + 1)) {
      g++;
      at += 5;
    }
    if (g === 6) return true;
  }
  return false;
}
const isAlnum = (c: number) => (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122);
function fourAlnumAt(line: string, at: number): boolean {
  return (
    isAlnum(line.charCodeAt(at)) &&
    isAlnum(line.charCodeAt(at + 1)) &&
    isAlnum(line.charCodeAt(at + 2)) &&
    isAlnum(line.charCodeAt(at + 3))
  );
}

export function appPasswords(line: string): Array<{ start: number; value: string }> {
  const out: Array<{ start: number; value: string }> = [];
  if (line.length < 29 || !hasSixGroupsOfFour(line)) return out;
  APP_PASSWORD.lastIndex = 0;
  for (let m = APP_PASSWORD.exec(line); m !== null; m = APP_PASSWORD.exec(line)) {
    const joined = m[0].replace(/ /g, '');
    const k = classesOf(joined);
    // Six four-letter words of prose are letters only; a random 24 has digits or mixed case in most groups.
    const groups = m[0].split(' ');
    const mixedGroups = groups.filter((g) => /\d/.test(g) || /[A-Z]/.test(g.slice(1))).length;
    // An IBAN or a card number in groups of four is mostly digits; a random 24 has letters in most groups.
    const letterGroups = groups.filter((g) => /[A-Za-z]/.test(g)).length;
    if (k.digit && k.count >= 2 && mixedGroups >= 3 && letterGroups >= 4) out.push({ start: m.index, value: m[0] });
  }
  return out;
}

/**
 * Two halves of a "pair" that are two names of one list, not a user and a password: codes in
 * capitals and digits both (`XR240M/XR360M`, models), or names of one length differing in one
 * or two places (`radio_x-6g`, `radio_x-5g`, siblings).
 */
export function areSiblings(a: string, b: string): boolean {
  if (/^[A-Z0-9-]+$/.test(a) && /^[A-Z0-9-]+$/.test(b) && /\d/.test(a) && /\d/.test(b)) return true;
  // Two acronyms (`MCP/A2A-style`): alternatives named in capitals, not a user and a password.
  if (/^[A-Z]{2,6}$/.test(a) && /^[A-Z][A-Z0-9]{1,5}(?:-[a-z]+)?$/.test(b)) return true;
  if (a.length !== b.length || a.length < 6) return false;
  let diff = 0;
  for (let i = 0; i < a.length && diff <= 2; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) diff++;
  // Short names (6 or 7) are siblings only one place apart (`item1`/`item2` numbered in a list).
  return diff <= (a.length < 8 ? 1 : 2);
}
