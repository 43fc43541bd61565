/**
 * Value propagation (docs/credentials.md, "Value propagation"; CONTRACT §2.2): once a value
 * is a credential anywhere in the configured roots, every exact occurrence of it in any file
 * memtrust reads is a credential finding too. memtrust keeps salted hashes of such values,
 * never the values (lib/service/known-values-store.ts keeps them in the data directory).
 *
 * Pure: no file system. A text is cut into candidate tokens at the boundaries a value has,
 * each token is filtered by the lengths the set holds and by a cheap seeded 32-bit hash, and
 * only a token that passes both is hashed with HMAC-SHA256 and looked up.
 */
import { onFirstUse } from '../core/on-first-use';
import { nodeCrypto } from '../core/hash';
import type { SecretCandidate } from './secrets-patterns';
import { isRandomLetters } from './secrets-shape';

export const KNOWN_VALUE_CODE = 'secret.known-value';
/** Shortest value propagated: the secret check's own floor for a credential (CONTRACT §2.2). */
export const MIN_VALUE_CHARS = 6;

/**
 * One value of the set: its length (UTF-16 units; negative for a value of letters alone,
 * distinctiveLetters, so that only a set holding one makes the letter runs be looked at), its
 * 32-bit prefilter hash and the memory that holds it as a credential.
 */
export interface KnownEntry {
  len: number;
  quick: number;
  id: string;
}

/** The set as the checks use it: the salt and, per full hash, its entry. */
export interface KnownValues {
  salt: Uint8Array;
  entries: ReadonlyMap<string, KnownEntry>;
  lengths: ReadonlySet<number>;
  /** The lengths of the set's letters-only values (entries with a negative len). */
  letterLengths: ReadonlySet<number>;
  quick: ReadonlySet<number>;
  seed: number;
  /** Names the stored set's version (a hash of its file), for caches of what was read under it. */
  digest?: string;
}

export function knownValuesOf(salt: Uint8Array, entries: ReadonlyMap<string, KnownEntry>): KnownValues {
  const lengths = new Set<number>();
  const letterLengths = new Set<number>();
  const quick = new Set<number>();
  for (const e of entries.values()) {
    if (e.len < 0) letterLengths.add(-e.len);
    else lengths.add(e.len);
    quick.add(e.quick);
  }
  return { salt, entries, lengths, letterLengths, quick, seed: seedOf(salt) };
}

function seedOf(salt: Uint8Array): number {
  return ((salt[0]! << 24) | (salt[1]! << 16) | (salt[2]! << 8) | salt[3]!) >>> 0;
}

/** The stored hash of a value: HMAC-SHA256 under the machine's salt, 128 bits in hex. */
export function valueHash(salt: Uint8Array, value: string): string {
  return nodeCrypto().createHmac('sha256', salt).update(value, 'utf8').digest('hex').slice(0, 32);
}

