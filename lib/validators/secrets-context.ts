/**
 * Credentials found by their context and their shape (docs/credentials.md §2, "Context and
 * shape"): a value that no label is tied to, but whose sentence, table column, heading or
 * label line names a credential, and whose shape is a password's or a key's
 * (secrets-shape.ts). The label-tied forms stay in secrets-prose.ts; these detectors run on
 * the same selected lines (and on the lines of a section whose heading names credentials),
 * and a value both claim is reported once.
 */
import { isCredentialValue, trimUnquoted } from './secrets-prose';
import { appPasswords, isKeyShaped, isPasswordShaped } from './secrets-shape';

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
export const PASSWORD_WORD_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])(?:${PASSWORD_WORDS_LATIN})(?![\\p{L}\\p{N}_])|${PASSWORD_WORDS_OTHER}`,
  'giu',
);
/** `pass` alone: a label in notes (`pass chung`, `wifi pass`) and a verb in code notes (`pass \`--flag\``). */
const PASS_WORD = /(?<![\p{L}\p{N}_-])pass(?![\p{L}\p{N}_-])/giu;

/** A heading or a label line that opens values: passwords, credentials, logins, in every language. */
const SECTION_PASSWORD =
  /passw|passwd|\bpw\b|\bpwd\b|credential|\bcreds?\b|\blogins?\b|contrase|mot de passe|mots de passe|kennw|senha|mật khẩu|парол|비밀번호|비번|암호|계정|密码|密碼|口令|账号|帳號|パスワード|アカウント|zugangsdaten|identifiants|credenciales|tài khoản|\bpass\b/i;
/** A heading that names keys or tokens: its values are keys when they have a key's shape. */
const SECTION_KEY = /\b(?:api[ _-]?keys?|keys?|tokens?|secrets?|bearer)\b/i;

/** A word right before a quoted value saying whose or what it is, not the secret: `for \`svc01\``, `user \`x\``. */
const OWNER_WORDS =
  /(?:^|[^\p{L}])(?:for|of|user|users|username|login|account|acct|host|hostname|server|url|uri|file|path|id|name|email|e-mail|mail|port|db|database|table|field|column|flag|option|env|var|variable|hash|hashed|hint|policy|prompt|menu|page|branch|tag|commit|repo|image|container|service|model|version|bucket|region|domain|dir|folder|user名|계정|아이디|用户名|账号|ユーザー)\s*[:=]?\s*$/iu;

