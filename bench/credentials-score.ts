/**
 * An experiment, not the product's rule (docs/credentials.md, "Context and shape, scored"): it did
 * not beat the rules on folders left out of its fit, so lib/validators does not use it. Every token that could
 * be a secret gets one number from its context (the words of its line, the table header of its
 * cell, the nearest heading above, a label line right before) and its shape (length, character
 * classes, entropy; not a word, id, path, hash, address or placeholder); a logistic model's weights,
 * fitted by bench/credentials-score-fit.ts on some tune folders, are checked on the others.
 *
 * Pure and line-based: the text is read once, headings and table headers carried down.
 */

/** Words naming a password, in every language the real folders have (bench/real-credentials). */
const PW_WORD =
  /passw|passwd|\bpwd?\b|\bpass\b|\bpw\b|парол|密码|密碼|口令|비밀번호|비번|패스워드|パスワード|暗証|contraseña|contrasena|senha|mot de passe|\bmdp\b|passwort|kennwort|mật khẩu|\bmk\b|\bpin\b|passphrase|community/iu;
/** Words naming a key, a token or a secret. */
const KEY_WORD =
  /token|secret|api[ _-]?key|apikey|\bkey\b|access[ _-]?key|bearer|ключ|токен|секрет|密钥|令牌|秘钥|키\b|토큰|シークレット|トークン|キー|clé|schlüssel|chave|clave|khóa|mã bí mật/iu;
/** Words naming a login or an account. */
const LOGIN_WORD =
  /\b(?:user(?:name)?|login|account|acct|admin|root|creds?|credentials?|auth|sign[ -]?in|wifi|wi-fi|ssid|ftp|ssh|smtp|db|database|mysql|postgres)\b|логин|учет|учёт|пользовател|доступ|用户|账号|帳號|账户|登录|登入|凭证|凭据|계정|아이디|로그인|접속|認証|アカウント|ユーザー|usuario|usuário|cuenta|conta|acesso|identifiant|utilisateur|compte|benutzer|zugang|tài khoản|đăng nhập/iu;
/** Words saying the token is something other than a secret. */
const OTHER_WORD =
  /\b(?:id|ids|uuid|hash|sha|commit|address|url|path|file|folder|dir|model|version|port|host|ip|sheet|doc|drive|example|placeholder|template|format|design|usage|count|limit|budget|pacing|name|slug|branch|tag|channel|chat|guild|project|workspace|env|variable|field|column|option|flag|setting|fingerprint)\b|\btokens\b|ид|айди|адрес|путь|模型|地址|路径|ファイル|주소|경로/iu;
/** Where the secret is kept, not the secret. */
const ELSEWHERE = /1password|bitwarden|keepass|lastpass|\bvault\b|keychain|password manager|secrets? manager|\.env\b/i;