/** FNV-1a over the UTF-16 units of text[start, end), seeded: the prefilter before the HMAC. */
function quickHashRange(seed: number, text: string, start: number, end: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function quickHash(seed: number, value: string): number {
  return quickHashRange(seed, value, 0, value.length);
}

/** The three hashes a value is stored by. */
export function entryOf(salt: Uint8Array, value: string): { hash: string; len: number; quick: number } {
  const len = distinctiveLetters(value) ? -value.length : value.length;
  return { hash: valueHash(salt, value), len, quick: quickHash(seedOf(salt), value) };
}

/**
 * Whether a credential value is propagated: 6 or more characters, no whitespace or other token
 * boundary, and at least one ASCII digit or symbol other than `-` and `_` past the emphasis and
 * closing punctuation a token is also tried without (letters alone, or
 * words joined by `-`/`_`, are words and slugs as often as passwords: matching them everywhere
 * would find ordinary text).
 */
export function propagatable(value: string): boolean {
  if (value.length < MIN_VALUE_CHARS) return false;
  for (let i = 0; i < value.length; i++) if (isHard(value.charCodeAt(i))) return false;
  let s = 0;
  let e = value.length;
  while (s < e && isLeadTrim(value.charCodeAt(s))) s++;
  while (e > s && isTailTrim(value.charCodeAt(e - 1))) e--;
  return hasStrong(value, s, e) || distinctiveLetters(value);
}

/**
 * A value of ASCII letters only that is no ordinary word (docs/credentials.md, "Value
 * propagation"): a capital after a small letter inside it (`BlueHarbor`, a vendor's default), or
 * generated letters (isRandomLetters: a generated app password of sixteen). Only a password
 * context finds letters alone (secrets-prose.ts labelledValue, secrets-context.ts), so such a
 * value reached the set through one.
 */
export function distinctiveLetters(v: string): boolean {
  if (v.length < MIN_VALUE_CHARS || v.length > 64 || !LETTERS_ONLY.test(v)) return false;
  return INNER_CAPITAL.test(v) || isRandomLetters(v);
}
const LETTERS_ONLY = /^[A-Za-z]+$/;
const INNER_CAPITAL = /[a-z][A-Z]/;
const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Where a value ends: whitespace, code spans, quotes, brackets, list and table separators (CJK
 * ones too), guillemets, `…` — and the letters of scripts written without spaces (Han, kana,
 * Hangul syllables), since a value there is glued to the words around it (`新密码VALUE，`,
 * `VALUE입니다`): docs/credentials.md §8, "Matching".
 */
function isHard(c: number): boolean {
  return c < 128 ? (ASCII[c]! & HARD) !== 0 : isHardWide(c);
}

function isHardWide(c: number): boolean {
  if (isSpacelessLetter(c)) return true;
  switch (c) {
    case 0xa0:
    case 0x3000:
    case 0x3001: // 、
    case 0x3002: // 。
    case 0xff0c: // ，
    case 0xff1b: // ；
    case 0xff1a: // ：
    case 0xff08: // （
    case 0xff09: // ）
    case 0x300c: // 「
    case 0x300d: // 」
    case 0x3010: // 【
    case 0x3011: // 】
    case 0x2018:
    case 0x2019:
    case 0x201a: // ‚
    case 0x201c:
    case 0x201d:
    case 0x201e: // „
    case 0x00ab: // «
    case 0x00bb: // »
    case 0x2039: // ‹
    case 0x203a: // ›
    case 0x2026: // … (a value cut short is no value)
    case 0x3008: // 〈
    case 0x3009: // 〉
    case 0x300a: // 《
    case 0x300b: // 》
    case 0x300e: // 『
    case 0x300f: // 』
    case 0xff01: // ！
    case 0xff1f: // ？
      return true;
    default:
      return false;
  }
}

/** Han (with extension A and the compatibility block), hiragana, katakana, Hangul syllables. */
const isSpacelessLetter = (c: number) =>
  (c >= 0x4e00 && c <= 0x9fff) ||
  (c >= 0x3400 && c <= 0x4dbf) ||
  (c >= 0x3040 && c <= 0x30ff) ||
  (c >= 0xac00 && c <= 0xd7af) ||
  (c >= 0xf900 && c <= 0xfaff);

const HARD = 1;
/** Inside a token, the separators of pairs (`user:pass`, `host/user/pass`, `KEY=value`, `pass@host`). */
const SOFT = 2;
const LETTER = 4;
/** Letters, `-` and `_`: a form made of these only is a word or a slug, never propagated. */
const PLAIN = 8;
/** The class of each ASCII unit, looked up once per character of every text the set is checked on. */
const ASCII = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c <= 32; c++) t[c] = HARD;
  t[127] = HARD;
  for (const ch of '`"\',;|()[]{}<>') t[ch.charCodeAt(0)] = HARD;
  for (const ch of ':/=@') t[ch.charCodeAt(0)] = SOFT;
  for (let c = 65; c <= 90; c++) t[c] = LETTER | PLAIN;
  for (let c = 97; c <= 122; c++) t[c] = LETTER | PLAIN;
  t[0x2d] = PLAIN;
  t[0x5f] = PLAIN;
  return t;
})();

/** An ASCII digit or symbol other than `-` and `_`: what a propagated value holds at least one of. */
const isStrong = (c: number) => c < 128 && (ASCII[c]! & PLAIN) === 0;

/**
 * What the tokenizer (forEachToken) needs of each UTF-16 unit, as one table (64 KiB, made once):
 * a hard boundary (isHard), a separator (SOFT), another digit or symbol (isStrong), or 0 for the
 * rest (letters, `-`, `_`, units past ASCII that are no boundary). It reads every unit of every
 * text, and notes in Han, Hangul or Cyrillic are mostly units past ASCII: one load and one test
 * per unit instead of a range test, the ASCII table and isHardWide's switch
 * (docs/performance-validators.md, "secret-check: fast paths"). Made on first use, not at module
 * load: 65,536 tests on a cold engine would cost every hook process that loads the validators
 * and never tokenizes a text (a session start in an unchanged project; docs/performance.md,
 * "The hooks").
 */
const T_HARD = 1;
const T_SOFT = 2;
const T_STRONG = 3;
const unitClass = onFirstUse(() => {
  const t = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (isHard(c)) t[c] = T_HARD;
    else if (c < 128 && ASCII[c]! & SOFT) t[c] = T_SOFT;
    else if (isStrong(c)) t[c] = T_STRONG;
  }
  return t;
});

function hasStrong(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (isStrong(text.charCodeAt(i))) return true;
  return false;
}
/** Markdown emphasis around a value. */
const isLeadTrim = (c: number) => c === 0x2a || c === 0x5f || c === 0x7e;
/** Emphasis and sentence punctuation after a value. */
const isTailTrim = (c: number) =>
  c === 0x2a || c === 0x5f || c === 0x7e || c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3a;

/** Separators looked at in one token: a URL or a path has a few; more only multiplies sub-tokens. */
const MAX_SOFT = 8;

