/**
 * Claude Code hook JSON on stdin, read defensively (docs/hooks.md "Input").
 * Pure: takes the raw text, returns a typed view or the problem in one line.
 * Every field is checked for its type: the hook never trusts the shape it is given.
 */

export const WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit'] as const;
export type WriteTool = (typeof WRITE_TOOLS)[number];

export interface EditOp {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export type ToolWrite =
  | { tool: 'Write'; filePath: string; content: string }
  | { tool: 'Edit' | 'MultiEdit'; filePath: string; edits: EditOp[] };

export interface HookInput {
  event: string | undefined;
  toolName: string | undefined;
  /** The tool's `file_path` when it has one (known tool or not). */
  filePath: string | undefined;
  cwd: string | undefined;
  sessionId: string | undefined;
  toolUseId: string | undefined;
  /** Set for Write/Edit/MultiEdit with a well-formed tool_input. */
  write: ToolWrite | null;
  /** Why a known write tool's tool_input could not be read (null when fine or not a write tool). */
  inputProblem: string | null;
  /** PostToolUse only: the tool's response object, when it is one. */
  toolResponse: Record<string, unknown> | null;
}

export type ParseResult = { ok: true; input: HookInput } | { ok: false; problem: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function editOp(v: unknown, where: string): EditOp | string {
  const o = obj(v);
  if (!o) return `${where} is not an object`;
  if (typeof o.old_string !== 'string') return `${where}.old_string is not a string`;
  if (typeof o.new_string !== 'string') return `${where}.new_string is not a string`;
  if (o.replace_all !== undefined && typeof o.replace_all !== 'boolean') return `${where}.replace_all is not a boolean`;
  return { oldString: o.old_string, newString: o.new_string, replaceAll: o.replace_all === true };
}

function readWrite(tool: WriteTool, ti: Record<string, unknown>): ToolWrite | string {
  const filePath = ti.file_path;
  if (typeof filePath !== 'string' || filePath === '') return 'tool_input.file_path is missing';
  if (tool === 'Write') {
    if (typeof ti.content !== 'string') return 'tool_input.content is not a string';
    return { tool, filePath, content: ti.content };
  }
  if (tool === 'Edit') {
    const op = editOp(ti, 'tool_input');
    return typeof op === 'string' ? op : { tool, filePath, edits: [op] };
  }
  if (!Array.isArray(ti.edits) || ti.edits.length === 0) return 'tool_input.edits is not a non-empty list';
  const edits: EditOp[] = [];
  for (let i = 0; i < ti.edits.length; i++) {
    const op = editOp(ti.edits[i], `tool_input.edits[${i}]`);
    if (typeof op === 'string') return op;
    edits.push(op);
  }
  return { tool, filePath, edits };
}

export function parseHookInput(raw: string): ParseResult {
  if (raw.trim() === '') return { ok: false, problem: 'stdin is empty (expected Claude Code hook JSON)' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'stdin is not JSON (expected Claude Code hook JSON)' };
  }
  const o = obj(json);
  if (!o) return { ok: false, problem: 'stdin JSON is not an object' };
  const toolName = str(o.tool_name);
  const ti = obj(o.tool_input);
  let write: ToolWrite | null = null;
  let inputProblem: string | null = null;
  if (toolName && (WRITE_TOOLS as readonly string[]).includes(toolName)) {
    if (!ti) inputProblem = 'tool_input is missing';
    else {
      const w = readWrite(toolName as WriteTool, ti);
      if (typeof w === 'string') inputProblem = w;
      else write = w;
    }
  }
  return {
    ok: true,
    input: {
      event: str(o.hook_event_name),
      toolName,
      filePath: str(ti?.file_path) ?? str(ti?.path) ?? str(ti?.notebook_path),
      cwd: str(o.cwd),
      sessionId: str(o.session_id),
      toolUseId: str(o.tool_use_id),
      write,
      inputProblem,
      toolResponse: obj(o.tool_response),
    },
  };
}
