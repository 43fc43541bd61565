/**
 * secret-check (docs/validators.md): exit 0 CLEAN, exit 1 SECRET-DETECTED.
 *
 * Scans the whole decoded file, frontmatter included, and reports every match
 * with its line and a masked excerpt. Redacted spans are blanked first. When
 * two detectors claim overlapping text (a token used as the user of a URL,
 * `user:pass@host.com` also looking like an e-mail), only the more specific one
 * is reported, so a lower-tier mask cannot reveal part of a higher-tier secret.
 */
import { patternCandidates, type SecretCandidate } from './secrets-patterns';
import { emailCandidates, homePathCandidates } from './secrets-pii';
import { DOCUMENT_URL, proseCandidates } from './secrets-prose';
import { isAllowedAddress } from './allow';
import { blankRedacted } from './secrets-redact';
import { knownValueCandidates, ownJoinedCandidates, valueScope } from './known-values';
import { lineAt, lineStarts, type ScanText, scanTextOf, tooLargeMessage } from './scan-text';
import { FILE_CAP_BYTES, findingClass, type Finding, type OwnerIdentity, type Verdict } from './types';
import { includesAfter } from './text-chars';
import { secretWordsOnceWorthIt } from './secret-words';

/**
 * Bumped whenever the secret rules change what they find: the scan re-inspects
 * every file when this or the owner identity (allowances included) differs from
 * what the index was built with.
 */
export const SECRET_RULES_VERSION = '2026-11-30.context-8+known-values-8';

type Range = [number, number];

/** Merge ranges into sorted, disjoint ones, so an overlap test is one binary search. */
function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function overlaps(disjoint: readonly Range[], start: number, end: number): boolean {
  // The last range starting before `end` is the only one that can reach past `start`.
  let lo = 0;
  let hi = disjoint.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((disjoint[mid]?.[0] ?? Infinity) < end) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && (disjoint[found]?.[1] ?? 0) > start;
}

/** Keep every candidate that does not overlap one of a stronger (lower) tier. */
export function resolveOverlaps(candidates: readonly SecretCandidate[]): SecretCandidate[] {
  // One tier only (most files: none or one candidate): nothing claims before it, so every
  // candidate wins, and the result is the same sort of the same list.
  const first = candidates[0];
  if (first === undefined) return [];
  if (candidates.length === 1) return [first];
  let oneTier = true;
  let sorted = true;
  for (let i = 1; i < candidates.length; i++) {
    const c = candidates[i]!;
    if (c.tier !== first.tier) oneTier = false;
    if (byPosition(candidates[i - 1]!, c) > 0) sorted = false;
  }
  // Already in order (most files: the detectors find in text order), a stable sort changes nothing.
  if (oneTier) return sorted ? candidates.slice() : [...candidates].sort(byPosition);
  let claimed: Range[] = [];
  const kept: SecretCandidate[] = [];
  for (const tier of [1, 2, 3] as const) {
    const winners = candidates.filter((c) => c.tier === tier && !overlaps(claimed, c.start, c.end));
    kept.push(...winners);
    claimed = mergeRanges([...claimed, ...winners.map((c): Range => [c.start, c.end])]);
  }
  return kept.sort(byPosition);
}

function byPosition(a: SecretCandidate, b: SecretCandidate): number {
  return a.start - b.start || a.end - b.end;
}

function verdict(findings: Finding[]): Verdict {
  const dirty = findings.length > 0;
  return { check: 'secret', exit: dirty ? 1 : 0, label: dirty ? 'SECRET-DETECTED' : 'CLEAN', findings };
}

/**
 * Every secret in `text`, resolved (one claim per span), in text order, with the
 * owner's allowed networks left out. The masks (withhold.ts) and the check share it.
 */
