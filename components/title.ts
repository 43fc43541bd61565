/**
 * A record's or memory's title as the pages show it (docs/dashboard.md "Titles"): the first
 * line that holds text, its Markdown rendered as plain text, shortened to about `max` columns.
 * Pure, and the one place for the rule: record lists, the inbox and detail headers all call it.
 * It runs on text already masked (lib/validators/mask-inline.ts), so a shortened title can never
 * hold part of a value; a mask token `⟦…⟧` is kept whole or dropped whole.
 */

const MASK = /⟦[^⟧\n]*⟧/g;

/** Markdown inline syntax rendered as the text a reader sees. */
function inlineText(line: string): string {
  return (
    line
      // Block markers at the start: heading, quote, list item, task box.
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/\s+#+\s*$/, '')
      .replace(/^(\s*>\s?)+/, '')
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
      // Images and links keep their text; reference links too; autolinks keep the address.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      // HTML tags (not a lone `<` in prose).
      .replace(/<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>/g, '')
      // Code spans keep their content as written.
      .replace(/(`+)\s?([^`]|[^`][\s\S]*?[^`])\s?\1(?!`)/g, '$2')
      // Emphasis: `**x**`, `__x__`, `*x*`, `_x_` (not snake_case), `~~x~~`.
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\*)/g, '$1$2')
      .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      // Backslash escapes.
      .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Columns a character (its first code point) takes: East Asian wide and emoji count two. */
function width(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    c >= 0x1f300
    ? 2
    : 1;
}

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Characters as a reader sees them: a Thai vowel stays on its consonant, an emoji sequence whole. */
function graphemes(s: string): string[] {
  return Array.from(GRAPHEMES.segment(s), (g) => g.segment);
}

/** The text in units that are never split: a mask token, else one grapheme. */
function units(s: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (const m of s.matchAll(MASK)) {
    out.push(...graphemes(s.slice(pos, m.index)), m[0]);
    pos = m.index + m[0].length;
  }
  out.push(...graphemes(s.slice(pos)));
  return out;
}

/** `s` cut to about `max` columns: at a sentence end when one closes a fair part, else at a word, else anywhere. */
function shorten(s: string, max: number): string {
  const us = units(s);
  let cols = 0;
  let fit = 0;
  for (const u of us) {
    const w = u.startsWith('⟦') ? 3 : width(u);
    if (cols + w > max) break;
    cols += w;
    fit += 1;
  }
  if (fit === us.length) return s;
  const head = us.slice(0, fit);
  const text = head.join('');
  // The first sentence, when it fits and is not a stub (`e.g.`): a whole sentence needs no ellipsis.
  let sentence = -1;
  for (let i = 0; i < head.length; i += 1) {
    const u = head[i]!;
    const ends = /^[。！？]$/.test(u) || (/^[.!?]$/.test(u) && /^\s$/.test(us[i + 1] ?? ''));
    if (ends && i + 1 >= fit * 0.4) {
      sentence = i + 1;
      break;
    }
  }
  if (sentence > 0) return head.slice(0, sentence).join('').trim();
  // A word boundary in the last third; text without spaces (CJK) is cut where it is.
  const space = text.lastIndexOf(' ');
  const cut = space >= text.length * 0.66 ? text.slice(0, space) : text;
  return `${cut.replace(/[\s,;:–—-]+$/, '')}…`;
}

/**
 * The title of `text`: its first line with text, Markdown rendered, at most about `max` columns
 * (CJK counts two). '' when there is none, so callers fall back to the key: `title(t) || key`.
 */
export function title(text: string | null | undefined, max = 100): string {
  if (!text) return '';
  let inFence = false;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    // A setext underline, a rule or a table divider is no title.
    if (/^\s*([-=*_]\s*){3,}$/.test(raw) || /^\s*\|?\s*:?-{3,}/.test(raw)) continue;
    // A table row reads as its cells.
    const cells = /^\s*\|/.test(raw) ? raw.replace(/^\s*\||\|\s*$/g, '').replace(/\s*\|\s*/g, ' · ') : raw;
    const line = inFence ? raw.trim() : inlineText(cells);
    if (line) return shorten(line, max);
  }
  return '';
}
