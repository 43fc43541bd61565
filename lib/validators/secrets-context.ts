/**
 * Credentials found by their context and their shape (docs/credentials.md §2, "Context and
 * shape"): a value that no label is tied to, but whose sentence, table column, heading or
 * label line names a credential, and whose shape is a password's or a key's
 * (secrets-shape.ts). The label-tied forms stay in secrets-prose.ts; these detectors run on
 * the same selected lines (and on the lines of a section whose heading names credentials),
 * and a value both claim is reported once.
 */
import { onFirstUse } from '../core/on-first-use';
import { isCredentialValue, trimUnquoted } from './secrets-prose';
import { HOST, appPasswords, areSiblings, isKeyShaped, isPasswordShaped, isRandomLetters } from './secrets-shape';

export interface ContextHit {
  start: number;
  end: number;
  code: string;
  what: string;
  line: number;
}

function push(out: ContextHit[], start: number, value: string, code: string, what: string): void {
  out.push({ start, end: start + value.length, code, what, line: -1 });
}

// ---------------------------------------------------------------------------
// Context words, in the languages the notes use
// ---------------------------------------------------------------------------

/**
 * Words that name a password (a value near one is a password when it has a password's shape).
 * Latin words need a boundary; Korean, Chinese and Japanese glue particles to them.
 */
const PASSWORD_WORDS_LATIN =
  'passwords?|passwort|passwörter|passwd|passphrase|pwd|pw|contraseñas?|contrasenas?|mots? de passe|mdp|kennw[oö]rter|kennwort|senhas?|mật khẩu|mat khau|credentials?|creds|zugangsdaten|identifiants|credenciales';
const PASSWORD_WORDS_OTHER = 'парол[ьяие]|비밀번호|비번|암호|密码|密碼|口令|パスワード|暗証番号';
/**
 * The password words as one scan without look-behind (a leading look-behind makes V8 try the
 * regex at every position); the Latin words' left boundary is checked by hand (latinBoundary).
 * `pass` alone is a label in notes (`pass chung`, `wifi pass`) and a verb in code notes
 * (`pass \`--flag\``): the scan finds it too, and nearWord asks more of its value.
 */
const W = 'A-Za-z0-9_\\u00C0-\\u024F\\u1E00-\\u1EFF';
export const PASSWORD_WORD_RE = new RegExp(`(?:${PASSWORD_WORDS_LATIN}|pass)(?![${W}])|${PASSWORD_WORDS_OTHER}`, 'gi');
const LATIN_WORD_CHAR = new RegExp(`[${W}]`);
function latinBoundary(line: string, at: number): boolean {
  return at === 0 || !LATIN_WORD_CHAR.test(line[at - 1]!);
}
/** A quote that can open a value (quotedIn's openers). */
const ANY_QUOTE = /[`"'«“「(]/;

/** A heading or a label line that opens values: passwords, credentials, logins, in every language. */
const SECTION_PASSWORD =
  /passw|passwd|\bpw\b|\bpwd\b|credential|\bcreds?\b|\blogins\b|contrase|mot de passe|mots de passe|kennw|senha|mật khẩu|парол|비밀번호|비번|암호|密码|密碼|口令|パスワード|zugangsdaten|identifiants|credenciales/i;
/**
 * A heading that names keys or tokens: its values are keys when they have a key's shape. `Key`
 * followed by another word (`Key insights`, `Key packets`, `session key generator`,
 * `key-development`) is the adjective or a compound naming something else; `keys and tokens`,
 * `key for the NAS`, `Keys:` name keys.
 */
const SECTION_KEY =
  /\b(?:api[ _-]?keys?|keys?(?![ \t]*-[A-Za-z]|[ \t]+(?!(?:and|or|for|of|to|&)\b)[A-Za-z])|tokens?|secrets?|bearer)\b/i;

/** A word right before a quoted value saying whose or what it is, not the secret: `for \`svc01\``, `user \`x\``. */
const OWNER_WORDS =
  /(?:^|[^A-Za-z\u00C0-\u024F\u0400-\u04FF])(?:for|of|user|users|username|login|account|acct|host|hostname|server|url|uri|file|path|id|name|email|e-mail|mail|port|db|database|table|field|column|flag|option|env|var|variable|hash|hashed|hint|policy|prompt|menu|page|branch|tag|commit|repo|image|container|service|model|version|project|bucket|region|domain|dir|folder|user名|계정|아이디|用户名|账号|ユーザー)\s*[:=]?\s*$/i;

/** Words between a password word and a value that make the value something else (`password hash \`…\``, `pw policy \`…\``). */
const GAP_NOT_SECRET =
  /(?:^|[^A-Za-z\u00C0-\u024F])(?:hash|hashed|hint|policy|file|files|path|length|field|column|name|names|manager|prompt|dialog|page|screen|form|menu|button|option|flag|env|variable|var|rule|rules|requirement|strength|salt|digest|fingerprint|id|ids|url|uri|endpoint|header|prefix|format|type|expir\w*|rotation|helper|store|stored|command|cmd|mode|scope|count|limit|size|vault|1password|bitwarden|keychain|manager|generator|less|auth(?:entication)?|login|sso|ldap)(?![A-Za-z\u00C0-\u024F])/i;

/** Where a clause ends: `. `, `! `, `? `, `; `, a CJK stop, a pipe (a table cell). */
function clauseEnd(line: string, from: number, limit: number): number {
  const end = Math.min(line.length, limit);
  for (let i = from; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 124 /* | */ || c === 0x3002 || c === 0xff1b) return i;
    if ((c === 46 || c === 33 || c === 63 || c === 59) && (i + 1 >= line.length || line.charCodeAt(i + 1) === 32))
      return i;
  }
  return end;
}