/** Words between a password word and a value that make the value something else (`password hash \`…\``, `pw policy \`…\``). */
const GAP_NOT_SECRET =
  /(?:^|[^\p{L}])(?:hash|hashed|hint|policy|file|files|path|length|field|column|name|names|manager|prompt|dialog|page|screen|form|menu|button|option|flag|env|variable|var|rule|rules|requirement|strength|salt|digest|fingerprint|id|ids|url|uri|endpoint|header|prefix|format|type|expir\w*|rotation|helper|store|stored|command|cmd|mode|scope|count|limit|size|vault|1password|bitwarden|keychain|manager|generator|protected|less|auth(?:entication)?|login|sso|ldap)(?![\p{L}])/iu;

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
const QUOTE_PAIRS: Record<string, string> = { '`': '`', '"': '"', "'": "'", '«': '»', '“': '”', '「': '」' };
function quotedIn(line: string, from: number, to: number): Array<{ start: number; value: string; open: number }> {
  const out: Array<{ start: number; value: string; open: number }> = [];
  let i = from;
  while (i < to) {
    const ch = line[i]!;
    const close = QUOTE_PAIRS[ch];
    if (close === undefined) {
      i++;
      continue;
    }
    // An apostrophe inside a word (`hasn't`) opens nothing.
    if (ch === "'" && i > 0 && /[\p{L}\p{N}]/u.test(line[i - 1]!)) {
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
    let s = i + 1;
    let e = j;
    while (s < e && line.charCodeAt(s) === 32) s++;
    while (e > s && line.charCodeAt(e - 1) === 32) e--;
    out.push({ start: s, value: line.slice(s, e), open: i });
    i = j + 1;
    if (j >= to) break;
  }
  return out;
}

/** `user:password` or `user/password` in one quote: the password is the part after the name. */
const GLUED_PAIR = /^([A-Za-z][\w.@-]{0,39})[:/]([^:/]{6,})$/;
function passwordPart(q: { start: number; value: string }): { start: number; value: string } {
  const g = GLUED_PAIR.exec(q.value);
  return g ? { start: q.start + g[1]!.length + 1, value: g[2]! } : q;
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
  for (const [re, strict] of [
    [PASSWORD_WORD_RE, false],
    [PASS_WORD, true],
  ] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const word = m[0];
      // `PASS` in capitals is a result (`Sanity PASS`), `Pass 1` an ordinal step.
      if (strict && (word === 'PASS' || /^\s*\d/.test(line.slice(m.index + 4, m.index + 8)))) continue;
      const from = m.index + word.length;
      // `System → Reset Root Password → Apply`: one step of a menu path names a screen.
      if (
        line.includes('→') &&
        /(?:→|->)\s*\S*\s*$/.test(line.slice(Math.max(0, m.index - 40), m.index).replace(/[\p{L} ]+$/u, ''))
      )
        continue;
      const end = clauseEnd(line, from, from + 120);
      for (const q of quotedIn(line, from, end)) {
        const gap = line.slice(from, q.open);
        if (GAP_NOT_SECRET.test(gap) || ownedBy(line, q.open)) continue;
        // After `pass` (also a verb) the value must be close: `pass chung cho team \`…\``.
        if (strict && gap.length > 30) continue;
        const p = passwordPart(q);
        const v = p.value;
        if (!isCredentialValue(v) || v.includes(' ') || !isPasswordShaped(v, strict)) continue;
        push(out, p.start, v, 'secret.password', `value near a "${word.toLowerCase()}" word`);
      }
    }
  }
}

/** Two arrow steps before a value: a menu path (`A → B → \`x\``). */
const MENU_PATH_BEFORE = /(?:→|->)[^→]*(?:→|->)\s*[*_]*$/;

/** A line of a list or a code block holding one value and nothing else (`- \`…\``, `\`…\``, `…`). */
const VALUE_ONLY = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?[*_]{0,2}`?([^\s`*]{6,128})`?[*_]{0,2}\s*$/;

/**
 * The values of a line under a heading or a label line that names credentials: quoted values
 * and a value alone on its line, with a password's shape (`kind` password) or a key's (`kind`
 * key); a value after a word naming something else (`user \`x\``, `host: \`x\``) is not one.
 */
export function detectUnderContext(line: string, kind: 'password' | 'key', out: ContextHit[]): void {
  const shaped = kind === 'password' ? (v: string) => isPasswordShaped(v) : isKeyShaped;
  const alone = VALUE_ONLY.exec(line);
  if (alone) {
    const v = trimUnquoted(alone[1]!);
    if (isCredentialValue(v) && shaped(v))
      push(out, line.indexOf(v), v, 'secret.password', 'value under a heading naming credentials');
    return;
  }
  for (const q of quotedIn(line, 0, line.length)) {
    if (q.value.includes(' ') || ownedBy(line, q.open)) continue;
    const p = passwordPart(q);
    const v = p.value;
    // `System → Reset Root Password → \`Apply\``: the last step of a menu path is a button's name.
    if (MENU_PATH_BEFORE.test(line.slice(0, q.open))) continue;
    // The label this value follows on its own line (`NAS: \`…\``) may name something else.
    const label = /([\p{L}][\p{L}\p{N} _-]{0,24})\**\s*[:：]\s*\**\s*$/u.exec(line.slice(0, q.open));
    if (label && OWNER_WORDS.test(label[1]!)) continue;
    if (isCredentialValue(v) && shaped(v))
      push(out, p.start, v, 'secret.password', 'value under a heading naming credentials');
  }
}