export function secretCandidates(
  text: string,
  owner: OwnerIdentity,
  starts: readonly number[] = lineStarts(text),
): SecretCandidate[] {
  // Blanking keeps every newline in place, so `text`'s line starts are the blanked text's too.
  const blanked = blankRedacted(text);
  // The trigger words and the token hints in one read of the text, for the two kinds of detector
  // (or, until that pays, each by its regex: the same words).
  const words = secretWordsOnceWorthIt(blanked);
  let shapes = patternCandidates(blanked, words?.hints);
  if (owner.allowNetworks && owner.allowNetworks.length > 0) {
    shapes = shapes.filter(
      (c) => c.code !== 'secret.private-ip' || !isAllowedAddress(blanked.slice(c.start, c.end), owner),
    );
  }
  // One list without spreads: most of the four are empty
  // (docs/performance-validators.md, "Both scanners: fast paths").
  const candidates = shapes; // a fresh list, ours to extend
  append(candidates, proseCandidates(blanked, starts, words));
  append(candidates, emailCandidates(blanked, owner));
  append(candidates, homePathCandidates(blanked, owner));
  // Most files have no candidate: nothing to keep out of key material, and no search for it.
  const blocks = candidates.length === 0 ? [] : keyMaterial(blanked, candidates);
  const resolved = withoutIdentifiers(blanked, resolveOverlaps(candidates));
  return withKnownValues(
    blanked,
    blocks.length === 0 ? resolved : outsideBlocks(resolved, blocks),
    owner,
    starts,
    blocks,
  );
}

/** An SSH public key (`ssh-ed25519 AAAA…`): public by design, however its base64 splits at `/`. */
const PUBLIC_KEY =
  /(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) AAAA[A-Za-z0-9+/]{16,}={0,3}/g;