const PLACEHOLDER =
  /^<.*>$|^\{.*\}$|^\$\{|^\$[A-Za-z_]\w*$|^%\w+%$|\*{3}|•{2}|x{4}|X{4}|…|\.\.\.|redacted|placeholder|changeme|change[-_]?me|^your[-_ ]|^my[-_]?(?:password|secret|token)|example|dummy|sample|^[xX#*._-]+$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$/;
const DATE_OR_VERSION =
  /^(?:v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?|\d{4}-\d{2}-\d{2}.*|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?)$/;
const URL_OR_PATH = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/)/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/;
const FILE_NAME =
  /\.(?:md|ts|js|json|py|sh|ya?ml|toml|txt|html|css|png|jpg|pdf|log|env|conf|cfg|db|sqlite|csv|key|pem)$/i;
const SNAKE_OR_KEBAB_WORDS = /^[a-z]+(?:[-_.][a-z]+)+$/;
const UPPER_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const CAMEL = /^[a-z]+(?:[A-Z][a-z]+)+$|^(?:[A-Z][a-z]+){2,}$/;
const NUMBER = /^[+-]?[\d.,:%]+[kKmMbB%]?$/;
const CODE_CALL = /[()[\]{}]|=>|::|\s/;
const KNOWN_PREFIX = /^(?:sk-|sk_|pk_|ghp_|gho_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza|eyJ|ya29\.|hf_|npm_|SG\.|rk_)/;
const CONTRACT_ADDR = /^0x[0-9a-fA-F]{40}$/;
const TRUNCATED = /(?:…|\.\.\.)$/;

/** Feature names, in the order features() writes them; the weights follow this order. */
export const FEATURES = [
  'bias',
  'pw_line_before',
  'pw_line_after',
  'key_line_before',
  'login_line',
  'other_near_before',
  'elsewhere_line',
  'pw_heading',
  'key_heading',
  'login_heading',
  'pw_header',
  'key_header',
  'login_header',
  'pw_label_line',
  'key_label_line',
  'sep_before',
  'pair_slash',
  'quoted',
  'alone_on_line',
  'len_log',
  'classes',
  'entropy',
  'has_digit',
  'has_upper_lower',
  'has_symbol',
  'letters_only',
  'placeholder',
  'uuid',
  'hex',
  'ip_date_number',
  'url_path_email',
  'file_name',
  'identifier',
  'known_prefix',
  'truncated',
  'bearer_before',
  'pw_adjacent',
  'key_adjacent',
  'login_adjacent',
  'pw_x_shape',
  'key_x_shape',
] as const;

/** The context features: a candidate with none of them is not scored (the gate). */
const CONTEXT = [
  'pw_line_before',
  'pw_line_after',
  'key_line_before',
  'login_line',
  'pw_heading',
  'key_heading',
  'login_heading',
  'pw_header',
  'key_header',
  'login_header',
  'pw_label_line',
  'key_label_line',
  'bearer_before',
].map((n) => (FEATURES as readonly string[]).indexOf(n));

export interface ScoredCandidate {
  line: number;
  /** Offsets in the text. */
  start: number;
  end: number;
  x: number[];
}

function entropy(v: string): number {
  const counts = new Map<string, number>();
  for (const c of v) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  const n = v.length;
  for (const k of counts.values()) {
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h;
}

function classesOf(v: string): { lower: boolean; upper: boolean; digit: boolean; symbol: boolean; letter: boolean } {
  return {
    lower: /[a-z]/.test(v),
    upper: /[A-Z]/.test(v),
    digit: /\d/.test(v),
    symbol: /[^\p{L}\p{N}]/u.test(v),
    letter: /\p{L}/u.test(v),
  };
}

/** Tokens that could be a secret on one line: code spans, quoted text, and bare runs without spaces. */
const TOKEN = /`([^`\n]{4,120})`|"([^"\n]{4,120})"|(?<![\p{L}\p{N}])'([^'\s]{4,120})'|([^\s`"'|,;()<>[\]{}*]{4,200})/gu;
const STRIP_LEAD = /^[*_:=：>#~]+/;
const STRIP_TRAIL = /[*_.,;:!?)\]}>'"]+$/;

const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const TABLE_ROW = /^\s*\|(.*)\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}/;

