/**
 * The text pieces of a session context: budget bounds, quoting a body so it cannot leave
 * its block, lists that shrink to fit, the review and stale lines, the hook JSON.
 * docs/session-context.md has the decisions.
 */
import type { ContextMemory, LazyBody } from './context-types';
import { plural } from './dates';
import { oneLine } from './reason';

export const DEFAULT_CONTEXT_BUDGET = 8_000;
/** Claude Code swaps additionalContext over 10,000 characters for a 2 KB preview. */
export const MAX_CONTEXT_BUDGET = 10_000;
/** Below this the fixed header and notices leave no room for anything useful. */
export const MIN_CONTEXT_BUDGET = 1_000;

/** What memtrust really ships for review and for the full picture (never an imaginary slash command). */
export const REVIEW_COMMAND = 'npx memtrust list --queue review';
export const REVIEW_PAGE = '/review';
export const EXPLAIN_COMMAND = 'npx memtrust context --explain';

/** A budget setting brought inside its bounds (non-numbers fall back to the default). */
export function clampBudget(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_CONTEXT_BUDGET;
  return Math.min(MAX_CONTEXT_BUDGET, Math.max(MIN_CONTEXT_BUDGET, Math.floor(n)));
}

/**
 * A rough token count: ASCII characters / 4 plus one token per other code point (CJK,
 * Thai and Korean text runs near one token per character). An estimate only: no
 * tokenizer ships with memtrust; see docs/session-context.md.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

function attr(raw: string): string {
  return oneLine(raw, 200).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Tags a body could use to close its block or pose as the host's own markup; invisible
// characters between `<`, `/` and the name do not help (they are matched too).
const GAP = '[\\s\\u200b-\\u200f\\u2060\\ufeff]*';
const TAG = new RegExp(
  `<(${GAP}/?${GAP})(?=(?:memory|system|system-reminder|assistant|user|human|developer|instructions?|tool|function_calls|im_start|im_end)\\b)`,
  'giu',
);
// Lines that pose as a turn of a conversation: `system:`, `## Assistant:`, `[SYSTEM]:`.
const ROLE_LINE = /^([ \t>*_#[-]*)(system|assistant|user|human|developer)(\]?[ \t]*):/gimu;

/** Body text as it goes inside a block: it can neither close the block nor pose as a turn. */
export function quoteBody(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd()
    .replace(TAG, '&lt;$1')
    .replace(/<\|/g, '&lt;|')
    .replace(ROLE_LINE, '$1[quoted] $2$3:');
}

/** The body as text (a lazy one is read here, once per block). */
export function bodyText(body: string | LazyBody): string {
  return typeof body === 'string' ? body : body.read();
}

/** `bodyText(body).trim().length`, without reading a lazy body. */
export function bodyTrimmedLength(body: string | LazyBody): number {
  return typeof body === 'string' ? body.trim().length : body.trimmedLength;
}

export function memoryBlock(m: ContextMemory, tier: 'verified' | 'inferred', stale: boolean): string {
  const extra = `${stale ? ' stale="true"' : ''}${m.injection ? ' flagged="injection-check"' : ''}`;
  const name = oneLine(m.name, 200);
  return `<memory file="${attr(m.filename)}" tier="${tier}"${name ? ` name="${attr(name)}"` : ''}${extra}>\n${quoteBody(bodyText(m.body))}\n</memory>`;
}

/**
 * `label (n): a, b, c.` in at most `max` characters: as many entries as fit, then
 * "… and K more (run …)"; when not even that fits, only the count; when nothing fits, ''.
 */
export function listLine(label: string, entries: string[], max: number, total = entries.length): string {
  if (total === 0) return '';
  // `entries` may be the first names of `total` only when more of them than `max` can hold are given.
  if (total > entries.length) return cutList(label, entries, max, total);
  // Measured before it is joined: the list of a big root is far longer than any line it may fill.
  let fullLength = `${label} (${total}): .`.length - 2;
  for (const e of entries) {
    fullLength += e.length + 2;
    if (fullLength > max) break;
  }
  if (fullLength <= max) return `${label} (${total}): ${entries.join(', ')}.`;
  return cutList(label, entries, max, total);
}

/** The list that does not fit whole: the names that fit, then "… and K more", else only the count. */
function cutList(label: string, entries: string[], max: number, total: number): string {
  const more = (k: number) => `, … and ${k} more (run \`${EXPLAIN_COMMAND}\`).`;
  let line = `${label} (${total}): `;
  let shown = 0;
  for (const e of entries) {
    const next = `${line}${shown ? ', ' : ''}${e}`;
    if (next.length + more(total - shown - 1).length > max) break;
    line = next;
    shown++;
  }
  if (shown > 0) return `${line}${more(total - shown)}`;
  const count = `${label}: ${total} (run \`${EXPLAIN_COMMAND}\` for the list).`;
  return count.length <= max ? count : '';
}

/** The one review line per session (docs/session-context.md): names only what memtrust ships. */
export function reviewLine(n: number): string {
  return `${plural(n, 'inferred memory awaits', 'inferred memories await')} review: run \`${REVIEW_COMMAND}\` or open ${REVIEW_PAGE} on the memtrust dashboard.`;
}

export function staleLine(n: number): string {
  return n === 1
    ? '1 verified memory is stale (last verified more than 90 days ago, or never); it still applies. Re-affirm or demote it with memtrust.'
    : `${n} verified memories are stale (last verified more than 90 days ago, or never); they still apply. Re-affirm or demote them with memtrust.`;
}

/** The JSON a SessionStart hook prints on stdout. */
export function hookJson(text: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });
}