/**
 * Every candidate token of `text` (start, end): each run between hard boundaries, the same
 * run without emphasis and closing punctuation, what follows its first `:`, `/`, `=` or `@` and
 * what precedes its last, and the parts between them. Only lengths in `lengths` are handed to `visit` (a run
 * shorter than the shortest is passed over at once); `visit` returning true ends the run's
 * other forms (the longest form found wins).
 */
export function forEachToken(
  text: string,
  lengths: ReadonlySet<number>,
  visit: (start: number, end: number, quick: number) => boolean,
  letterLengths?: ReadonlySet<number>,
  seed?: number,
): void {
  // Letter runs only when a letters-only value is among those looked for.
  if (letterLengths !== undefined && letterLengths.size > 0) letterRuns(text, letterLengths, visit);
  if (lengths.size === 0) return;
  const index = lengthIndex(lengths);
  if (index.desc.length === 0) return;
  const min = Math.max(index.desc[index.desc.length - 1]!, MIN_VALUE_CHARS);
  const soft: number[] = [];
  forEachRun(text, min, soft, (ws, we, softs, fs, ls) =>
    runForms(text, ws, we, soft, softs, fs, ls, index, visit, min, seed),
  );
}

/**
 * Each run of `text` between hard boundaries (isHard) that holds a digit or symbol (isStrong or a
 * separator: only such a run can hold a value, propagatable) and is at least `min` units long, in
 * text order, with the positions of its first MAX_SOFT separators in `soft` (reused: the first
 * `softs` are this run's) and of its first and last digit or symbol (strongIn). Real notes are dense in digits, `.`, `/` and `:`; a regex search per such
 * character cost more than this loop (docs/performance-validators.md, "secret-check: fast paths").
 *
 * A run shorter than `min` is passed over without reading all of it: the unit `min - 1` after a
 * run's possible start is read first, then back towards the start; a hard boundary there means
 * no run of `min` starts before it, so the search goes on past it (prose's short words are read
 * a part of their units, text in Han or kana, where every letter is a boundary, one unit in
 * `min`). Only a run known to be `min` long is read whole, from its start, as the plain loop
 * (forEachRunPlain) reads it. The units between the boundary found and the last unit read are
 * known to be no boundary and are not read back again.
 */
export function forEachRun(
  text: string,
  min: number,
  soft: number[],
  onRun: (ws: number, we: number, softs: number, firstStrong: number, lastStrong: number) => void,
): void {
  const n = text.length;
  const cls = unitClass();
  let ws = 0;
  // Every unit in [ws, clean] is known to be no hard boundary; `cleanPlain`: and no digit, symbol
  // or separator either (letters, `-`, `_`, units past ASCII).
  let clean = -1;
  let cleanPlain = true;
  for (;;) {
    const p = ws + min - 1; // the last unit of a run of `min` starting at ws
    if (p >= n) return; // what is left is shorter than `min` (past the end reads as a hard boundary)
    const stop = clean >= ws ? clean : ws - 1;
    let plain = true;
    let q = p;
    for (; q > stop; q--) {
      const k = cls[text.charCodeAt(q)]!;
      if (k === T_HARD) break;
      if (k !== 0) plain = false;
    }
    if (q > stop) {
      // A boundary at q: no run of `min` starts at or before it; [q + 1, p] holds none.
      ws = q + 1;
      clean = p;
      cleanPlain = plain;
      continue;
    }
    // [ws, p] holds no boundary: the run is at least `min` long. It is read on from its start,
    // or from past p when [ws, p] holds no digit, symbol or separator (its first separators and
    // whether it holds a digit or symbol lie further on), as the plain loop would read it.
    if (stop >= ws && !cleanPlain) plain = false;
    let first = -1;
    let last = -1;
    let softs = 0;
    let i = plain ? p + 1 : ws;
    for (; i < n; i++) {
      const k = cls[text.charCodeAt(i)]!;
      if (k === 0) continue; // a letter, `-`, `_` or a unit past ASCII that is no boundary
      if (k === T_HARD) break;
      if (first === -1) first = i;
      last = i;
      if (k === T_SOFT && softs < MAX_SOFT) soft[softs++] = i;
    }
    if (first !== -1) onRun(ws, i, softs, first, last);
    ws = i + 1;
    clean = ws - 1;
    cleanPlain = true;
  }
}

/**
 * forEachRun's plain form, every unit read once in order (what forEachToken did before the
 * skips): the fast-path tests hold forEachRun to it.
 */