export function candidateFeatures(text: string): ScoredCandidate[] {
  const out: ScoredCandidate[] = [];
  const lines = text.split('\n');
  let heading = '';
  let header: string[] | null = null;
  let prev = '';
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineStart = offset;
    offset += line.length + 1;
    const h = HEADING.exec(line);
    if (h) {
      heading = h[1]!;
      header = null;
      prev = line;
      continue;
    }
    const row = TABLE_ROW.exec(line);
    if (row) {
      if (TABLE_RULE.test(line)) {
        prev = line;
        continue;
      }
      if (header === null && TABLE_RULE.test(lines[i + 1] ?? '')) {
        header = row[1]!.split('|').map((c) => c.trim());
        prev = line;
        continue;
      }
    } else header = null;
    if (line.trim() === '') {
      prev = line;
      continue;
    }
    const cells = row ? row[1]!.split('|') : null;
    const labelLine = /[:：]\s*$/.test(prev.trim()) || HEADING.test(prev) ? prev : '';
    const alone = line.trim();
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(line); m !== null; m = TOKEN.exec(line)) {
      const quotedRaw = m[1] ?? m[2] ?? m[3];
      const quoted = quotedRaw !== undefined;
      let v = quotedRaw ?? m[4]!;
      let at = m.index + (quoted ? 1 : 0);
      const lead = STRIP_LEAD.exec(v);
      if (lead && !quoted) {
        v = v.slice(lead[0].length);
        at += lead[0].length;
      }
      if (!quoted) v = v.replace(STRIP_TRAIL, '');
      if (v.length < 4) continue;
      // A bare run must hold a digit or a symbol or mixed case, else it is a word.
      const cl = classesOf(v);
      if (!quoted && !cl.digit && !cl.symbol && !(cl.upper && cl.lower)) continue;
      if (!quoted && !cl.digit && cl.symbol && /^[\p{L}]+(?:[-'][\p{L}]+)*$/u.test(v)) continue;
      const before = line.slice(0, m.index);
      const after = line.slice(m.index + m[0].length);
      const near = before.slice(-40);
      // The label right before the value: within a few words, no sentence end between.
      const close = before
        .slice(-28)
        .split(/[.!?;。]\s/)
        .pop()!;
      const pwNear = PW_WORD.test(close);
      const keyNear = KEY_WORD.test(close);
      let col = '';
      if (cells && header) {
        const ci = before.split('|').length - 2;
        col = header[ci] ?? '';
      }
      const x: number[] = [
        1,
        PW_WORD.test(before) ? 1 : 0,
        PW_WORD.test(after.slice(0, 30)) ? 1 : 0,
        KEY_WORD.test(before) ? 1 : 0,
        LOGIN_WORD.test(line) ? 1 : 0,
        OTHER_WORD.test(near) ? 1 : 0,
        ELSEWHERE.test(line) ? 1 : 0,
        PW_WORD.test(heading) ? 1 : 0,
        KEY_WORD.test(heading) ? 1 : 0,
        LOGIN_WORD.test(heading) ? 1 : 0,
        PW_WORD.test(col) ? 1 : 0,
        KEY_WORD.test(col) ? 1 : 0,
        LOGIN_WORD.test(col) ? 1 : 0,
        PW_WORD.test(labelLine) ? 1 : 0,
        KEY_WORD.test(labelLine) ? 1 : 0,
        /[:=：]\s*[`"']?$/.test(before) ? 1 : 0,
        /[\p{L}\p{N}_.@-]+\s*\/\s*[`"']?$/u.test(before) || /^\s*\/\s*\S/.test(after) ? 1 : 0,
        quoted ? 1 : 0,
        alone.replace(/^[-*\d.)\s`"']+|[`"'\s]+$/g, '') === v ? 1 : 0,
        Math.log2(v.length) - 3,
        (cl.lower ? 1 : 0) + (cl.upper ? 1 : 0) + (cl.digit ? 1 : 0) + (cl.symbol ? 1 : 0) - 2,
        entropy(v) - 3,
        cl.digit ? 1 : 0,
        cl.upper && cl.lower ? 1 : 0,
        cl.symbol ? 1 : 0,
        /^\p{L}+$/u.test(v) ? 1 : 0,
        PLACEHOLDER.test(v) ? 1 : 0,
        UUID.test(v) ? 1 : 0,
        HEX.test(v) && v.length >= 7 && !/^\d+$/.test(v) ? 1 : 0,
        IPV4.test(v) || DATE_OR_VERSION.test(v) || NUMBER.test(v) ? 1 : 0,
        URL_OR_PATH.test(v) || EMAIL.test(v) || CONTRACT_ADDR.test(v) || (v.split('/').length > 2 && !quoted) ? 1 : 0,
        FILE_NAME.test(v) ? 1 : 0,
        SNAKE_OR_KEBAB_WORDS.test(v) || UPPER_NAME.test(v) || CAMEL.test(v) || CODE_CALL.test(v) ? 1 : 0,
        KNOWN_PREFIX.test(v) ? 1 : 0,
        TRUNCATED.test(quotedRaw ?? m[4]!) ? 1 : 0,
        /bearer\s*$/i.test(before) ? 1 : 0,
        pwNear ? 1 : 0,
        keyNear ? 1 : 0,
        LOGIN_WORD.test(near.slice(-25)) && /[/:=：]\s*[`"'(]?$/.test(before) ? 1 : 0,
        pwNear && !PLACEHOLDER.test(v) && !/^\p{L}+$/u.test(v) ? 1 : 0,
        keyNear && v.length >= 16 && entropy(v) > 3.5 && !UUID.test(v) ? 1 : 0,
      ];
      // A context gate: some credential word in the line, the heading, the column or the label line.
      if (CONTEXT.every((j) => x[j] === 0)) continue;
      out.push({ line: i + 1, start: lineStart + at, end: lineStart + at + v.length, x });
    }
    prev = line;
  }
  return out;
}

export function scoreOf(x: readonly number[], w: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < x.length; i++) z += x[i]! * (w[i] ?? 0);
  return z;
}
