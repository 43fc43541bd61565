/**
 * Which lines of a file the credential-in-prose detectors look at (docs/credentials.md
 * "Credentials in prose"): the lines that name a credential label, a command that takes
 * one, or a login. TRIGGER_WORDS is the rule; `wantedLines` applies it in one pass.
 */
import { groupedAlternation } from './alternation';
import type { SecretWords } from './secret-words';
import { asciiSet, hasRun } from './text-chars';

/**
 * Lines worth a closer look: one case-insensitive pass over the whole text.
 * Most words select their line; `user`, `account`, `root`, `admin` matter only
 * for pairs (a backtick or a slash on the line), and `key` only with a label, a
 * table, a heading or a long run on the line — so a frontmatter `type: user`
 * line costs nothing more.
 */
export const TRIGGER_WORDS = String.raw`pass|pwd|pairing|\bpw\b|\bpins?\b|secret|token|key|auth|communit|cred|log\s?-?in|sign\s?-?in|account|user|root|admin|sudo|curl|mysql|mariadb|contrase|clave|mot de passe|mdp|senha|kennwort|пароль|비번|비밀번호|암호|密码|密碼|口令|パスワード|暗証|계정|로그인|账号|帳號|凭据|凭证|憑證|アカウント|ログイン|bearer|cookie|snmp|ftp|ak=|sk=|mật khẩu|mat khau|tài khoản|ключ|密钥|clé|schlüssel|chave`;
/**
 * A word between word boundaries (`\bpw\b`) as the word first and its leading boundary checked
 * behind it (`pw\b(?<=\bpw)`): the same matches (the look-behind can only re-read the word just
 * matched), but it starts with a plain letter, so groupedAlternation puts it in its letter's
 * group instead of leaving a barrier that splits the `p` words; the trigger pass reads every
 * character of every file, and this made it about a tenth cheaper on real folders
 * (docs/performance-validators.md, "Both scanners: fast paths").
 */
function boundaryBehind(word: string): string {
  const m = /^\\b([a-z]+\??)\\b$/.exec(word);
  return m === null ? word : `${m[1]}\\b(?<=\\b${m[1]})`;
}
/** TRIGGER_WORDS as one regex, grouped by first character for speed (alternation.ts). */
export const TRIGGER = new RegExp(groupedAlternation(TRIGGER_WORDS.split('|').map(boundaryBehind), true), 'gi');
/** Words that select their line only when it holds a backtick or a slash (`key` has its own condition). */
export const NEEDS_BACKTICK = ['user', 'account', 'root', 'admin'];
const NONE = 0;
const BACKTICK = 1;
const KEY = 2;
/**
 * The condition a TRIGGER match puts on its line: BACKTICK for a NEEDS_BACKTICK word, KEY
 * for `key`, NONE otherwise, as `m[0].toLowerCase()` looked up in NEEDS_BACKTICK would say.
 * Read from the length and the first letter: no other TRIGGER word has the same pair, and
 * under the non-Unicode `i` flag only ASCII letters fold to ASCII ones (a unit test checks
 * every word of TRIGGER).
 */
export function triggerCondition(word: string): number {
  const c = word.charCodeAt(0) | 0x20;
  switch (word.length) {
    case 3:
      return c === 0x6b /* k */ ? KEY : NONE;
    case 4:
      return c === 0x75 /* u */ || c === 0x72 /* r */ ? BACKTICK : NONE;
    case 5:
    case 7:
      return c === 0x61 /* a */ ? BACKTICK : NONE;
    default:
      return NONE;
  }
}
/**
 * What makes `key` select its line: /api|secret|access|private|signing|[|#]|[A-Za-z0-9+/_=-]{32}/i,
 * or a list item named `Key:` (`- Key: \`…\``),
 * tested as its words and, apart, the long run (hasRun: under the non-Unicode `i` flag the
 * class holds ASCII characters only, so the two tests together say what the one regex says).
 */