export function forEachRunPlain(
  text: string,
  min: number,
  soft: number[],
  onRun: (ws: number, we: number, softs: number, firstStrong: number, lastStrong: number) => void,
): void {
  const n = text.length;
  const cls = unitClass();
  let ws = 0;
  let first = -1;
  let last = -1;
  let softs = 0;
  for (let i = 0; i <= n; i++) {
    // Past the end reads as a hard boundary: the last run is closed like the others.
    const k = i < n ? cls[text.charCodeAt(i)]! : T_HARD;
    if (k === 0) continue;
    if (k !== T_HARD) {
      if (first === -1) first = i;
      last = i;
      if (k === T_SOFT && softs < MAX_SOFT) soft[softs++] = i;
      continue;
    }
    if (first !== -1 && i - ws >= min) onRun(ws, i, softs, first, last);
    ws = i + 1;
    first = -1;
    softs = 0;
  }
}

/**
 * The distinctive letter runs of `text` (distinctiveLetters), wherever they stand — alone or
 * inside a path, a URL or a file name — bounded by characters that are neither letters nor
 * digits. A run of a length the set does not hold is passed over; most prose has few anchors.
 */
function letterRuns(
  text: string,
  lengths: ReadonlySet<number>,
  visit: (start: number, end: number, quick: number) => boolean,
): void {
  // A run holds the anchor (a capital after a small letter, or twelve letters in a row) exactly
  // when it has such a capital or is twelve letters or more: the short runs are found by the
  // capital (a fast search), the long ones by skipping twelve at a time. Each pass only when the
  // set holds a length it can find; the runs are visited in text order.
  let short = false;
  let long = false;
  let step = 64; // the shortest long length sought
  for (const l of lengths) {
    if (l < 12) short = true;
    else if (l <= 64) {
      long = true;
      if (l < step) step = l;
    }
  }
  const runs: number[] = [];
  if (short) {
    const re = INNER_CAPITAL_G;
    re.lastIndex = 0;
    // test(), not exec(): no match array per anchor; the match is letters, so its run is found from where it ended.
    while (re.test(text)) {
      let s = re.lastIndex;
      while (s > 0 && isAsciiLetter(text.charCodeAt(s - 1))) s--;
      let e = re.lastIndex;
      while (e < text.length && isAsciiLetter(text.charCodeAt(e))) e++;
      re.lastIndex = e;
      if (e - s < 12 && lengths.has(e - s)) runs.push(s, e);
    }
  }
  if (long) longLetterRuns(text, lengths, runs, step);
  if (runs.length === 0) return;
  if (short && long) sortPairs(runs);
  for (let k = 0; k < runs.length; k += 2) {
    const s = runs[k]!;
    const e = runs[k + 1]!;
    if (s > 0 && isAsciiDigit(text.charCodeAt(s - 1))) continue;
    if (e < text.length && isAsciiDigit(text.charCodeAt(e))) continue;
    if (!distinctiveLetters(text.slice(s, e))) continue;
    visit(s, e, -1);
  }
}
const INNER_CAPITAL_G = /[a-z][A-Z]/g;

/**
 * The whole runs of 12 to 64 ASCII letters of a sought length, as (start, end) pairs: a run of
 * `step` letters (the shortest such length sought) covers one of every `step`-th position, so
 * only those are read, and from a letter there the run is followed back and forth (most prose is
 * read a fraction of its characters). A run shorter than `step` is of no length sought.
 */
function longLetterRuns(text: string, lengths: ReadonlySet<number>, runs: number[], step: number): void {
  const n = text.length;
  let from = 0; // every run starting before this is done
  for (let p = step - 1; p < n; ) {
    if (!isAsciiLetter(text.charCodeAt(p))) {
      p += step;
      continue;
    }
    let s = p;
    while (s > from && isAsciiLetter(text.charCodeAt(s - 1))) s--;
    if (p - s < step - 1) {
      // Shorter than `step` up to p: a run of `step` must start after s and cover p + step - (p - s).
      let e = p + 1;
      while (e < n && e - s < step && isAsciiLetter(text.charCodeAt(e))) e++;
      if (e - s < step) {
        from = e;
        p = e + step;
        continue;
      }
    }
    let e = p + 1;
    while (e < n && isAsciiLetter(text.charCodeAt(e))) e++;
    if (e - s <= 64 && lengths.has(e - s)) runs.push(s, e);
    from = e;
    p = e + step;
  }
}

function sortPairs(runs: number[]): void {
  const pairs: [number, number][] = [];
  for (let k = 0; k < runs.length; k += 2) pairs.push([runs[k]!, runs[k + 1]!]);
  pairs.sort((x, y) => x[0] - y[0]);
  for (let k = 0; k < pairs.length; k++) {
    runs[2 * k] = pairs[k]![0];
    runs[2 * k + 1] = pairs[k]![1];
  }
}

/**
 * The lengths sought, as a table (is a form's length one of them? one load, no hashing) and
 * longest first; made once per set (a set's lengths are one object while the set is).
 */
interface LengthIndex {
  ok: Uint8Array;
  desc: readonly number[];
}
const LENGTH_INDEX = new WeakMap<ReadonlySet<number>, LengthIndex>();
function lengthIndex(lengths: ReadonlySet<number>): LengthIndex {
  let index = LENGTH_INDEX.get(lengths);
  if (index === undefined) {
    const desc = [...lengths].filter((l) => l > 0).sort((x, y) => y - x);
    const ok = new Uint8Array((desc[0] ?? 0) + 1);
    for (const l of desc) ok[l] = 1;
    index = { ok, desc };
    LENGTH_INDEX.set(lengths, index);
  }
  return index;
}

