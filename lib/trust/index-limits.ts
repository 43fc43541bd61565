/**
 * The index-file limits of the Claude Code layout (docs/layouts.md): MEMORY.md is loaded first
 * and only its first 200 lines / 25,000 bytes reach the session. We reproduce the cut so
 * the user sees exactly what was lost, and cut on a line (or at least a character)
 * boundary so no half-character reaches the assistant.
 */

export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25_000;
export const INDEX_WARNING = '> WARNING: MEMORY.md is too large. Only part of it was loaded.';

export interface IndexLimitResult {
  /** What is loaded: the kept part, plus the warning lines when something was cut. */
  text: string;
  truncated: boolean;
  /** Which limits cut the text (empty when nothing was cut). */
  by: ('lines' | 'bytes')[];
  totalLines: number;
  /** Complete lines kept. */
  keptLines: number;
  totalBytes: number;
  keptBytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 bytes of `s`: its length when it is ASCII (most MEMORY.md lines), else encoded (no buffer per line). */
function utf8Length(s: string): number {
  return !NON_ASCII.test(s) ? s.length : encoder.encode(s).length;
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Lines with their terminators; a final newline does not open an extra line. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Largest prefix of `bytes` of at most `max` bytes ending on a newline, else on a character boundary. */
function byteCut(bytes: Uint8Array, max: number): number {
  const nl = bytes.lastIndexOf(0x0a, max - 1);
  if (nl !== -1) return nl + 1;
  let cut = max;
  // 10xxxxxx is a UTF-8 continuation byte: back up to the start of that character.
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut;
}

export function applyIndexLimits(
  text: string,
  maxLines = INDEX_MAX_LINES,
  maxBytes = INDEX_MAX_BYTES,
): IndexLimitResult {
  const lines = splitLines(text);
  const totalBytes = utf8Length(text);
  const by: IndexLimitResult['by'] = [];
  let kept = text;
  if (lines.length > maxLines) {
    kept = lines.slice(0, maxLines).join('');
    by.push('lines');
  }
  let keptBytes = kept === text ? totalBytes : utf8Length(kept);
  if (keptBytes > maxBytes) {
    const bytes = encoder.encode(kept);
    keptBytes = byteCut(bytes, maxBytes);
    kept = decoder.decode(bytes.subarray(0, keptBytes));
    by.push('bytes');
  }
  const keptLines = (kept.match(/\n/g) ?? []).length;
  const base = { truncated: by.length > 0, by, totalLines: lines.length, keptLines, totalBytes, keptBytes };
  if (!base.truncated) return { ...base, keptLines: lines.length, text };

  const partial = kept.length > 0 && !kept.endsWith('\n');
  const limits =
    by.length === 2
      ? `${maxLines}-line and ${thousands(maxBytes)}-byte limits`
      : by[0] === 'lines'
        ? `${maxLines}-line limit`
        : `${thousands(maxBytes)}-byte limit`;
  const first = keptLines + 1;
  const what = partial
    ? `the rest of line ${first} and everything after it`
    : first === lines.length
      ? `line ${first}`
      : `lines ${first}–${lines.length}`;
  const cutBytes = totalBytes - keptBytes;
  const note = `> Not loaded: ${what} (${thousands(cutBytes)} of ${thousands(totalBytes)} bytes), over the ${limits}.`;
  return { ...base, text: `${kept}${partial ? '\n' : ''}\n${INDEX_WARNING}\n${note}\n` };
}

/** `- [Title](file.md) — hook`: the link target of an index line (one rule; claude-index uses it too). */
const INDEX_LINK = /\]\(([^)\s]+\.md)\)/;

/** The filename (without directory) an index line links to, if any. */
export function indexLinkTarget(line: string): string | null {
  const m = INDEX_LINK.exec(line);
  if (!m) return null;
  const parts = m[1]!.split('/');
  return parts[parts.length - 1] || null;
}

export interface IndexLineView {
  /** 1-based line number in MEMORY.md. */
  n: number;
  /** The line without its terminator. */
  text: string;
  /** loaded whole, loaded in part (the byte cut falls inside it), or past the cut. */
  state: 'loaded' | 'partial' | 'cut';
  /** The memory file it links to (null for headings, prose, blank lines). */
  file: string | null;
  /** The link survives the cut (a partial line counts only when its link is in the kept part). */
  fileLoaded: boolean;
}