function publicKeys(text: string): Range[] {
  // Most texts hold no key: one native search for its rare part (includesAfter) settles it.
  if (!includesAfter(text, 0x20, 'AAAA')) return [];
  const out: Range[] = [];
  PUBLIC_KEY.lastIndex = 0;
  for (let m = PUBLIC_KEY.exec(text); m !== null; m = PUBLIC_KEY.exec(text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * The material of SSH public keys, and the body of each private key block that has its END
 * line: one finding (on its BEGIN line) holds the whole key, so no line of the body is a credential of its own; a public key holds
 * none. Neither is repeated as a known value (docs/credentials.md, "Not credentials").
 */
function keyMaterial(text: string, candidates: readonly SecretCandidate[]): Range[] {
  const blocks: Range[] = publicKeys(text);
  for (const c of candidates) {
    if (c.code !== 'secret.private-key') continue;
    const endMarker = text.indexOf('-----END', c.end);
    if (endMarker === -1) continue;
    const close = text.indexOf('-----', endMarker + 8);
    if (close !== -1) blocks.push([c.end, close + 5]);
  }
  return blocks;
}

/** Detectors that propose a value from its context (a label, a line naming a key), not from a provider's form. */
const CONTEXT_CODES = new Set(['secret.password', 'secret.bare-key', 'secret.table-credential']);
/** Context detectors and a variable's name: what the text's other uses of the value can overrule. */
const NAMED_CODES = new Set([...CONTEXT_CODES, 'secret.env-credential']);

/**
 * An id's place right before an occurrence (its line's last 48 characters): the value of a field,
 * label or variable named an id (`"sender_id": "`, `open_id=`, `PLATFORM_ID=`, `chatId: `, `ID `),
 * a sender (`"sender": "`), or the last part of a colon-joined key (`agent:main:chat:direct:`).
 */
const ID_PLACE_BEFORE =
  /(?:(?:^|[^A-Za-z])(?:ids?|uuid|guid|sender|recipient)|[a-z0-9][_-](?:ids?|uuid|guid)|[a-z0-9](?:Ids?|ID|IDs|Uuid|UUID)|[A-Z0-9]_IDS?)["'`*]*\s*[:=：]?\s*["'`*]*\s*$|(?:^|[\s`"'(])[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)+:$/;

/**
 * Does the text, anywhere, show `value` in an id's place (ID_PLACE_BEFORE)? A value named an id
 * once is an identifier wherever else it stands: a chat log's sender id, a record's key, an
 * account's address set on a variable whose name says `KEY` (docs/credentials.md, "Not
 * credentials"). At most 64 occurrences are looked at.
 */
export function shownAsId(text: string, value: string): boolean {
  let n = 0;
  for (let at = text.indexOf(value); at !== -1 && n < 64; at = text.indexOf(value, at + value.length), n++) {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const before = text.slice(Math.max(lineStart, at - 48), at);
    if (ID_PLACE_BEFORE.test(before)) return true;
    if (at - lineStart === before.length && inNamePlace(text, lineStart, before, at + value.length)) return true;
  }
  return false;
}

/** What stands before a name from its line's start: a heading's marks (`### `, `### 2. `) or a list item's (`- **`). */
const NAME_PLACE_BEFORE = /^\s{0,3}(?:#{1,6}\s+(?:\d+[.)]\s+)?|(?:[-*+]|\d+[.)])\s+)[*_]{0,2}$/;
/** A label line naming an id (`Bot ID`, `企业ID`, `**Chat ID:**`): the value on the next line is that id. */
const ID_LABEL_LINE =
  /^\s*(?:[-*+]\s+)?[*_]{0,2}[^\n:：`]{0,30}(?<![A-Za-z])(?:ids?|IDs?|Ids?|uuid|UUID)[*_]{0,2}\s*[:：]?[*_]{0,2}\s*$/;

/**
 * Is the occurrence ending at `end` in a name's place: the whole text of a heading (`### X`), the
 * name of a list item (`- **X**: 162 SOL`, `- X: idle`), or alone on the line right under a label
 * line naming an id (`Bot ID` then `X`)? What a note names a section or an item by, or calls an id,
 * is something it talks about, not a secret it keeps (docs/credentials.md, "Not credentials").
 */
function inNamePlace(text: string, lineStart: number, before: string, end: number): boolean {
  // A few characters after it say enough; a long line is not read to its end for each occurrence.
  const window = text.slice(end, end + 8);
  const nl = window.indexOf('\n');
  const after = nl === -1 ? window : window.slice(0, nl);
  const lineEnds = nl !== -1 || end + 8 >= text.length;
  if (NAME_PLACE_BEFORE.test(before)) {
    if (before.trimStart().startsWith('#')) return lineEnds && /^[*_]{0,2}\s*$/.test(after);
    return /^[*_]{0,2}\s?[:：]\s/.test(after);
  }
  if (!lineEnds || !/^\s*[*_`]{0,2}$/.test(before) || !/^[*_`]{0,2}\s*$/.test(after) || lineStart < 2) return false;
  const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  return ID_LABEL_LINE.test(text.slice(prevStart, lineStart - 1));
}

/**
 * A value found by its context that this text also shows as a part of a document's address
 * (`…/docx/<value>`, `…/base/<value>`, `…/document/d/<value>/edit`) is that document's id: a
 * note's `app_token: X` beside `https://…/base/X` names the table, it opens nothing; and a value
 * found by its context or its variable's name that the text shows in an id's place elsewhere
 * (shownAsId) is an identifier (docs/credentials.md, "Not credentials"). Removing it here, where
 * it is first found, keeps it from being repeated on every other line as a known value.
 */
function withoutIdentifiers(text: string, resolved: SecretCandidate[]): SecretCandidate[] {
  let out: SecretCandidate[] | undefined;
  let parts: Set<string> | undefined;
  // A value repeated on many lines (a chat log's sender) is looked up once.
  let asId: Map<string, boolean> | undefined;
  let chain: boolean | undefined;
  for (let i = 0; i < resolved.length; i++) {
    const c = resolved[i]!;
    if (c.code === 'secret.login-pair' && listedUnderOneName(text, c.start)) {
      if (out === undefined) out = resolved.slice(0, i);
      continue;
    }
    if (NAMED_CODES.has(c.code) && (shellPrompt(text, c.start, c.end) || uploadToken(text, c.start))) {
      if (out === undefined) out = resolved.slice(0, i);
      continue;
    }
    if (NAMED_CODES.has(c.code) && c.end - c.start >= 8) {
      const v = text.slice(c.start, c.end);
      if (CONTEXT_CODES.has(c.code)) parts ??= documentUrlParts(text);
      asId ??= new Map();
      let id = asId.get(v);
      if (id === undefined) {
        id = shownAsId(text, v);
        asId.set(v, id);
      }
      if (BASE58_ADDRESS.test(v)) chain ??= CHAIN_WORDS.test(text);
      if ((CONTEXT_CODES.has(c.code) && parts!.has(v)) || id || (chain === true && BASE58_ADDRESS.test(v))) {
        if (out === undefined) out = resolved.slice(0, i);
        continue;
      }
    }
    out?.push(c);
  }
  return out ?? resolved;
}

/** An upload told on the line, then `(token: ` right before the value (`已上传…并发回链接（token: X）`). */
const TOKEN_PAREN_BEFORE = /[(（]\s*tokens?\s*[:：=]?\s*[`"']?$/i;
const UPLOAD_WORD = /upload|上传|上傳|업로드|アップロード|загруз/i;
/**
 * Is the value at `start` the token an upload returned, in parentheses after the line telling of
 * the upload? That token addresses the uploaded file, a document's id, as `doc_token` does
 * (docs/credentials.md, "Not credentials").
 */
function uploadToken(text: string, start: number): boolean {
  // The parenthesis right before the value, then an upload told earlier on its line (its last 300 characters).
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 300), start);
  return TOKEN_PAREN_BEFORE.test(before.slice(-24)) && UPLOAD_WORD.test(before);
}

/** A shell prompt's tail right after `user@host`: ` ~ %`, `:~$`, `:/srv#`, `]$`. */
const PROMPT_TAIL = /^(?:\s?:?\s?~[\w/.-]*|:\/[\w/.-]*)?\]?\s?[%$#](?:\s|$)/;
/**
 * Is the value at `start`–`end` a shell prompt (`name@host ~ % `, `name@host:~$ `)? A terminal
 * pasted into a note shows the next prompt right after `Password:` (the password is never echoed),
 * and that prompt is a user and a machine's name (docs/credentials.md, "Not credentials").
 */
function shellPrompt(text: string, start: number, end: number): boolean {
  // Looked for inside the value only: a search on from `start` would read the rest of the text.
  let at = start;
  while (at < end && text.charCodeAt(at) !== 64 /* @ */) at++;
  if (at === end) return false;
  // The tail starts where the host's name ends, inside the value (`ops@build:~$`) or after it.
  let host = at + 1;
  while (host < text.length && HOST_CHAR.test(text[host]!)) host++;
  const tail = PROMPT_TAIL.exec(text.slice(host, host + 40));
  return tail !== null && host + tail[0].length >= end;
}
const HOST_CHAR = /[\w.-]/;

/**
 * A Bitcoin or Solana address: 26 to 44 of the base58 alphabet (no `0`, `O`, `I`, `l`), digits and
 * both cases. A random key of that length holds one of those four nine times in ten; in a text
 * about coins (CHAIN_WORDS), such a value after `token` is a coin's mint or a wallet, a blockchain
 * address (CONTRACT §2.2, "Not credentials").
 */
const BASE58_ADDRESS = /^(?=[^\d]*\d)(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])[1-9A-HJ-NP-Za-km-z]{26,44}$/;
const CHAIN_TICKERS = /(?<![A-Za-z])(?:SOL|BTC|ETH|USDC|USDT)(?![A-Za-z])/;
const CHAIN_NAMES =
  /(?<![A-Za-z])(?:solana|bitcoin|ethereum|wallets?|lamports?|satoshis?|memecoins?|pump\.fun|solscan|dexscreener|raydium)(?![A-Za-z])/i;
const CHAIN_WORDS = { test: (text: string) => CHAIN_TICKERS.test(text) || CHAIN_NAMES.test(text) };

/**
 * Is the pair whose value starts at `at` one of a list of names under one namespace: the line
 * right before or after it starts with the same text up to the value (`- vendor/Model-A`,
 * `- vendor/Model-B`)? A login has one password per user on a line; a list of `x/a`, `x/b` is a
 * catalogue (a provider's models, a group's members; docs/credentials.md, "Not credentials").
 */
function listedUnderOneName(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const prefix = text.slice(lineStart, at);
  if (!prefix.trimEnd().endsWith('/')) return false;
  const prevStart = lineStart === 0 ? -1 : text.lastIndexOf('\n', lineStart - 2) + 1;
  if (prevStart !== -1 && text.startsWith(prefix, prevStart)) return true;
  const nextStart = text.indexOf('\n', at) + 1;
  return nextStart !== 0 && text.startsWith(prefix, nextStart);
}

const URL_STOP = /[\s<>`'"()[\]]/;

/** The parts of the paths of every document's address in `text`: one pass, once per text. */
function documentUrlParts(text: string): Set<string> {
  const parts = new Set<string>();
  // Each `://` found natively; the address runs back over its scheme and on to a stop.
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && /[A-Za-z0-9+.-]/.test(text[start - 1]!)) start--;
    let end = at + 3;
    while (end < text.length && !URL_STOP.test(text[end]!)) end++;
    const url = text.slice(start, end);
    if (!DOCUMENT_URL.test(url)) continue;
    const path = url.slice(url.indexOf('://') + 3).split(/[?#]/)[0]!;
    for (const p of path.split('/').slice(1)) if (p.length >= 16) parts.add(p);
  }
  return parts;
}

function outsideBlocks(resolved: SecretCandidate[], blocks: readonly Range[]): SecretCandidate[] {
  const disjoint = mergeRanges([...blocks]);
  return resolved.filter((c) => c.code === 'secret.private-key' || !overlaps(disjoint, c.start, c.end));
}

/**
 * The resolved candidates and, outside them, every occurrence of a credential value found
 * on another line of this text or held by the owner's set of known values (docs/credentials.md,
 * "Value propagation").
 */
function withKnownValues(
  text: string,
  resolved: SecretCandidate[],
  owner: OwnerIdentity,
  starts: readonly number[],
  blocks: readonly Range[],
): SecretCandidate[] {
  const own = new Map<string, number>();
  let joined: Map<string, number> | undefined;
  for (const c of resolved) {
    if (findingClass(c.code) !== 'credential') continue;
    // Every value this text calls a credential is masked where it stands again here, whether it
    // is repeated in other files too (`everywhere`) or not (`text`: a bare key of hex or one
    // case); words joined (`change-me` set as a token) at word boundaries (valueScope).
    const v = valueScope(text, c);
    if (v === null) continue;
    if (v.scope !== 'joined') {
      if (!own.has(v.value)) own.set(v.value, lineAt(starts, c.start));
      continue;
    }
    if (joined === undefined) joined = new Map();
    if (!joined.has(v.value)) joined.set(v.value, lineAt(starts, c.start));
  }
  if (own.size === 0 && joined === undefined && !owner.knownValues?.entries.size) return resolved;
  const taken = resolved.map((c): [number, number] => [c.start, c.end]);
  for (const b of blocks) taken.push([b[0], b[1]]);
  const found = knownValueCandidates(text, taken, own, owner.knownValues);
  if (joined !== undefined) {
    for (const c of found) taken.push([c.start, c.end]);
    append(found, ownJoinedCandidates(text, taken, joined));
  }
  if (found.length === 0) return resolved;
  return [...resolved, ...found].sort(byPosition);
}

function append(to: SecretCandidate[], from: readonly SecretCandidate[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]!);
}

/** `scanned`: the bytes already decoded (scanTextOf), when the caller runs both scanners on them. */
export function secretCheck(bytes: Buffer, owner: OwnerIdentity, scanned?: ScanText): Verdict {
  if (bytes.length > FILE_CAP_BYTES) {
    // Unscanned is not clean: a file nobody could check must not pass as safe.
    return verdict([
      {
        check: 'secret',
        code: 'secret.too-large',
        label: 'SECRET-DETECTED',
        message: tooLargeMessage(bytes.length),
        class: 'credential',
      },
    ]);
  }
  const { text, starts } = scanned ?? scanTextOf(bytes);
  const candidates = secretCandidates(text, owner, starts);
  const findings: Finding[] = [];
  for (const c of candidates) {
    findings.push({
      check: 'secret',
      code: c.code,
      label: 'SECRET-DETECTED',
      line: lineAt(starts, c.start),
      message: c.message,
      class: findingClass(c.code),
    });
  }
  return verdict(findings);
}