/**
 * One form [s, e) of a run: of a length sought (the value's floor at least), holding a digit or
 * symbol, handed to `visit` without a carried hash. A function of its own, not a closure made
 * per run (forEachRun hands over hundreds of runs per file).
 */
function tryForm(
  text: string,
  s: number,
  e: number,
  ok: Uint8Array,
  visit: (start: number, end: number, quick: number) => boolean,
  fs: number,
  ls: number,
): boolean {
  const len = e - s;
  return len >= MIN_VALUE_CHARS && len < ok.length && ok[len] === 1 && strongIn(text, s, e, fs, ls) && visit(s, e, -1);
}

/**
 * hasStrong(text, s, e) for [s, e) inside a run whose first and last digit or symbol are at `fs`
 * and `ls` (forEachRun): no unit is read when one of them lies inside, or both outside on one
 * side; only a form strictly between them is read.
 */
export function strongIn(text: string, s: number, e: number, fs: number, ls: number): boolean {
  if (ls < s || fs >= e) return false;
  if (fs >= s || ls < e) return true;
  return hasStrong(text, s, e);
}

function runForms(
  text: string,
  ws: number,
  we: number,
  soft: readonly number[],
  softs: number,
  fs: number,
  ls: number,
  index: LengthIndex,
  visit: (start: number, end: number, quick: number) => boolean,
  min: number,
  seed: number | undefined,
): void {
  const ok = index.ok;
  let ts = ws;
  let te = we;
  while (ts < te && isLeadTrim(text.charCodeAt(ts))) ts++;
  while (te > ts && isTailTrim(text.charCodeAt(te - 1))) te--;
  // Every form's core lies inside the trimmed run: a word with punctuation around it holds none.
  if (!strongIn(text, ts, te, fs, ls)) return;
  if (tryForm(text, ws, we, ok, visit, fs, ls)) return;
  if ((ts !== ws || te !== we) && tryForm(text, ts, te, ok, visit, fs, ls)) return;
  // The separators inside the trimmed run (soft is in order): seps [first, last).
  let first = 0;
  while (first < softs && soft[first]! < ts) first++;
  let last = first;
  while (last < softs && soft[last]! < te) last++;
  if (last > first) {
    // After the first separator and before the last (`KEY=pa:ss` holds `pa:ss`, `pass@host` `pass`),
    // then the parts between separators (`host/user/pass`, `user:pass@host`).
    if (tryForm(text, soft[first]! + 1, te, ok, visit, fs, ls) || tryForm(text, ts, soft[last - 1]!, ok, visit, fs, ls))
      return;
    if (last - first > 1) {
      let from = ts;
      let hit = false;
      for (let k = first; k < last; k++) {
        hit = tryForm(text, from, soft[k]!, ok, visit, fs, ls) || hit;
        from = soft[k]! + 1;
      }
      if (tryForm(text, from, te, ok, visit, fs, ls) || hit) return;
    }
  }
  // A value strictly inside the run is shorter than it: only runs longer than the shortest sought.
  if (te - ts > min) innerForms(text, ts, te, index, visit, seed, fs, ls);
}

/** Characters a value inside a longer token is looked for between: at most this many per token. */
const MAX_INNER = 24;
/**
 * A value inside a longer token at boundaries that are neither letters nor digits
 * (`/srv/VALUE.txt`, `b"VALUE\x00"`, `VALUE-old`): each stretch from a run's start or the
 * character after such a boundary, to a run's end or the next such boundary, longest first;
 * a found value's stretch is skipped past. Only lengths the set holds are looked at.
 */
