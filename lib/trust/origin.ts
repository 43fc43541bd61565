/**
 * Trust by origin (docs/origin.md "Flags"; CONTRACT §3.1): from what the turn that wrote a
 * memory did before the write, the flags the memory carries. Pure — the service reads the
 * transcript (lib/origin) and hands over the facts.
 *
 * - `untrusted-origin`: the turn read outside content before the write — a web page
 *   (WebFetch), search results (WebSearch), an MCP tool's output, a network fetch from the
 *   shell (curl, wget), or a file outside the project (outside the session's cwd and the
 *   memory folder itself). Memory poisoning works exactly so: the assistant saves what a
 *   page told it. Such a memory is never loaded as verified and never back-filled to
 *   verified, and promote needs the origin shown to the user first.
 * - `user-requested`: the user's own message of that turn asked for it ("remember that …").
 *   It says where the memory came from; it does not lift `untrusted-origin`.
 */
import { onFirstUse } from '../core/on-first-use';

export const UNTRUSTED_ORIGIN = 'untrusted-origin';
export const USER_REQUESTED = 'user-requested';

/** One tool call of the turn before the write that brought content in. */
export interface OriginRead {
  tool: string;
  /** What it read: a URL, a search query, a path, an MCP server and tool. */
  source: string;
  /** The cwd of the line that made the call (Read paths are judged against it). */
  cwd?: string;
}

export interface OriginFacts {
  /** Tool calls of the writing turn(s) before the write, in order. */
  reads: readonly OriginRead[];
  /** The user message the turn answered (masked), or null when none was found. */
  userText: string | null;
  /** The session's cwd (the project), used when a read has none of its own. */
  cwd?: string;
  /** The memory folder: reading the memories themselves is not outside content. */
  memoryDir: string;
}

export interface UntrustedOrigin {
  tools: string[];
  sources: string[];
}

export interface OriginFlags {
  untrustedOrigin: UntrustedOrigin | null;
  userRequested: boolean;
}