export interface IndexView {
  lines: IndexLineView[];
  limits: Omit<IndexLimitResult, 'text'>;
  /** First line (1-based) not loaded whole, or null when nothing is cut. */
  firstCutLine: number | null;
}

/**
 * Every index line with what the 200-line / 25,000-byte cut does to it (docs/session-context.md "The index cut").
 * The same view as `indexViewByCut`, worked out from the lines' lengths instead of the cut text:
 * a session start reads the MEMORY.md of each of its folders, 1,219 lines in the largest project
 * of the bench home, where making the cut text and a UTF-8 array per line was about a third of
 * the plan (docs/performance.md, "The hooks"). A cut inside the first line (no whole line fits
 * in the bytes) is the one case it leaves to `indexViewByCut`.
 */
export function indexView(text: string, maxLines = INDEX_MAX_LINES, maxBytes = INDEX_MAX_BYTES): IndexView {
  const raw = splitLines(text);
  const totalBytes = utf8Length(text);
  const by: IndexLimitResult['by'] = [];
  let keptLines = raw.length;
  let keptBytes = totalBytes;
  if (raw.length > maxLines) {
    keptLines = maxLines;
    by.push('lines');
    keptBytes = utf8Length(raw.slice(0, maxLines).join(''));
  }
  if (keptBytes > maxBytes) {
    // The whole lines that fit, as byteCut finds the last newline within the bytes.
    let bytes = 0;
    let k = 0;
    for (; k < keptLines; k++) {
      const line = raw[k]!;
      const n = utf8Length(line);
      if (bytes + n > maxBytes || !line.endsWith('\n')) break;
      bytes += n;
    }
    if (k === 0) return indexViewByCut(text, maxLines, maxBytes);
    keptLines = k;
    keptBytes = bytes;
    by.push('bytes');
  }
  const truncated = by.length > 0;
  const limits = { truncated, by, totalLines: raw.length, keptLines, totalBytes, keptBytes };
  const lines: IndexLineView[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const full = raw[i]!;
    const end = full.endsWith('\r\n') ? full.length - 2 : full.endsWith('\n') ? full.length - 1 : full.length;
    const body = end === full.length ? full : full.slice(0, end);
    const file = indexLinkTarget(body);
    const loaded = i < keptLines;
    lines[i] = { n: i + 1, text: body, state: loaded ? 'loaded' : 'cut', file, fileLoaded: loaded && file !== null };
  }
  return { lines, limits, firstCutLine: keptLines < raw.length ? keptLines + 1 : null };
}

/** `indexView` from the cut text itself (applyIndexLimits): a line the byte cut falls inside is `partial`. */
export function indexViewByCut(text: string, maxLines = INDEX_MAX_LINES, maxBytes = INDEX_MAX_BYTES): IndexView {
  const { text: _loaded, ...limits } = applyIndexLimits(text, maxLines, maxBytes);
  const raw = splitLines(text);
  const lines: IndexLineView[] = [];
  let offset = 0;
  for (let i = 0; i < raw.length; i++) {
    const full = raw[i]!;
    const len = utf8Length(full);
    const start = offset;
    offset += len;
    const body = full.replace(/\r?\n$/, '');
    const file = indexLinkTarget(body);
    let state: IndexLineView['state'];
    let fileLoaded: boolean;
    if (i < limits.keptLines) {
      state = 'loaded';
      fileLoaded = file !== null;
    } else if (limits.truncated && limits.keptBytes > start && i === limits.keptLines) {
      state = 'partial';
      const kept = decoder.decode(encoder.encode(full).subarray(0, limits.keptBytes - start));
      fileLoaded = file !== null && indexLinkTarget(kept) === file;
    } else {
      state = 'cut';
      fileLoaded = false;
    }
    lines.push({ n: i + 1, text: body, state, file, fileLoaded });
  }
  const firstCut = lines.find((l) => l.state !== 'loaded');
  return { lines, limits, firstCutLine: firstCut ? firstCut.n : null };
}