const INNER_CUTS: number[] = [];
function innerForms(
  text: string,
  ts: number,
  te: number,
  index: LengthIndex,
  visit: (start: number, end: number, quick: number) => boolean,
  seed: number | undefined,
  fs: number,
  ls: number,
): void {
  const ok = index.ok;
  // The boundaries, in one reused list (this runs on most runs holding a digit or symbol).
  const cuts = INNER_CUTS;
  let n = 0;
  for (let i = ts; i < te && n < MAX_INNER; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && !isAsciiLetter(c) && !isAsciiDigit(c)) cuts[n++] = i;
  }
  if (n === 0) return;
  // Starts: ts, then after each cut; ends: each cut, then te. Longest first; skip past a find.
  // With few lengths sought, each start tries those lengths (is its end a boundary?) instead
  // of every end.
  const sought = index.desc.length <= n ? index.desc : undefined;
  let after = ts;
  for (let a = -1; a < n; a++) {
    const s = a === -1 ? ts : cuts[a]! + 1;
    if (s < after) continue;
    if (sought !== undefined) {
      for (const len of sought) {
        const e = s + len;
        if (
          e > te ||
          (e < te && isAlnumUnit(text.charCodeAt(e))) ||
          (s === ts && e === te) ||
          !tryForm(text, s, e, ok, visit, fs, ls)
        )
          continue;
        after = e;
        break;
      }
      continue;
    }
    if (seed !== undefined) {
      if (innerEnds(text, s, te, a, n, ts, ok, visit, seed)) after = endAfter;
      continue;
    }
    for (let b = n; b >= 0; b--) {
      const e = b === n ? te : cuts[b]!;
      if (e <= s) break;
      if (e - s >= ok.length || ok[e - s] !== 1 || (s === ts && e === te) || !tryForm(text, s, e, ok, visit, fs, ls))
        continue;
      after = e;
      break;
    }
  }
}
/** The prefilter hash of text[s, cuts[b]) (text[s, te) for b = n), per b: filled by innerEnds. */
const END_HASH: number[] = [];
/** The end innerEnds found a value at. */
let endAfter = 0;
/**
 * innerForms' ends for the start `s` (after cut `a`), longest first, as tryForm would try them, with
 * each form's prefilter hash handed to `visit`: FNV-1a runs on from the start, so one pass over
 * the start's characters (up to the longest length sought) gives the hash at every end, where
 * tryForm hashed each form again; and hasStrong(s, e) is "the first digit or symbol from s lies
 * before e". Same forms, same order, same hashes (quickHashRange) (docs/performance-validators.md,
 * "secret-check: fast paths"). True when `visit` took one (its end in endAfter).
 */
function innerEnds(
  text: string,
  s: number,
  te: number,
  a: number,
  n: number,
  ts: number,
  ok: Uint8Array,
  visit: (start: number, end: number, quick: number) => boolean,
  seed: number,
): boolean {
  const cuts = INNER_CUTS;
  // The longest form that will be tried (a length sought, the value's floor, not the whole run):
  // no unit past its end is read, and a start with none reads nothing. The forms not tried are
  // skipped by the loop below as well, so the forms visited are the same.
  let top = -1;
  for (let b = n; b > a; b--) {
    const e = b === n ? te : cuts[b]!;
    if (e <= s) break;
    const len = e - s;
    if (len >= ok.length || ok[len] !== 1 || (s === ts && e === te) || len < MIN_VALUE_CHARS) continue;
    top = b;
    break;
  }
  if (top === -1) return false;
  let h = (2166136261 ^ seed) >>> 0;
  let firstStrong = -1;
  let j = s;
  for (let b = a + 1; b <= top; b++) {
    const e = b === n ? te : cuts[b]!;
    for (; j < e; j++) {
      const c = text.charCodeAt(j);
      if (firstStrong === -1 && isStrong(c)) firstStrong = j;
      h ^= c;
      h = Math.imul(h, 16777619);
    }
    END_HASH[b] = h >>> 0;
  }
  for (let b = top; b > a; b--) {
    const e = b === n ? te : cuts[b]!;
    if (e <= s) break;
    const len = e - s;
    if (len >= ok.length || ok[len] !== 1 || (s === ts && e === te)) continue;
    // tryForm's remaining tests: the value's floor, a digit or symbol inside, then the visit.
    if (len < MIN_VALUE_CHARS || firstStrong === -1 || firstStrong >= e || !visit(s, e, END_HASH[b]!)) continue;
    endAfter = e;
    return true;
  }
  return false;
}

/** A unit that is no boundary inside a run: an ASCII letter or digit, or any unit past ASCII (innerForms' cuts are ASCII). */
const isAlnumUnit = (c: number) => c >= 128 || isAsciiLetter(c) || isAsciiDigit(c);

/** A text's own credential values (the spans the detectors found), by value, with the line of the first. */
export type OwnValues = ReadonlyMap<string, number>;

type Range = [number, number];

function overlapsAny(taken: readonly Range[], start: number, end: number): boolean {
  for (const [s, e] of taken) if (start < e && end > s) return true;
  return false;
}

/**
 * The known-value candidates of `text`: each occurrence, outside the spans the detectors
 * claimed (`taken`), of a value found as a credential on another line of this text (`own`)
 * or held by the set (`known`). Tier 3: a detector's own finding always names the span.
 */