/**
 * A login pair `user / password` (in emphasis, in backticks, after a realm `root@pam`, in a
 * table cell or an index line): the user a name, the password with a password's shape. Found
 * when the line, its heading or its column names a login or credentials, when the user is an
 * administrator's name or carries a realm, or when emphasis wraps the pair.
 */
const PAIR_ANY =
  /(?<![A-Za-z0-9@./\\:-])([*_`]{0,3})([A-Za-z][\w.-]{0,31}(?:@[A-Za-z][\w.-]{0,20})?)`?\s?\/\s?[*_`]{0,3}([^\s`/|*<>]{6,64})/g;
const ADMIN_USER =
  /^(?:root|admin|administrator|pi|ubuntu|sa|postgres|guest|demo|test|tester|user|ops|support|kiosk|operator)$/i;
const LOGIN_CONTEXT =
  /log\s?-?in|sign\s?-?in|credential|\bcreds?\b|account|\buser|\bauth|access|passw|\bpw\b|\bpwd\b|\bpass\b|계정|로그인|비번|비밀번호|账号|帳號|密码|アカウント|ログイン|パスワード|tài khoản|mật khẩu|zugang|identifiant|acceso|cuenta|conta|доступ|логин|учетн/i;
export function detectPairs(line: string, inContext: boolean, out: ContextHit[]): void {
  if (!line.includes('/')) return;
  const context = inContext || LOGIN_CONTEXT.test(line);
  PAIR_ANY.lastIndex = 0;
  for (let m = PAIR_ANY.exec(line); m !== null; m = PAIR_ANY.exec(line)) {
    const user = m[2]!;
    const raw = m[3]!;
    const after = line.charCodeAt(m.index + m[0].length);
    if (after === 47 /* / */) continue; // a path: a/b/c
    const value = trimUnquoted(raw);
    if (!isCredentialValue(value) || !isPasswordShaped(value)) continue;
    const realm = user.includes('@');
    const emphasis = m[1]!.includes('*') || m[1]!.includes('_');
    if (!(context || realm || emphasis || ADMIN_USER.test(user))) continue;
    // A number change (`755/700`) or two versions are no login; isPasswordShaped left those out.
    const start = m.index + m[0].lastIndexOf(raw) + raw.indexOf(value);
    push(out, start, value, 'secret.login-pair', 'password of a user/password pair');
  }
}

/** `Bearer X` without quotes, `Authorization: Bearer X`: X a token when it has a key's shape. */
const BEARER = /\bbearer\s+([^\s`'",;)\]}]{16,512})/gi;
export function detectBearer(line: string, out: ContextHit[]): void {
  BEARER.lastIndex = 0;
  for (let m = BEARER.exec(line); m !== null; m = BEARER.exec(line)) {
    const value = trimUnquoted(m[1]!);
    if (!isCredentialValue(value) || !isKeyShaped(value)) continue;
    push(out, m.index + m[0].length - m[1]!.length + m[1]!.indexOf(value), value, 'secret.password', 'bearer token');
  }
}

/** Application passwords (six groups of four) on a line or under a heading that names a credential. */
export function detectAppPasswords(line: string, out: ContextHit[]): void {
  for (const a of appPasswords(line)) push(out, a.start, a.value, 'secret.password', 'application password');
}

/** SNMP communities on command lines: `snmpwalk -v2c -c X host`, `snmp-server community X RW`. */
const SNMP_FLAG = /\bsnmp\w*\b[^\n|;&]{0,80}?\s-c\s*(?:"([^"\n]{1,64})"|'([^'\n]{1,64})'|([^\s"'`;|&]{1,64}))/gi;
const SNMP_COMMUNITY =
  /\bsnmp[\w-]*\s+(?:[\w-]+\s+){0,2}community\s+(?:"([^"\n]{1,64})"|'([^'\n]{1,64})'|([^\s"'`;|&]{1,64}))/gi;
export function detectSnmp(line: string, out: ContextHit[]): void {
  for (const re of [SNMP_FLAG, SNMP_COMMUNITY]) {
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
