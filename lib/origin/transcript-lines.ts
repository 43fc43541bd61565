/**
 * One Claude Code transcript line, read defensively (docs/origin.md "The transcript format"):
 * every field is checked for its type, an unknown `type` or an unparseable line is
 * skipped, never an error. Only what origin needs is pulled out.
 */

export type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Byte patterns that decide whether a line is worth parsing (JSON escapes quotes inside strings). */
export const PAT = {
  toolUse: Buffer.from('"tool_use"'),
  toolResult: Buffer.from('"tool_result"'),
  user: Buffer.from('"user"'),
} as const;

export function parseLine(bytes: Buffer): Json | null {
  // A cheap reject of what cannot be an object (a truncated last line usually still starts with `{`).
  if (bytes.length < 2 || bytes[0] !== 0x7b) return null;
  try {
    return obj(JSON.parse(bytes.toString('utf8')));
  } catch {
    return null;
  }
}

export interface LineHead {
  type: string;
  uuid?: string;
  sessionId?: string;
  timestamp?: string;
  cwd?: string;
  version?: string;
  sidechain: boolean;
  /** isMeta (caveats, command output Claude Code injects): never a user turn. */
  meta: boolean;
}

export function head(o: Json): LineHead {
  return {
    type: str(o.type) ?? '',
    uuid: str(o.uuid),
    sessionId: str(o.sessionId),
    timestamp: str(o.timestamp),
    cwd: str(o.cwd),
    version: str(o.version),
    sidechain: o.isSidechain === true,
    meta: o.isMeta === true || o.isCompactSummary === true || o.isVisibleInTranscriptOnly === true,
  };
}

/** The content parts of `message.content`: a string becomes one text part. */
export function parts(o: Json): Json[] {
  const m = obj(o.message);
  if (!m) return [];
  const c = m.content;
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  if (!Array.isArray(c)) return [];
  const out: Json[] = [];
  for (const p of c) {
    const x = obj(p);
    if (x) out.push(x);
  }
  return out;
}

/** The text a user typed on this line, or null when it is not a user turn (tool results, meta, sidechain). */
export function userTurnText(o: Json, h: LineHead): string | null {
  if (h.type !== 'user' || h.meta || h.sidechain) return null;
  const ps = parts(o);
  if (ps.length === 0 || ps.some((p) => p.type === 'tool_result')) return null;
  const texts = ps.filter((p) => p.type === 'text').map((p) => str(p.text) ?? '');
  if (texts.length === 0) return null;
  return texts.join('\n');
}

export interface ToolUse {
  id: string;
  name: string;
  input: Json;
}

export function toolUses(o: Json): ToolUse[] {
  const out: ToolUse[] = [];
  for (const p of parts(o)) {
    if (p.type !== 'tool_use') continue;
    const name = str(p.name);
    if (!name) continue;
    out.push({ id: str(p.id) ?? '', name, input: obj(p.input) ?? {} });
  }
  return out;
}

export { obj, str };