export function knownValueCandidates(
  text: string,
  taken: readonly Range[],
  own: OwnValues,
  known: KnownValues | undefined,
): SecretCandidate[] {
  const setSize = known?.entries.size ?? 0;
  if (own.size === 0 && setSize === 0) return [];
  const ownLengths = new Set<number>();
  const ownLetterLengths = new Set<number>();
  for (const v of own.keys()) {
    if (distinctiveLetters(v)) ownLetterLengths.add(v.length);
    else ownLengths.add(v.length);
  }
  const letterLengths =
    setSize === 0
      ? ownLetterLengths
      : ownLetterLengths.size === 0
        ? known!.letterLengths
        : new Set([...ownLetterLengths, ...known!.letterLengths]);
  const knownOk = setSize > 0 ? knownLengthTable(known!) : EMPTY_TABLE;
  const quickBits = setSize > 0 ? quickBitsOf(known!) : EMPTY_BITS;
  const out: SecretCandidate[] = [];
  let lengths: ReadonlySet<number> = known?.lengths ?? ownLengths;
  if (own.size > 0 && setSize > 0) lengths = new Set([...ownLengths, ...known!.lengths]);
  forEachToken(
    text,
    lengths,
    (start, end, quick) => {
      // A match is rare: the claimed spans are looked at only for one.
      const len = end - start;
      let message: string | null = null;
      if (own.size > 0 && (ownLengths.has(len) || ownLetterLengths.has(len))) {
        const line = own.get(text.slice(start, end));
        if (line !== undefined) message = `value found as a credential on line ${line} of this file (${len} chars)`;
      }
      if (message === null && setSize > 0 && len < knownOk.length && knownOk[len] === 1) {
        // innerForms hands the hash it carried along (innerEnds); other forms are hashed here.
        const q = quick >= 0 ? quick : quickHashRange(known!.seed, text, start, end);
        // The bit of the hash's top 18 bits first: a Set lookup of a number past 2^30 hashes a
        // heap number, and nearly every token misses (docs/performance-validators.md).
        if ((quickBits[q >>> 19]! & (1 << ((q >>> 14) & 31))) === 0 || !known!.quick.has(q)) return false;
        const entry = known!.entries.get(valueHash(known!.salt, text.slice(start, end)));
        if (entry) message = `value found as a credential in ${entry.id} (${len} chars)`;
      }
      if (message === null || overlapsAny(taken, start, end)) return false;
      // The emphasis and punctuation around the value are masked with it: a value that ends in
      // `!` or `.` is stored without it (normalValue), and the mask must not show it.
      let s = start;
      let e = end;
      while (s > 0 && isLeadTrim(text.charCodeAt(s - 1))) s--;
      while (e < text.length && isTailTrim(text.charCodeAt(e))) e++;
      out.push(candidate(overlapsAny(taken, s, e) ? start : s, overlapsAny(taken, s, e) ? end : e, message));
      return true;
    },
    letterLengths,
    setSize > 0 ? known!.seed : undefined,
  );
  return out;
}

const EMPTY_TABLE = new Uint8Array(0);
/** Per set, its lengths (letters-only ones too) as a table: is a form's length the set's? one load. */
const KNOWN_LENGTHS = new WeakMap<KnownValues, Uint8Array>();
function knownLengthTable(known: KnownValues): Uint8Array {
  let ok = KNOWN_LENGTHS.get(known);
  if (ok === undefined) {
    const all = [...known.lengths, ...known.letterLengths].filter((l) => l > 0);
    ok = new Uint8Array(Math.max(0, ...all) + 1);
    for (const l of all) ok[l] = 1;
    KNOWN_LENGTHS.set(known, ok);
  }
  return ok;
}

const EMPTY_BITS = new Int32Array(0);
/** Per set, which values of the prefilter hash's top 18 bits it holds: 2^18 bits, 32 KiB. */
const QUICK_BITS = new WeakMap<KnownValues, Int32Array>();
function quickBitsOf(known: KnownValues): Int32Array {
  let bits = QUICK_BITS.get(known);
  if (bits === undefined) {
    bits = new Int32Array(1 << 13);
    for (const q of known.quick) bits[q >>> 19]! |= 1 << ((q >>> 14) & 31);
    QUICK_BITS.set(known, bits);
  }
  return bits;
}

/** Words joined by `-`/`_` (`change-me`): a value propagated within its own text only. */
const JOINED_WORDS = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$/;
const isWordChar = (c: number) => isAsciiLetter(c) || isAsciiDigit(c) || c === 0x2d || c === 0x5f;
/**
 * Each occurrence in `text` of a joined-words value of this text (ownJoinedValue), outside the
 * spans already claimed, bounded by no letter, digit, `-` or `_` — a folder of the same name
 * included: what the note calls a credential is never shown in clear beside it (docs/credentials.md §8).
 */
export function ownJoinedCandidates(
  text: string,
  taken: readonly Range[],
  joined: ReadonlyMap<string, number>,
): SecretCandidate[] {
  const out: SecretCandidate[] = [];
  for (const [v, line] of joined) {
    for (let at = text.indexOf(v); at !== -1; at = text.indexOf(v, at + 1)) {
      const end = at + v.length;
      if ((at > 0 && isWordChar(text.charCodeAt(at - 1))) || (end < text.length && isWordChar(text.charCodeAt(end))))
        continue;
      if (
        overlapsAny(taken, at, end) ||
        overlapsAny(
          out.map((c) => [c.start, c.end]),
          at,
          end,
        )
      )
        continue;
      out.push(candidate(at, end, `value found as a credential on line ${line} of this file (${v.length} chars)`));
    }
  }
  return out;
}

