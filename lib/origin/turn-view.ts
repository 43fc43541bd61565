/**
 * A window of a transcript for the transcript page (docs/origin.md "The transcript view"):
 * the entries of a few user turns around one, read in one pass that stops after the
 * window, each text cut to a bound. Raw text: the service masks it before it is shown.
 */
import { eachLine } from './lines';
import { head, parseLine, parts, PAT, str, userTurnText, type Json } from './transcript-lines';

export type TurnEntry =
  | { kind: 'user'; line: number; turn: number; at: string | null; text: string; sidechain: boolean }
  | { kind: 'assistant'; line: number; turn: number; at: string | null; text: string; sidechain: boolean }
  | {
      kind: 'tool-use';
      line: number;
      turn: number;
      at: string | null;
      id: string;
      name: string;
      input: string;
      sidechain: boolean;
    }
  | {
      kind: 'tool-result';
      line: number;
      turn: number;
      at: string | null;
      toolUseId: string;
      text: string;
      isError: boolean;
      sidechain: boolean;
    }
  | { kind: 'other'; line: number; turn: number; at: string | null; type: string; text: string; sidechain: boolean };

export interface TurnWindow {
  /** The turns shown, first to last (0 = lines before the first user message). */
  from: number;
  to: number;
  entries: TurnEntry[];
  /** More entries than the cap: the rest of the window is not shown. */
  truncated: boolean;
  /** A turn after the window exists. */
  hasNext: boolean;
  lines: number;
}

export interface WindowOptions {
  /** Turns shown either side of `turn`. */
  around?: number;
  maxEntries?: number;
  /** Characters kept of each text (a tool's input or output is longer than a page). */
  maxText?: number;
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… (${(s.length - max).toLocaleString('en-US')} more characters)` : s;
}

function resultText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) =>
        typeof p === 'object' && p && (p as Json).type === 'text'
          ? (str((p as Json).text) ?? '')
          : `[${str((p as Json)?.type) ?? 'part'}]`,
      )
      .join('\n');
  return c === undefined ? '' : JSON.stringify(c);
}

export function readTurnWindow(file: string, turn: number, opts: WindowOptions = {}): TurnWindow {
  const around = opts.around ?? 1;
  const maxEntries = opts.maxEntries ?? 300;
  const maxText = opts.maxText ?? 4000;
  const from = Math.max(0, turn - around);
  const to = turn + around;
  const entries: TurnEntry[] = [];
  let truncated = false;
  let hasNext = false;
  let current = 0;
  const add = (e: TurnEntry) => {
    if (entries.length >= maxEntries) truncated = true;
    else entries.push(e);
  };
  const stats = eachLine(file, (bytes, n) => {
    const inWindow = current >= from && current <= to;
    // Outside the window only a user turn matters (it moves the count): tool lines are skipped unparsed.
    if (!inWindow || truncated) {
      if (bytes.indexOf(PAT.toolResult) !== -1 || bytes.indexOf(PAT.user) === -1) return true;
    }
    const o = parseLine(bytes);
    if (!o) return true;
    const h = head(o);
    const typed = userTurnText(o, h);
    if (typed !== null) {
      current++;
      if (current > to) {
        hasNext = true;
        return false;
      }
      if (current >= from)
        add({
          kind: 'user',
          line: n,
          turn: current,
          at: h.timestamp ?? null,
          text: cut(typed, maxText),
          sidechain: false,
        });
      return true;
    }
    if (current < from || truncated) return true;
    const base = { line: n, turn: current, at: h.timestamp ?? null, sidechain: h.sidechain };
    if (h.type === 'assistant' || h.type === 'user') {
      for (const p of parts(o)) {
        if (p.type === 'text') {
          const text = str(p.text) ?? '';
          add(
            h.type === 'assistant'
              ? { kind: 'assistant', ...base, text: cut(text, maxText) }
              : { kind: 'other', ...base, type: h.meta ? 'user (meta)' : 'user', text: cut(text, maxText) },
          );
        } else if (p.type === 'tool_use') {
          add({
            kind: 'tool-use',
            ...base,
            id: str(p.id) ?? '',
            name: str(p.name) ?? '?',
            input: cut(JSON.stringify(p.input ?? {}, null, 1), maxText),
          });
        } else if (p.type === 'tool_result') {
          add({
            kind: 'tool-result',
            ...base,
            toolUseId: str(p.tool_use_id) ?? '',
            text: cut(resultText(p.content), maxText),
            isError: p.is_error === true,
          });
        }
      }
      return true;
    }
    if (h.type === 'summary')
      add({ kind: 'other', ...base, type: 'summary', text: cut(str(o.summary) ?? '', maxText) });
    else if (h.type)
      add({ kind: 'other', ...base, type: h.type, text: cut(str(o.content) ?? str(o.subtype) ?? '', 300) });
    return true;
  });
  return { from, to: Math.min(to, current), entries, truncated, hasNext, lines: stats.lines };
}
