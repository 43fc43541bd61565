/**
 * Word alternations regrouped by their first character, for speed only
 * (docs/performance-validators.md, "Both scanners: fast paths"): `pass|pwd|secret|sudo` becomes
 * `p(?:ass|wd)|s(?:ecret|udo)`. V8's regex engine tries every alternative at every
 * position; grouped, one failed first-character test skips a whole group, which made the
 * credential trigger scan about a fifth cheaper on the credentials corpus.
 *
 * The matches are the same: inside a group the alternatives keep their order, and two
 * alternatives that start with different literal characters (under the flag `i`, letters
 * that differ after upper-casing) cannot match at the same position, so the order between
 * groups never decides a match. An alternative that does not start with a plain literal
 * (`\bpw\b`, `[ab]x`, `x?y`) stays where it is, and no alternative moves past it: one
 * with the same first character after it starts a new group. A unit test holds the grouped
 * and the plain forms to the same match sequences.
 */

/** Characters that make the first character of an alternative something other than a plain literal. */
const SYNTAX = new Set([...'\\()[]{}.^$|?*+']);

/** The first character of `alt` when it is a plain literal that is not quantified, else null. */
function literalHead(alt: string): string | null {
  const cp = alt.codePointAt(0);
  if (cp === undefined) return null;
  const head = String.fromCodePoint(cp);
  if (SYNTAX.has(head)) return null;
  const next = alt[head.length];
  if (next === '?' || next === '*' || next === '+' || next === '{') return null;
  return head;
}

/**
 * A character as the non-Unicode flag `i` compares it (ECMAScript Canonicalize): upper case
 * when that is one character, except that nothing outside ASCII becomes an ASCII character.
 */
function canonical(ch: string): string {
  const upper = ch.toUpperCase();
  if (upper.length !== 1 || ch.length !== 1) return ch;
  return ch.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128 ? ch : upper;
}

/**
 * The regex source of `alternatives` (each a regex source without a top-level `|`) joined by
 * `|`, grouped by first character. `ignoreCase` says the regex has the flag `i`.
 */
export function groupedAlternation(alternatives: readonly string[], ignoreCase: boolean): string {
  const groups = new Map<string, { head: string; tails: string[] }>();
  const order: Array<string | { head: string; tails: string[] }> = [];
  for (const alt of alternatives) {
    const head = literalHead(alt);
    if (head === null) {
      // A barrier: nothing moves past it in either direction.
      order.push(alt);
      groups.clear();
      continue;
    }
    const key = ignoreCase ? canonical(head) : head;
    let group = groups.get(key);
    if (group === undefined) {
      group = { head, tails: [] };
      groups.set(key, group);
      order.push(group);
    }
    // Under the flag `i` the group's head matches whatever this head matches (same canonical form).
    group.tails.push(alt.slice(head.length));
  }
  return order
    .map((g) => {
      if (typeof g === 'string') return g;
      if (g.tails.length === 1) return g.head + g.tails[0];
      // The tails are an alternation too: grouped the same way (`pass(?:w(?:ords?|d)||phrase)`).
      return `${g.head}(?:${groupedAlternation(g.tails, ignoreCase)})`;
    })
    .join('|');
}