const KEY_CONTEXT_WORDS =
  /api|secret|access|private|signing|consumer|[|#]|^\s*(?:[-*+]|\d+[.)])\s+[*_]{0,2}keys?[*_]{0,2}\s*[:：]/i;
const KEY_RUN = asciiSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=-');
export function keyContext(line: string): boolean {
  return KEY_CONTEXT_WORDS.test(line) || hasRun(line, KEY_RUN, 32);
}

/**
 * A backtick, a slash or a pipe among the characters [from, end) of `text`: what a `user`,
 * `account`, `root` or `admin` line needs to hold a pair (`` `admin`/`…` ``, `demo/…`, `root / …`)
 * or to head a table column of logins (`| Account |`).
 */
function pairMark(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 96 /* ` */ || c === 47 /* / */ || c === 124 /* | */) return true;
  }
  return false;
}

/**
 * The lines the prose detectors look at, in increasing order: one pass of TRIGGER (its automaton,
 * nextTrigger) over the whole text. A line is selected by its first word whose condition it meets (any word but
 * `key` and the NEEDS_BACKTICK words outright; `key` with keyContext; the others with a
 * backtick or a slash on the line). A match of a conditional word the line does not meet is stepped
 * over as a whole, so a word starting inside it (`accountoken`) is not seen.
 */
export function wantedLines(text: string, starts: readonly number[], words?: SecretWords): number[] {
  return selectLines(text, starts, words === undefined ? nextTriggerPlain : nextTriggerOf(words));
}

/** A match found by a `next` function of selectLines: its end and the condition it puts on its line. */
export const triggerFound = { end: 0, condition: 0 };

/**
 * What `TRIGGER.lastIndex = from; TRIGGER.exec(text)` finds: its start (-1: none), its end and
 * condition in triggerFound. The plain form, and what wantedLines uses without SecretWords.
 */
export function nextTriggerPlain(text: string, from: number): number {
  TRIGGER.lastIndex = from;
  const m = TRIGGER.exec(text);
  if (m === null) return -1;
  triggerFound.end = m.index + m[0].length;
  triggerFound.condition = triggerCondition(m[0]);
  return m.index;
}

/**
 * nextTriggerPlain from the matches the one read found (secret-words.ts): the first starting at or
 * after `from` (they are one per start, in order of start).
 */
export function nextTriggerOf(words: SecretWords): (text: string, from: number) => number {
  const m = words.triggers;
  return (_text, from) => {
    let lo = 0;
    let hi = m.start.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (m.start[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    if (lo === m.start.length) return -1;
    triggerFound.end = m.end[lo]!;
    triggerFound.condition = words.condition[m.variant[lo]!]!;
    return m.start[lo]!;
  };
}

function selectLines(text: string, starts: readonly number[], next: (text: string, from: number) => number): number[] {
  // The scan runs forward and skips to the end of a selected line, so lines are selected in
  // increasing order: a list needs no sort and no set.
  const wanted: number[] = [];
  // The current line's conditions, computed when a conditional word first asks: 0 not yet,
  // 1 holds, 2 does not. Matches never go back to an earlier line, so one line's worth is kept.
  let condLine = -1;
  let backtickHolds = 0;
  let keyHolds = 0;
  let cur = 0; // the line of the current match: matches come in text order, so it only moves forward
  // Where the next search starts (the regex's lastIndex): after the match, or past a selected line.
  let from = 0;
  for (let at = next(text, 0); at !== -1; at = next(text, from)) {
    from = triggerFound.end;
    while (cur + 1 < starts.length && starts[cur + 1]! <= at) cur++;
    const end = (starts[cur + 1] ?? text.length + 1) - 1;
    const condition = triggerFound.condition;
    if (condition !== NONE) {
      // Each line is looked at once per condition, so a long line of `user user user…` stays linear.
      if (condLine !== cur) {
        condLine = cur;
        backtickHolds = 0;
        keyHolds = 0;
      }
      if (condition === KEY) {
        if (keyHolds === 0) keyHolds = keyContext(text.slice(starts[cur]!, end)) ? 1 : 2;
        if (keyHolds === 2) continue; // another word later on the line may still select it
      } else {
        if (backtickHolds === 0) backtickHolds = pairMark(text, starts[cur]!, end) ? 1 : 2;
        if (backtickHolds === 2) continue;
      }
    }
    wanted.push(cur);
    // Skip the rest of this line: one hit is enough to look at it.
    from = Math.max(from, end);
  }
  return wanted;
}
