/**
 * Cheap, conservative nesting estimate run before the YAML parser sees the text.
 *
 * Why not just catch RangeError: the `yaml` composer recurses per nesting level
 * and ~1,000 levels already overflow the stack; an overflow that lands inside
 * V8's RegExp compiler aborts the whole process (observed: "RegExpCompiler
 * Allocation failed"), which no try/catch can stop. So deep input must never
 * reach the parser. The estimate may over-count (brackets inside quoted text,
 * `- ` runs inside block scalars); only absurd memories are refused by that.
 */

export const MAX_NESTING_DEPTH = 64;

/** Compact block indicators (`- `, `? `, `: `) that open a level without new indentation. */
function compactIndicators(line: string, from: number): number {
  let count = 0;
  let i = from;
  while (i < line.length) {
    const c = line[i];
    if (c !== '-' && c !== '?' && c !== ':') break;
    const next = line[i + 1];
    if (next !== undefined && next !== ' ' && next !== '\t' && next !== '\r') break;
    count++;
    i += 2;
    while (line[i] === ' ' || line[i] === '\t') i++;
  }
  return count;
}

/** Largest estimated nesting depth, stopping early once `limit` is passed. */
export function estimateDepth(text: string, limit = MAX_NESTING_DEPTH): number {
  const indents: number[] = [];
  let flow = 0;
  let worst = 0;
  let lineStartAt = 0;
  while (lineStartAt <= text.length) {
    const nl = text.indexOf('\n', lineStartAt);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(lineStartAt, end);
    let indent = 0;
    while (line[indent] === ' ') indent++;
    const blank = indent === line.length || line[indent] === '#' || line[indent] === '\r';
    if (!blank) {
      while (indents.length > 0 && (indents[indents.length - 1] ?? 0) > indent) indents.pop();
      if (indents.length === 0 || (indents[indents.length - 1] ?? 0) < indent) indents.push(indent);
    }
    let lineMaxFlow = flow;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '[' || c === '{') lineMaxFlow = Math.max(lineMaxFlow, ++flow);
      else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    const depth = indents.length + compactIndicators(line, indent) + lineMaxFlow;
    if (depth > worst) worst = depth;
    if (worst > limit) return worst;
    if (nl === -1) break;
    lineStartAt = nl + 1;
  }
  return worst;
}