/** `scheme://user:PASS@host`: only the part between `:` and `@` is the secret (the masks use it too). */
export function urlPassword(text: string, start: number, end: number): [number, number] {
  const s = text.slice(start, end);
  const auth = s.indexOf('://') + 3;
  const at = s.lastIndexOf('@');
  const colon = s.indexOf(':', auth);
  return colon > 0 && colon < at ? [start + colon + 1, start + at] : [start, end];
}

/**
 * The value a credential finding holds: a URL's password only, else the finding's span. Every
 * place that needs "the value" takes it from here: propagation (credentialValue), the copy
 * purge (lib/validators/credential-values.ts).
 */
export function findingValue(text: string, c: SecretCandidate): string {
  const [s, e] = c.code === 'secret.url-credentials' ? urlPassword(text, c.start, c.end) : [c.start, c.end];
  return text.slice(s, e);
}

/**
 * A value as it is stored and compared: without the whitespace, quotes, backticks, brackets,
 * emphasis and closing punctuation around it (docs/credentials.md §8, "Normal form"). Both
 * sides go through it: the value a detector found (credentialValue) and each token of a text
 * (forEachToken tries the token in this form), so `` `VALUE` ``, `"VALUE"`, `**VALUE**`,
 * `VALUE.` and a detector's span with a stray quote or space all meet as VALUE.
 */
export function normalValue(value: string): string {
  let s = 0;
  let e = value.length;
  while (s < e && isAround(value.charCodeAt(s), true)) s++;
  while (e > s && isAround(value.charCodeAt(e - 1), false)) e--;
  return s === 0 && e === value.length ? value : value.slice(s, e);
}

/** What may stand around a value without being part of it: a token boundary, or emphasis and punctuation. */
function isAround(c: number, lead: boolean): boolean {
  return isHard(c) || (lead ? isLeadTrim(c) : isTailTrim(c));
}

/**
 * Whether a finding's value is repeated wherever it stands (docs/credentials.md §8, "What
 * propagates"): not a private key block (many lines), not a known value's own occurrence, and a
 * bare run whose only context is a key word on its line or beside it (`secret.bare-key`, the
 * weakest evidence the check has) only when it looks generated — upper- and lower-case letters
 * and digits, as base62 and base64 keys are — since hex and one-case runs are what the ids
 * repeated across a chat log or a record set look like.
 */
export function propagatesFrom(c: { code: string }, value: string): boolean {
  if (c.code === 'secret.private-key' || c.code === KNOWN_VALUE_CODE) return false;
  return c.code !== 'secret.bare-key' || (/[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value));
}

/**
 * Where a credential candidate's value is masked again (docs/credentials.md §8), the one place
 * for that rule:
 * - `everywhere`: repeated in every file (the set of known values) — propagatable() and
 *   propagatesFrom();
 * - `text`: only where it stands again in this text, as a token — a value propagatable() takes
 *   whose finding's evidence is too weak to repeat it elsewhere (a bare key of hex or one case);
 * - `joined`: only in this text, bounded by no letter, digit, `-` or `_` (ownJoinedCandidates) —
 *   words joined (`change-me` set as a token), which propagatable() refuses since as a slug they
 *   are ordinary text elsewhere.
 * Null for none: a private key block (many lines), a known value's own occurrence, a value too
 * short or plain. The value is findingValue() in its normal form.
 */
export type ValueScope = 'everywhere' | 'text' | 'joined';
export function valueScope(text: string, c: SecretCandidate): { value: string; scope: ValueScope } | null {
  if (c.code === 'secret.private-key' || c.code === KNOWN_VALUE_CODE) return null;
  const value = normalValue(findingValue(text, c));
  if (propagatable(value)) return { value, scope: propagatesFrom(c, value) ? 'everywhere' : 'text' };
  return value.length >= MIN_VALUE_CHARS && JOINED_WORDS.test(value) ? { value, scope: 'joined' } : null;
}

/** The value a credential candidate holds when it is propagated to every file (valueScope `everywhere`), else null. */
export function credentialValue(text: string, c: SecretCandidate): string | null {
  const v = valueScope(text, c);
  return v !== null && v.scope === 'everywhere' ? v.value : null;
}

function candidate(start: number, end: number, message: string): SecretCandidate {
  return { start, end, code: KNOWN_VALUE_CODE, message, tier: 3 };
}

/** Whether `text` holds one of `known`'s values as a token (the scan's search for files to check again). */
export function holdsKnownValue(text: string, known: KnownValues): boolean {
  if (known.entries.size === 0) return false;
  let found = false;
  forEachToken(
    text,
    known.lengths,
    (start, end) => {
      if (found || !known.quick.has(quickHashRange(known.seed, text, start, end))) return false;
      if (!known.entries.has(valueHash(known.salt, text.slice(start, end)))) return false;
      found = true;
      return true;
    },
    known.letterLengths,
  );
  return found;
}