/** Tools whose output is outside content whatever they read. */
const WEB_TOOLS = new Set(['WebFetch', 'WebSearch']);
/** Tools that read a file by path. */
const FILE_TOOLS = new Set(['Read', 'NotebookRead']);
const NETWORK_COMMAND = /(?:^|[\s;&|(`$])(?:curl|wget|http|lynx)(?:\s|$)/;

/** `/a/b/../c/` → `/a/c`; backslashes read as slashes; relative paths stay relative. */
export function normalisePath(p: string): string {
  const abs = p.startsWith('/') || p.startsWith('\\');
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
      continue;
    }
    out.push(seg);
  }
  return (abs ? '/' : '') + out.join('/');
}

/** Whether `p` is `dir` or lies under it (both normalised). */
export function isUnder(p: string, dir: string): boolean {
  const a = normalisePath(p);
  const d = normalisePath(dir);
  if (d === '/' || d === '') return a.startsWith('/');
  return a === d || a.startsWith(`${d}/`);
}

/** Whether this read brought outside content into the turn (the rule above). */
export function isOutsideRead(r: OriginRead, cwd: string | undefined, memoryDir: string): boolean {
  if (WEB_TOOLS.has(r.tool) || r.tool.startsWith('mcp__')) return true;
  if (r.tool === 'Bash') return NETWORK_COMMAND.test(r.source);
  if (!FILE_TOOLS.has(r.tool)) return false;
  const base = r.cwd ?? cwd;
  const file = r.source.startsWith('/') || !base ? r.source : `${base}/${r.source}`;
  if (isUnder(file, memoryDir)) return false;
  // Without a cwd nothing says where the project is: a relative path is read as inside it.
  if (!base) return file.startsWith('/');
  return !isUnder(file, base);
}

/**
 * Phrases by which a user asks the assistant to keep something, in the languages memory
 * folders are written in (docs/origin.md "user-requested"). Matched case-insensitively on
 * the user's message; a letter may not precede a phrase.
 */
const ASKS = onFirstUse((): RegExp[] => [
  // English
  /(?<!\p{L})remember\s*(?:that|this|to|:|[—–-]\s)/iu,
  /(?<!\p{L})(?:save|store|keep|memori[sz]e|add|put|write)\s+(?:this|that|it)\b/iu,
  /(?<!\p{L})(?:save|store|add|put|write)\s+(?:\S+\s+){0,4}?(?:to|in|into)\s+(?:your\s+|the\s+)?memory\b/iu,
  /(?<!\p{L})(?:don['’]?t|do\s+not|never)\s+forget\b/iu,
  /(?<!\p{L})memori[sz]e\b/iu,
  /(?<!\p{L})keep\s+in\s+mind\b/iu,
  // French
  /(?<!\p{L})(?:souviens|rappelle)[-\s]toi\b/iu,
  /(?<!\p{L})retiens\s+(?:que|bien|ça|cela)/iu,
  /(?<!\p{L})n['’]oublie\s+pas/iu,
  /(?<!\p{L})(?:mémorise|enregistre|note)\s+(?:que|ça|cela|ceci)/iu,
  // Spanish, Portuguese, Italian
  /(?<!\p{L})(?:recuerda|recorda|ricorda)(?:-te|ti)?\s+(?:que|esto|isso|questo|che)/iu,
  /(?<!\p{L})(?:no\s+olvides|não\s+esqueça|non\s+dimenticare)/iu,
  /(?<!\p{L})(?:guarda|memoriza|memorizza)\s+(?:esto|isso|questo|que|che)/iu,
  /(?<!\p{L})lembre-se/iu,
  // German
  /(?<!\p{L})merk\s*(?:e\s+)?dir\b/iu,
  /(?<!\p{L})vergiss\s+nicht/iu,
  /(?<!\p{L})speicher(?:e)?\s+(?:das|dies|dir)/iu,
  // Korean, Japanese, Chinese, Thai
  /기억해|기억하세요|잊지\s*마|메모리에\s*저장/u,
  /覚えて|忘れないで|記憶して|メモリに保存/u,
  /记住|記住|别忘了|別忘了|记下来|記下來/u,
  /จำไว้|อย่าลืม/u,
]);

/** Whether the user's message asks the assistant to remember something. */
export function asksToRemember(text: string | null | undefined): boolean {
  if (!text) return false;
  return ASKS().some((re) => re.test(text));
}

export function originFlags(f: OriginFacts): OriginFlags {
  const tools: string[] = [];
  const sources: string[] = [];
  for (const r of f.reads) {
    if (!isOutsideRead(r, f.cwd, f.memoryDir)) continue;
    if (!tools.includes(r.tool)) tools.push(r.tool);
    if (r.source && !sources.includes(r.source)) sources.push(r.source);
  }
  return {
    untrustedOrigin: tools.length ? { tools, sources } : null,
    userRequested: asksToRemember(f.userText),
  };
}

/** The flags as names (`show --json`, the memory page). */
export function originFlagNames(f: OriginFlags): string[] {
  const out: string[] = [];
  if (f.untrustedOrigin) out.push(UNTRUSTED_ORIGIN);
  if (f.userRequested) out.push(USER_REQUESTED);
  return out;
}

/** One line naming what the turn read: `WebFetch (https://…), Read (/etc/…)`. */
export function untrustedSummary(u: UntrustedOrigin, max = 3): string {
  const shown = u.sources.slice(0, max).join(', ');
  const more = u.sources.length > max ? ` and ${u.sources.length - max} more` : '';
  return `${u.tools.join(', ')}${shown ? ` — ${shown}${more}` : ''}`;
}

/**
 * Promote of a memory flagged `untrusted-origin` needs the user to have been shown the
 * origin: the dashboard's dialog shows it and sends the acknowledgement, the CLI takes
 * `--ack-origin` (CONTRACT §3 "Promote is the user's decision"). Null: nothing stops it.
 */
export function originPromoteBlock(u: UntrustedOrigin | null, acknowledged: boolean): string | null {
  if (!u || acknowledged) return null;
  return `promotion refused: untrusted origin — the turn that wrote it read ${untrustedSummary(u)} before writing; look at the origin (memtrust show, or the memory page), then promote with the origin acknowledged (--ack-origin)`;
}

/**
 * The origin as the index keeps it (docs/origin.md "In the index"): `unknown` (no session,
 * no transcript, no write of the file in it), or `known` followed by the flags in force.
 * `untrusted-origin` is in force until the user promoted the memory with it shown
 * (`origin-reviewed`), as in the session context; `user-requested` always.
 */
export function originIndexValue(f: OriginFlags | null, reviewed: boolean): { origin: string; reason: string | null } {
  if (!f) return { origin: 'unknown', reason: null };
  const untrusted = reviewed ? null : f.untrustedOrigin;
  const flags = originFlagNames({ untrustedOrigin: untrusted, userRequested: f.userRequested });
  return { origin: ['known', ...flags].join(' '), reason: untrusted ? untrustedSummary(untrusted) : null };
}

/** The flags of an index `origin` value (null: not looked up yet). */
export function indexedOriginFlags(origin: string | null): string[] {
  if (!origin) return [];
  return origin.split(' ').filter((t) => t === UNTRUSTED_ORIGIN || t === USER_REQUESTED);
}

/** Every index `origin` value that carries `flag` (the filters match them exactly, on an index). */
export function originValuesWith(flag: string): string[] {
  const out: string[] = [];
  for (const untrusted of [false, true])
    for (const userRequested of [false, true]) {
      const v = originIndexValue(
        { untrustedOrigin: untrusted ? { tools: [], sources: [] } : null, userRequested },
        false,
      ).origin;
      if (indexedOriginFlags(v).includes(flag)) out.push(v);
    }
  return out;
}