/** Quoted values in `line` between `from` and `to`: backticks, straight and typographic quotes. */
const QUOTE_PAIRS: Record<string, string> = { '`': '`', '"': '"', "'": "'", '«': '»', '“': '”', '「': '」', '(': ')' };
function quotedIn(line: string, from: number, to: number): Array<{ start: number; value: string; open: number }> {
  const out: Array<{ start: number; value: string; open: number }> = [];
  let i = from;
  const firstTick = line.indexOf('`', from);
  while (i < to) {
    const ch = line[i]!;
    const close = QUOTE_PAIRS[ch];
    if (close === undefined) {
      i++;
      continue;
    }
    // `(\`x\`)`: the quote inside the parenthesis quotes the value.
    if (ch === '(' && QUOTE_PAIRS[line[i + 1] ?? ''] !== undefined) {
      i++;
      continue;
    }
    // An apostrophe inside a word (`hasn't`) opens nothing.
    if (ch === "'" && i > 0 && /[\p{L}\p{N}]/u.test(line[i - 1]!)) {
      i++;
      continue;
    }
    // A backtick that closes a code span begun before `from` (`field \`a = "password"\` (x \`y\`)`)
    // opens nothing: what follows it is prose up to the next span.
    if (ch === '`' && i === firstTick && ticksBefore(line, from) % 2 === 1) {
      i++;
      continue;
    }
    const j = line.indexOf(close, i + 1);
    if (j === -1 || j - i > 200) {
      i++;
      continue;
    }
    // `` ``x`` ``: a doubled backtick span.
    if (ch === '`' && j === i + 1) {
      i += 2;
      continue;
    }
    // `(e.g., \`x\`)`: a quote inside the parenthesis quotes the value; look inside.
    if (ch === '(' && /[`"«“「]/.test(line.slice(i + 1, j))) {
      i++;
      continue;
    }
    let s = i + 1;
    let e = j;
    while (s < e && line.charCodeAt(s) === 32) s++;
    while (e > s && line.charCodeAt(e - 1) === 32) e--;
    // `(was: x)`, `(old: x)`: a short word and a colon inside the parenthesis name the value.
    if (ch === '(') {
      const named = PAREN_NAMED().exec(line.slice(s, e));
      if (named && !OWNER_WORDS.test(named[1]!)) s = e - named[2]!.length;
    }
    out.push({ start: s, value: line.slice(s, e), open: i });
    i = j + 1;
    if (j >= to) break;
  }
  return out;
}

/**
 * A word inside a code span (`ip:port:user:pass:X`) is code: its clause ends where the span
 * does. `end` otherwise.
 */
function spanEnd(line: string, at: number, end: number): number {
  const first = line.indexOf('`');
  if (first === -1 || first > at || ticksBefore(line, at) % 2 === 0) return end;
  const close = line.indexOf('`', at);
  return close === -1 ? end : Math.min(end, close);
}

/** How many backticks stand before `at` on the line. */
function ticksBefore(line: string, at: number): number {
  let n = 0;
  for (let k = line.indexOf('`'); k !== -1 && k < at; k = line.indexOf('`', k + 1)) n++;
  return n;
}

/** One word of up to 12 letters, a colon, a value: `was: x`, `был: x`, `antes: x`. */
const PAREN_NAMED = onFirstUse(() => /^(\p{L}{1,12})\s*[:：]\s*(\S+)$/u);
/** `user:password` or `user/password` in one quote: the password is the part after the name. */
const GLUED_PAIR = /^([A-Za-z][\w.@-]{0,39})[:/]([^:/]{6,})$/;
function passwordPart(q: { start: number; value: string }): { start: number; value: string } {
  const g = GLUED_PAIR.exec(q.value);
  // `host.example/path`: a host's name before the slash makes it an address, not a login.
  if (g && q.value.charCodeAt(g[1]!.length) === 47 && HOST.test(g[1]!)) return q;
  return g ? { start: q.start + g[1]!.length + 1, value: g[2]! } : q;
}

/** Do the words between a label and a quote end in a word saying whose the value is (`password for \`svc01\``)? */
export function gapEndsInOwner(gap: string): boolean {
  return OWNER_WORDS.test(gap.replace(/[*_([`"'«“„「]+$/, ''));
}

/** Does the text before a value end in a word saying what the value is other than a secret? */
function ownedBy(line: string, open: number): boolean {
  const before = line.slice(Math.max(0, open - 24), open).replace(/[*_([]+$/, '');
  return OWNER_WORDS.test(before);
}

// ---------------------------------------------------------------------------
// Detectors
// ---------------------------------------------------------------------------

/**
 * A quoted value later in the clause of a password word, with words between them:
 * "passwords: users still on `…`", "pw reset 2026-05-30 to `…`", "cPanel password (`…`)",
 * "pass chung `…`" (`pass`, also a verb, asks a stricter shape).
 */
export function detectNearPasswordWord(line: string, out: ContextHit[]): void {
  if (!ANY_QUOTE.test(line)) return;
  const re = PASSWORD_WORD_RE;
  re.lastIndex = 0;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const word = m[0];
    const first = word.charCodeAt(0);
    // `GOG_KEYRING_PASSWORD`: a variable's name in capitals ending in a password word names one too.
    if (first < 0x400 && !latinBoundary(line, m.index) && !(line[m.index - 1] === '_' && word === word.toUpperCase()))
      continue;
    const strict = word.length === 4 && (first | 0x20) === 0x70 && (word.charCodeAt(1) | 0x20) === 0x61;
    // `pass` is also a verb: after `-` it is part of a name (`bypass-x`), as the other words are not.
    if (strict && m.index > 0 && line.charCodeAt(m.index - 1) === 45) continue;
    // `PASS` in capitals is a result (`Sanity PASS`), `Pass 1` an ordinal step.
    if (strict && (word === 'PASS' || /^\s*\d/.test(line.slice(m.index + 4, m.index + 8)))) continue;
    const from = m.index + word.length;
    // `System → Reset Root Password → Apply`: one step of a menu path names a screen.
    if (line.includes('→') && MENU_STEP_BEFORE().test(line.slice(Math.max(0, m.index - 40), m.index))) continue;
    const end = spanEnd(line, m.index, clauseEnd(line, from, from + 120));
    // `password-protected, preview: ?preview=X`: a value given as a query or a setting in the clause.
    if (line.includes('=', from)) settingsNear(line, from, end, out);
    if (!quoteOpenerBetween(line, from, end)) continue;
    for (const q of arrowParts(quotedIn(line, from, end))) {
      // After `pass` (also a verb) the value must be close: `pass chung cho team \`…\``.
      if (strict && q.open - from > 30) continue;
      // `pass` and one word that is no particle or determiner before the quote (`pass chung
      // \`…\``, `wifi pass mới \`…\``) is the noun: a password's usual shape, two classes.
      const noun = strict && PASS_NOUN_GAP().test(line.slice(from, q.open));
      const p = passwordPart(q);
      const v = p.value;
      // A number right after the password word, in quotes or parentheses, is a PIN (`密码 (202027)`).
      const pin = q.open - from <= 8 && PIN.test(v);
      // The value's shape first (most quotes are names, paths, code), then the words around it.
      const letters = !strict && isRandomLetters(v);
      if (!pin && !letters && (v.includes(' ') || !isPasswordShaped(v, strict && !noun) || !isCredentialValue(v)))
        continue;
      if (GAP_NOT_SECRET.test(line.slice(from, q.open)) || ownedBy(line, q.open)) continue;
      push(out, p.start, v, 'secret.password', `value near a "${word.toLowerCase()}" word`);
    }
  }
}

/** ` → `, `->` between two values inside one quote or parenthesis: a change from one to the other. */
const ARROW_IN = /\s*(?:→|->)\s*/;
/**
 * `(old → new)` after a password word: both sides are values (the old one was a password too), each
 * judged alone; other quotes as they are.
 */
function arrowParts(
  qs: Array<{ start: number; value: string; open: number }>,
): Array<{ start: number; value: string; open: number }> {
  if (!qs.some((q) => ARROW_IN.test(q.value))) return qs;
  const out: Array<{ start: number; value: string; open: number }> = [];
  for (const q of qs) {
    const m = ARROW_IN.exec(q.value);
    if (m === null) {
      out.push(q);
      continue;
    }
    const after = m.index + m[0].length;
    out.push({ start: q.start, value: q.value.slice(0, m.index), open: q.open });
    out.push({ start: q.start + after, value: q.value.slice(after), open: q.open });
  }
  return out;
}

/** Words that name a key or a token (a quoted value in their clause is one when it has a key's shape). */
const KEY_WORD_RE =
  /(?:(?:api|secret|consumer|private|signing)[ _-]?keys?|tokens?|secrets?|cookies?|密钥|ключ)(?![A-Za-z])/gi;
/** No letter right before `at` (KEY_WORD_RE's left boundary, checked by hand: a leading look-behind makes V8 try every position). */
const noLetterBefore = (line: string, at: number) => at === 0 || !/[A-Za-z]/.test(line[at - 1]!);
/**
 * A quoted value later in the clause of a key or token word, with words between them:
 * "API key saved to its env file: `…`", "consumer key (`…`) in the config". The value must have
 * a key's shape (16 or more, letters and digits mixed, a random string's entropy); no word
 * between naming something else (id, path, file, …) and none before it saying whose it is.
 */
export function detectNearKeyWord(
  line: string,
  out: ContextHit[],
  notSecretLine: (l: string) => boolean,
  isSlug: (v: string) => boolean,
): void {
  if (!ANY_QUOTE.test(line)) return;
  const re = KEY_WORD_RE;
  re.lastIndex = 0;
  let checked = false;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    if (!noLetterBefore(line, m.index)) continue;
    const from = m.index + m[0].length;
    const end = spanEnd(line, m.index, clauseEnd(line, from, from + 80));
    if (!quoteOpenerBetween(line, from, end)) continue;
    for (const q of quotedIn(line, from, end)) {
      const v = q.value;
      // Words joined with a short id or a version (`mini-model-4o-tts`, a CSS class) are names.
      if (!isKeyShaped(v) || v.includes('|') || isSlug(v) || !isCredentialValue(v)) continue;
      if (GAP_NOT_SECRET.test(line.slice(from, q.open)) || ownedBy(line, q.open) || labelBefore(line, q.open)) continue;
      // A line naming commits, ids, fingerprints or public keys: its runs are those.
      if (!checked) {
        if (notSecretLine(line)) return;
        checked = true;
      }
      push(out, q.start, v, 'secret.password', `value near a "${m[0].toLowerCase()}" word`);
    }
  }
}

/**
 * One word between `pass` and a quote, not a particle, determiner or pronoun an English verb
 * `pass` takes (`pass the \`…\``, `pass in \`…\``, `pass it \`…\``): `pass` is then a noun.
 */
const PASS_NOUN_GAP = onFirstUse(
  () =>
    /^\s+(?!(?:the|a|an|in|on|to|it|as|via|through|along|down|up|over|back|off|out|its|their|this|that|these|those|your|our|my|his|her|each|all|any|both|only|just|also|then|with|without|from|into|onto|and|or|not|no)\s)\p{L}{2,12}\s+$/iu,
);

/** `?name=value`, `&name=value`, `name=value` after white space or a parenthesis. */
const SETTING_NEAR = /(?:^|[\s?&(])[A-Za-z][\w-]{1,20}=([^\s&)\]`'",;|]{6,64})(?![|\w])/g;
function settingsNear(line: string, from: number, end: number, out: ContextHit[]): void {
  const clause = line.slice(from, end);
  SETTING_NEAR.lastIndex = 0;
  for (let m = SETTING_NEAR.exec(clause); m !== null; m = SETTING_NEAR.exec(clause)) {
    const v = trimUnquoted(m[1]!);
    if (GAP_NOT_SECRET.test(clause.slice(0, m.index)) || !isCredentialValue(v) || !isPasswordShaped(v)) continue;
    push(
      out,
      from + m.index + m[0].length - m[1]!.length + m[1]!.indexOf(v),
      v,
      'secret.password',
      'value set near a password word',
    );
  }
}

/** Six to ten digits that are not a date (`20260512`): a PIN. */
const PIN = /^(?!(?:19|20)\d\d(?:0[1-9]|1[0-2]))\d{6,10}$/;

/** Words that name a PIN or a pairing code, in the languages of the notes. */
export const PIN_WORD = onFirstUse(
  () =>
    /(?<![\p{L}])(?:pin|pins|pin[ -]?codes?|pairing[ -]codes?|passcodes?|пин(?:-код)?|핀|暗証番号|配对码)(?![\p{L}])/iu,
);
/** A PIN word tied to six to ten digits: `PIN \`…\``, `**Pairing code:** \`…\``, `PIN: …`. */
const PIN_TIED = onFirstUse(
  () =>
    /(?<![\p{L}])(?:pin(?:[ -]?code)?|pairing[ -]code|passcode|пин(?:-код)?|핀|暗証番号|配对码)(?![\p{L}])[*_]*\s*[:：=]?\s*[*_]*\s*[`"'(]?(\d{6,10})(?![\d.:/-])/giu,
);
/** A login PIN or a pairing code: six to ten digits right after a word naming one (docs/credentials.md §2). */
/** PIN_TIED's words without their boundaries: one cheap test before the regex with look-behind. */
const PIN_QUICK = /pin|pairing|passcode|пин|핀|暗証番号|配对码/i;
export function detectPin(line: string, out: ContextHit[]): void {
  if (!PIN_QUICK.test(line)) return;
  PIN_TIED().lastIndex = 0;
  for (let m = PIN_TIED().exec(line); m !== null; m = PIN_TIED().exec(line)) {
    const v = m[1]!;
    if (!PIN.test(v)) continue;
    push(out, m.index + m[0].length - v.length, v, 'secret.password', 'a PIN');
    // `PIN: x (front desk), y (bar)`: the PINs listed after the first, to the end of the clause.
    const from = m.index + m[0].length;
    const end = clauseEnd(line, from, from + 120);
    PIN_LISTED.lastIndex = 0;
    const rest = line.slice(from, end);
    for (let n = PIN_LISTED.exec(rest); n !== null; n = PIN_LISTED.exec(rest)) {
      if (PIN.test(n[1]!)) push(out, from + n.index + n[0].length - n[1]!.length, n[1]!, 'secret.password', 'a PIN');
    }
  }
}
/** A further item of a list: a comma, maybe words in parentheses before it, then six to ten digits. */
const PIN_LISTED = /,\s*[`"']?(\d{6,10})(?![\d.:/-])/g;

/** A menu step right before a word: an arrow, then words (`→ Reset Root `). */
const MENU_STEP_BEFORE = onFirstUse(() => /(?:→|->)[\p{L} ]*$/u);

function quoteOpenerBetween(line: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i);
    if (c === 96 || c === 34 || c === 39 || c === 40 || c === 0xab || c === 0x201c || c === 0x300c) return true;
  }
  return false;
}

/** Two arrow steps before a value: a menu path (`A → B → \`x\``). */
const MENU_PATH_BEFORE = /(?:→|->)[^→]*(?:→|->)\s*[*_]*$/;

/**
 * Does a label naming something other than a secret end right before `open` (`owner: \``,
 * `**Host**: \``)? The colon is found by hand: white space and `*` may stand between it and the
 * quote, and the 24 characters before the colon are tested against OWNER_WORDS.
 */
function labelBefore(line: string, open: number): boolean {
  let i = open - 1;
  while (i >= 0 && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 42)) i--;
  const c = line.charCodeAt(i);
  if (c !== 58 && c !== 0xff1a) return false;
  let j = i;
  while (j > 0 && line.charCodeAt(j - 1) === 42) j--;
  return OWNER_WORDS.test(line.slice(Math.max(0, j - 24), j));
}

const CODE_MARK = /[{}"]/;
const METRIC_SELECTOR = /^[A-Za-z_][\w:]*\{\w+=/;
/** A line of a list or a code block holding one value and nothing else (`- \`…\``, `\`…\``, `…`). */
const VALUE_ONLY = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?[*_]{0,2}`?([^\s`*]{6,128})`?[*_]{0,2}\s*$/;

/**
 * The values of a line under a heading or a label line that names credentials: quoted values
 * and a value alone on its line, with a password's shape (`kind` password) or a key's (`kind`
 * key); a value after a word naming something else (`user \`x\``, `host: \`x\``) is not one.
 */
export function detectUnderContext(line: string, kind: 'password' | 'key', out: ContextHit[], pin = false): void {
  const base = kind === 'password' ? (v: string) => isPasswordShaped(v) : isKeyShaped;
  // Under a label naming PINs (`PIN scheme:`), six to ten digits are PINs too.
  const shaped = pin ? (v: string) => PIN.test(v) || base(v) : base;
  const alone = VALUE_ONLY.exec(line);
  if (alone) {
    // Under keys, braces or a quote inside the run are code (`metric_total{job="x"}`): keys hold none.
    // A metric with its labels (`name_total{job="x"}`) is code under any heading.
    if ((kind === 'key' && CODE_MARK.test(alone[1]!)) || METRIC_SELECTOR.test(alone[1]!)) return;
    const v = trimUnquoted(alone[1]!);
    if ((pin && PIN.test(v)) || (isCredentialValue(v) && shaped(v)))
      push(out, line.indexOf(v), v, 'secret.password', 'value under a heading naming credentials');
    return;
  }
  for (const q of quotedIn(line, 0, line.length)) {
    if (q.value.includes(' ') || ownedBy(line, q.open)) continue;
    const p = passwordPart(q);
    const v = p.value;
    // `System → Reset Root Password → \`Apply\``: the last step of a menu path is a button's name.
    if (MENU_PATH_BEFORE.test(line.slice(0, q.open))) continue;
    // The label this value follows on its own line (`owner: \`…\``) may name something else.
    if (labelBefore(line, q.open)) continue;
    if ((pin && PIN.test(v)) || (isCredentialValue(v) && shaped(v)))
      push(out, p.start, v, 'secret.password', 'value under a heading naming credentials');
  }
  if (kind === 'key') serviceItem(line, out);
}

/**
 * Under a heading or a label line naming keys, a list item naming a service then its value
 * (`- **Search API**: X`, `- Mail service: \`X\``): X a key when it has a key's shape, or a UUID
 * (many services issue UUID keys, as after a key word: docs/credentials.md §2, "Decisions"). The
 * item's name must not name something else (`Account ID:`, `Host:`, `Model:`).
 */
const SERVICE_ITEM =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)[*_]{0,2}([^:：*_`|]{2,40}?)[*_]{0,2}\s*[:：]\s*[*_]{0,2}\s*(`?)([^\s`*，。（）()]{16,512})\2(?![^\s,;(（])/;
const LOWER_JOINED = /^[a-z0-9]+(?:[-_.][a-z0-9]+){2,}$/;
const UUID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ITEM_NAMES_OTHER =
  /(?:^|[^A-Za-z])(?:ids?|uuid|name|names|url|uri|endpoint|host|model|path|file|user|username|account|email|project|org|team|region|version|hash|fingerprint|public|pub|publishable)(?![A-Za-z])|[a-z](?:Id|ID)(?![a-z])/i;
/** A list item named a key (`- Key: \`X\``, `- **API key**: X`): its value as under a heading naming keys. */
const KEY_ITEM = /^\s*(?:[-*+]\s+|\d+[.)]\s+)[*_]{0,2}(?:api[ _-]?)?keys?[*_]{0,2}\s*[:：]/i;
export function detectKeyItem(line: string, out: ContextHit[]): void {
  if (KEY_ITEM.test(line)) serviceItem(line, out);
}
function serviceItem(line: string, out: ContextHit[]): void {
  const m = SERVICE_ITEM.exec(line);
  if (m === null) return;
  const name = m[1]!;
  if (ITEM_NAMES_OTHER.test(name) || OWNER_WORDS.test(name)) return;
  // A key cut short (`ghp_Ab3d...`) names which key, it is not the key.
  if (m[3]!.endsWith('...') || m[3]!.endsWith('…')) return;
  const v = trimUnquoted(m[3]!);
  const start = m.index + m[0].length - m[2]!.length - m[3]!.length + m[3]!.indexOf(v);
  if (out.some((h) => h.start === start)) return;
  // Lower-case words joined (`fix-the-upload-test-2026-b71e`): an entry's key, a slug, no secret.
  if (UUID_VALUE.test(v) || (!LOWER_JOINED.test(v) && isCredentialValue(v) && isKeyShaped(v)))
    push(out, start, v, 'secret.password', 'value of a service listed under a heading naming keys');
}

/**
 * A login pair `user / password` (in emphasis, in backticks, after a realm `root@pam`, in a
 * table cell or an index line): the user a name, the password with a password's shape. Found
 * when the line, its heading or its column names a login or credentials, when the user is an
 * administrator's name or carries a realm, or when emphasis wraps the pair.
 */
const PAIR_ANY =
  /(?<![A-Za-z0-9@./\\:-])([*_`]{0,3})([A-Za-z][\w.-]{0,31}(?:@[A-Za-z][\w.-]{0,63})?|\d{7,15}(?![\w.-]))`?\s?\/\s?[*_`]{0,3}([^\s`/|*<>（）【】「」，。；、]{6,64})/y;
const ADMIN_USER = /^(?:root|admin|administrator|pi|ubuntu|sa|postgres|guest|demo|tester|kiosk|operator)$/i;
/** A word naming a login, close before a pair (LOGIN_REACH characters): the pair is that login's. */
const LOGIN_CONTEXT =
  /log\s?-?in|sign\s?-?in|credential|\bcreds?\b|account|\busers?(?:name)?\s*[:：]|\bauth\b|access|passw|\bpw\b|\bpwd\b|\bpass\b|계정|로그인|비번|비밀번호|账号|帳號|登录|登錄|登入|凭据|凭证|憑證|密码|アカウント|ログイン|パスワード|tài khoản|mật khẩu|zugang|identifiant|acceso|cuenta|conta|доступ|логин|учетн/i;
const LOGIN_REACH = 40;
const HASH_USER = /^(?:sha\d{1,3}|md5)[-:]/i;
export function detectPairs(line: string, inContext: boolean, out: ContextHit[]): void {
  let slash = line.indexOf('/');
  if (slash === -1) return;
  for (; slash !== -1; slash = line.indexOf('/', slash + 1)) {
    // Most slashes are in paths and URLs: a name must end right before it (maybe a space or
    // a backtick between) and a value of six or more start right after. Checked by hand
    // before PAIR_ANY runs from where the name can start.
    if (!valueAfter(line, slash)) continue;
    const from = pairStart(line, slash);
    if (from === -1) continue;
    PAIR_ANY.lastIndex = from;
    const m = PAIR_ANY.exec(line);
    if (m === null) continue;
    const user = m[2]!;
    const raw = m[3]!;
    const after = line.charCodeAt(m.index + m[0].length);
    if (after === 47 /* / */) continue; // a path: a/b/c
    const value = trimUnquoted(raw);
    if (!isCredentialValue(value) || areSiblings(user, value)) continue;
    if (!isPasswordShaped(value) && !adminHexPassword(line, m.index, user, value)) continue;
    // `OAuth2/XOAUTH2`: one name spelled twice, the second in capitals, no login.
    if (sameNameInCapitals(user, value)) continue;
    // `host.example/path?q=`: a host's name before the slash makes it a URL, not a login.
    // A space before the slash (`name.surname / x`) is no URL's path: a dotted user name then.
    if (!user.includes('@') && HOST.test(user) && !/\s\/$/.test(m[0].slice(0, m[0].indexOf('/') + 1))) continue;
    // `sha512-…/…`: a hash's base64 splits at `/` (an `integrity` field), no login.
    if (HASH_USER.test(user)) continue;
    // A phone number as the user (`13800000000 / x`, apps that log in by phone): only after a login word.
    const phone = user.charCodeAt(0) <= 57;
    if (phone && !(inContext || LOGIN_CONTEXT.test(line.slice(Math.max(0, m.index - LOGIN_REACH), m.index)))) continue;
    const realm = user.includes('@');
    // Emphasis wraps the pair: `**root / x**`, `_admin / x_` (a backtick only quotes).
    const open = m[1]!.replace(/`/g, '');
    const end = m.index + m[0].length;
    const emphasis = open !== '' && line.slice(end, end + 4).includes(open[0]!);
    if (!(inContext || realm || emphasis || ADMIN_USER.test(user))) {
      if (!LOGIN_CONTEXT.test(line.slice(Math.max(0, m.index - LOGIN_REACH), m.index))) continue;
    }
    // A number change (`755/700`) or two versions are no login; isPasswordShaped left those out.
    const start = m.index + m[0].lastIndexOf(raw) + raw.indexOf(value);
    push(out, start, value, 'secret.login-pair', 'password of a user/password pair');
  }
}

/**
 * Hex of 8 to 16 with a letter and a digit after an administrator's name, a login word close
 * before (`登录软路由 (…, root/<hex>)`): the password of that login. Short hex elsewhere is a commit
 * or an id (isPasswordShaped); no commit stands after `root/` in a sentence about logging in.
 */
function adminHexPassword(line: string, at: number, user: string, value: string): boolean {
  return (
    /^[0-9a-f]{8,16}$/.test(value) &&
    /[a-f]/.test(value) &&
    /\d/.test(value) &&
    ADMIN_USER.test(user) &&
    LOGIN_CONTEXT.test(line.slice(Math.max(0, at - LOGIN_REACH), at))
  );
}

/** Is `value` the name `user` (in mixed case) again, in capitals with something around it? */
function sameNameInCapitals(user: string, value: string): boolean {
  if (value.toUpperCase() !== value || user.toUpperCase() === user || user.toLowerCase() === user) return false;
  return value.includes(user.toUpperCase());
}

/** Stops PAIR_ANY's value: white space, a backtick, a slash, `|`, `*`, `<`, `>`. */
const isValueStop = (c: number) =>
  c === 32 || c === 9 || c === 96 || c === 47 || c === 124 || c === 42 || c === 60 || c === 62 || Number.isNaN(c);
/**
 * After the slash at `slash` (an optional space and up to three `*`, `_` or backticks skipped),
 * six characters of a value, not ended by another slash (a path's next part): what PAIR_ANY's
 * value needs, checked before the name is looked for.
 */
function valueAfter(line: string, slash: number): boolean {
  let i = slash + 1;
  if (line.charCodeAt(i) === 32) i++;
  for (let k = 0; k < 3 && (line.charCodeAt(i) === 42 || line.charCodeAt(i) === 95 || line.charCodeAt(i) === 96); k++)
    i++;
  const start = i;
  while (i < line.length && i - start < 64 && !isValueStop(line.charCodeAt(i))) i++;
  return i - start >= 6 && line.charCodeAt(i) !== 47;
}
const isNameChar = (c: number) =>
  (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122) || c === 95 || c === 46 || c === 45 || c === 64;
/**
 * Where PAIR_ANY may start for the slash at `slash`: before it (an optional space and backtick
 * skipped) a name of letters, digits, `_ . - @` starting with a letter, and up to three `*`, `_`
 * or backticks before that; -1 when there is no name or no room for a value after.
 */
function pairStart(line: string, slash: number): number {
  if (slash + 7 > line.length) return -1;
  let i = slash;
  if (line.charCodeAt(i - 1) === 32) i--;
  if (line.charCodeAt(i - 1) === 96) i--;
  const end = i;
  while (i > 0 && end - i < 53 && isNameChar(line.charCodeAt(i - 1))) i--;
  if (i === end) return -1;
  const first = i;
  // The name starts at its first letter (PAIR_ANY's `[A-Za-z]`), or is a phone number's digits.
  while (i < end && !((line.charCodeAt(i) | 0x20) >= 97 && (line.charCodeAt(i) | 0x20) <= 122)) i++;
  if (i === end) {
    if (end - first < 7 || end - first > 15) return -1;
    for (let k = first; k < end; k++) if (line.charCodeAt(k) < 48 || line.charCodeAt(k) > 57) return -1;
    i = first;
  }
  let k = i;
  while (
    k > 0 &&
    i - k < 3 &&
    (line.charCodeAt(k - 1) === 42 || line.charCodeAt(k - 1) === 95 || line.charCodeAt(k - 1) === 96)
  )
    k--;
  return k;
}

/** `Bearer X` without quotes, `Authorization: Bearer X`: X a token when it has a key's shape. */
const BEARER = /\bbearer\s+([^\s`'",;)\]}（）]{16,512})/gi;
const BEARER_WORD = /bearer/i;
export function detectBearer(line: string, out: ContextHit[]): void {
  if (!BEARER_WORD.test(line)) return;
  BEARER.lastIndex = 0;
  for (let m = BEARER.exec(line); m !== null; m = BEARER.exec(line)) {
    const value = trimUnquoted(m[1]!);
    if (!isCredentialValue(value) || !isKeyShaped(value)) continue;
    push(out, m.index + m[0].length - m[1]!.length + m[1]!.indexOf(value), value, 'secret.password', 'bearer token');
  }
}

/** Application passwords (six groups of four) on a line or under a heading that names a credential. */
/** On a selected line (it names a credential) or a line of a credential section. */
export function detectAppPasswords(line: string, out: ContextHit[]): void {
  for (const a of appPasswords(line)) push(out, a.start, a.value, 'secret.password', 'application password');
}

/** SNMP communities on command lines: `snmpwalk -v2c -c X host`, `snmp-server community X RW`. */
const SNMP_FLAG = /\bsnmp\w*\b[^\n|;&]{0,80}?\s-c\s*(?:"([^"\n]{1,64})"|'([^'\n]{1,64})'|([^\s"'`;|&]{1,64}))/gi;
const SNMP_COMMUNITY =
  /\bsnmp[\w-]*\s+(?:[\w-]+\s+){0,2}community\s+(?:"([^"\n]{1,64})"|'([^'\n]{1,64})'|([^\s"'`;|&]{1,64}))/gi;
/** `add community <index> name <string>` (SNMPv3 community tables): the name is the community string. */
const SNMP_COMMUNITY_NAME =
  /\bsnmp[\w-]*\s+(?:[\w-]+\s+){0,3}community\s+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|[\w-]{1,64})\s+name\s+(?:"([^"\n]{1,64})"|'([^'\n]{1,64})'|([^\s"'`;|&]{1,64}))/gi;
/** `SNMP communities: ro (x), rw (y)`: a value in parentheses after a community's name. */
const SNMP_LISTED = /communit(?:y|ies)\b[^|]{0,80}/i;
const PAREN_VALUE = /\(([^\s()]{6,64})\)/g;
const SNMP_WORD = /snmp/i;
export function detectSnmp(line: string, out: ContextHit[]): void {
  if (!SNMP_WORD.test(line)) return;
  const listed = SNMP_LISTED.exec(line);
  if (listed) {
    PAREN_VALUE.lastIndex = 0;
    for (let m = PAREN_VALUE.exec(listed[0]); m !== null; m = PAREN_VALUE.exec(listed[0])) {
      const value = m[1]!;
      if (isCredentialValue(value) && isPasswordShaped(value))
        push(out, listed.index + m.index + 1, value, 'secret.command-line', 'SNMP community');
    }
  }
  for (const re of [SNMP_FLAG, SNMP_COMMUNITY, SNMP_COMMUNITY_NAME]) {
    re.lastIndex = 0;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const raw = m[1] ?? m[2] ?? m[3];
      if (raw === undefined) continue;
      const value = m[3] !== undefined ? trimUnquoted(raw) : raw;
      if (!isCredentialValue(value) || !isPasswordShaped(value)) continue;
      const at = line.lastIndexOf(raw, m.index + m[0].length);
      push(out, at + raw.indexOf(value), value, 'secret.command-line', 'SNMP community on a command line');
    }
  }
}

/** `FTP=host/user/password`: a service's name assigned a host, a user and a password. */
const SERVICE_TRIPLE =
  /\b(?:s?ftps?|smb|cifs|ssh|scp|rdp|vnc|webdav|dav|nas|db|mysql|postgres|pg|redis|mqtt|imap|smtp|pop3?)\s*=\s*[\w.-]+(?::\d{1,5})?\/[\w.@-]{1,32}\/([^\s/`'",;)]{6,64})/gi;
export function detectServiceTriple(line: string, out: ContextHit[]): void {
  const eq = line.indexOf('=');
  if (eq === -1 || line.indexOf('/', eq) === -1) return;
  SERVICE_TRIPLE.lastIndex = 0;
  for (let m = SERVICE_TRIPLE.exec(line); m !== null; m = SERVICE_TRIPLE.exec(line)) {
    const value = trimUnquoted(m[1]!);
    if (!isCredentialValue(value) || !isPasswordShaped(value)) continue;
    push(
      out,
      m.index + m[0].length - m[1]!.length + m[1]!.indexOf(value),
      value,
      'secret.login-pair',
      'password of a host/user/password triple',
    );
  }
}

/** Does a heading or a label line name passwords (then `password`) or keys and tokens (then `key`)? */
export function sectionKind(text: string): 'password' | 'key' | null {
  if (SECTION_PASSWORD.test(text)) return 'password';
  if (SECTION_KEY.test(text)) return 'key';
  return null;
}

/** Short shell names of a key pair (`AK`, `SK`) and of a password (`PW`, `PSK`): the parts of a variable's name. */
const ENV_SHORT_KEY = /(?:^|_)(?:AK|SK|KEY|AUTH|CREDS?)(?:_|$)/;
const ENV_SHORT_PASSWORD = /(?:^|_)(?:PW|PWD|PSK)(?:_|$)/;
/** What shape a value assigned to `name` must have, when only a short part of the name says credential. */
export function envShortKind(name: string): 'password' | 'key' | null {
  if (ENV_SHORT_PASSWORD.test(name)) return 'password';
  if (ENV_SHORT_KEY.test(name)) return 'key';
  return null;
}
export { isKeyShaped, isPasswordShaped };
