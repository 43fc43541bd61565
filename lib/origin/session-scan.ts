/**
 * One pass over a Claude Code transcript (docs/origin.md "Reading transcripts"): the
 * session's facts and, for every Markdown file a Write / Edit / MultiEdit wrote, the last
 * such call, the user message its turn answered and what the turn(s) read before writing.
 * Only lines that can matter are parsed: a tool-result line (the bulk of a transcript)
 * is recognised by its bytes and skipped.
 */
import type { OriginRead } from '../trust/origin';
import { eachLine, eachLineAsync, MAX_LINE_BYTES, type LineStats } from './lines';
import { head, parseLine, PAT, toolUses, userTurnText, str, type Json, type ToolUse } from './transcript-lines';

export const WRITE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit']);
/** Characters of a user message kept (the rule reads them; 200 are shown). */
export const USER_TEXT_KEPT = 2000;
/** Reads remembered per turn, and per written file. */
const MAX_READS = 40;
/** Written files remembered per transcript. */
const MAX_WRITES = 2000;

export interface SessionFacts {
  sessionId: string | null;
  startedAt: string | null;
  cwd: string | null;
  version: string | null;
  lines: number;
  /** Lines skipped: too long, not JSON, or cut short. */
  skipped: number;
  turns: number;
}

export interface FileWrite {
  filePath: string;
  tool: string;
  toolUseId: string;
  at: string | null;
  /** 1-based line of the transcript holding the call. */
  line: number;
  /** 1-based user turn it belongs to (0: before the first user message). */
  turn: number;
  sidechain: boolean;
  cwd: string | null;
  /** The user message of that turn, raw (the service masks it before showing or keeping it). */
  userText: string | null;
  /** Reads before each write of this file, over all of them, deduplicated. */
  reads: OriginRead[];
  /** How many calls wrote it in this session. */
  writes: number;
}

export interface SessionScan {
  facts: SessionFacts;
  /** By `file_path` as the tool call named it. */
  writes: Map<string, FileWrite>;
}

/** What a tool call read, when it is one the rule looks at (lib/trust/origin.ts). */
export function readOf(t: ToolUse, cwd: string | null): OriginRead | null {
  const i = t.input;
  if (t.name === 'WebFetch') return { tool: t.name, source: str(i.url) ?? '' };
  if (t.name === 'WebSearch') return { tool: t.name, source: str(i.query) ?? '' };
  if (t.name.startsWith('mcp__')) {
    const [, server = '', ...rest] = t.name.split('__');
    return { tool: t.name, source: `${server}${rest.length ? ` ${rest.join('__')}` : ''}` };
  }
  if (t.name === 'Read' || t.name === 'NotebookRead') {
    const p = str(i.file_path) ?? str(i.notebook_path);
    return p ? { tool: t.name, source: p, ...(cwd ? { cwd } : {}) } : null;
  }
  if (t.name === 'Bash') {
    const c = str(i.command);
    return c && /\b(?:curl|wget|http|lynx)\b/.test(c) ? { tool: t.name, source: c.slice(0, 200) } : null;
  }
  return null;
}

const sameRead = (a: OriginRead, b: OriginRead) => a.tool === b.tool && a.source === b.source;

function pushRead(list: OriginRead[], r: OriginRead): void {
  if (list.length < MAX_READS && !list.some((x) => sameRead(x, r))) list.push(r);
}

/**
 * Reads `file` in one pass. `wanted(filePath)` says which written files to keep (default:
 * every `.md`). Throws what reading throws (the service turns it into "origin unknown").
 */
export function scanSession(
  file: string,
  wanted: (filePath: string) => boolean = (p) => /\.md$/i.test(p),
  maxLine = MAX_LINE_BYTES,
): SessionScan {
  const pass = sessionPass(wanted);
  return pass.finish(eachLine(file, pass.onLine, maxLine));
}

/** `scanSession` with the file read chunk by chunk asynchronously (lib/origin/lines.ts `eachLineAsync`). */
export async function scanSessionAsync(
  file: string,
  wanted: (filePath: string) => boolean = (p) => /\.md$/i.test(p),
  maxLine = MAX_LINE_BYTES,
): Promise<SessionScan> {
  const pass = sessionPass(wanted);
  return pass.finish(await eachLineAsync(file, pass.onLine, maxLine));
}

/** The pass as a line handler and what it found once the lines are over. */
function sessionPass(wanted: (filePath: string) => boolean): {
  onLine: (bytes: Buffer, n: number) => boolean;
  finish: (stats: LineStats) => SessionScan;
} {
  const facts: SessionFacts = {
    sessionId: null,
    startedAt: null,
    cwd: null,
    version: null,
    lines: 0,
    skipped: 0,
    turns: 0,
  };
  const writes = new Map<string, FileWrite>();
  let userText: string | null = null;
  let turnReads: OriginRead[] = [];
  const note = (o: Json) => {
    const h = head(o);
    if (!facts.sessionId && h.sessionId) facts.sessionId = h.sessionId;
    if (!facts.startedAt && h.timestamp) facts.startedAt = h.timestamp;
    if (!facts.cwd && h.cwd && !h.sidechain) facts.cwd = h.cwd;
    if (h.version) facts.version = h.version;
    return h;
  };
  const onLine = (bytes: Buffer, n: number): boolean => {
    const hasToolUse = bytes.indexOf(PAT.toolUse) !== -1;
    if (!hasToolUse) {
      // Tool output is most of a transcript and never starts a turn: not parsed.
      if (bytes.indexOf(PAT.toolResult) !== -1) {
        if (!facts.startedAt || !facts.sessionId) {
          const o = parseLine(bytes);
          if (o) note(o);
          else facts.skipped++;
        }
        return true;
      }
      if (bytes.indexOf(PAT.user) === -1 && facts.startedAt && facts.sessionId && facts.cwd) return true;
    }
    const o = parseLine(bytes);
    if (!o) {
      facts.skipped++;
      return true;
    }
    const h = note(o);
    const typed = userTurnText(o, h);
    if (typed !== null) {
      facts.turns++;
      userText = typed.length > USER_TEXT_KEPT ? typed.slice(0, USER_TEXT_KEPT) : typed;
      turnReads = [];
      return true;
    }
    if (!hasToolUse || h.type !== 'assistant') return true;
    for (const t of toolUses(o)) {
      if (WRITE_TOOLS.has(t.name)) {
        const p = str(t.input.file_path);
        if (!p || !wanted(p)) continue;
        let w = writes.get(p);
        if (!w) {
          if (writes.size >= MAX_WRITES) continue;
          w = {
            filePath: p,
            tool: t.name,
            toolUseId: t.id,
            at: null,
            line: 0,
            turn: 0,
            sidechain: false,
            cwd: null,
            userText: null,
            reads: [],
            writes: 0,
          };
          writes.set(p, w);
        }
        w.tool = t.name;
        w.toolUseId = t.id;
        w.at = h.timestamp ?? null;
        w.line = n;
        w.turn = facts.turns;
        w.sidechain = h.sidechain;
        w.cwd = h.cwd ?? facts.cwd;
        w.userText = userText;
        w.writes++;
        for (const r of turnReads) pushRead(w.reads, r);
        continue;
      }
      const r = readOf(t, h.cwd ?? facts.cwd);
      if (r) pushRead(turnReads, r);
    }
    return true;
  };
  const finish = (stats: LineStats): SessionScan => {
    facts.lines = stats.lines;
    facts.skipped += stats.overLong;
    return { facts, writes };
  };
  return { onLine, finish };
}
