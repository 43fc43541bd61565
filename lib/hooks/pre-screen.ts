/**
 * The guard's first step (docs/hooks.md): where the write lands. Most writes the assistant
 * makes are not memories, so this part loads no validator: the hook loads those (pre-write.ts)
 * only for a write that lands inside a memory root (docs/install.md, "Figures").
 */
import type { HookInput, ToolWrite } from './input';
import { locateTarget, type Target } from './target';

export type InsideTarget = Extract<Target, { kind: 'inside' }>;

/** What the file looked like before the write: handed to post-write (docs/hooks.md "Prior state"). */
export interface PriorState {
  relPath: string;
  existed: boolean;
  sha256: string | null;
  mtimeMs: number | null;
  /** The memtrust-owned frontmatter fields the file had (PROTECTED_FIELDS only). */
  fields: Record<string, string>;
}

export type PreVerdict =
  /** Not a memtrust matter (another tool, a path outside the roots, a failing edit): no output. */
  | { decision: 'pass'; why: string }
  | { decision: 'deny'; reason: string }
  /** Nothing to object to; `context` (maybe empty) is said to the assistant. */
  | { decision: 'ok'; context: string; target: InsideTarget; prior: PriorState }
  /** memtrust cannot judge this write: fail open or closed (hookFailClosed). */
  | { decision: 'error'; problem: string };

/** A verdict from the path alone, or the target whose content must be judged. */
export type Screened = PreVerdict | { decision: 'judge'; target: InsideTarget; write: ToolWrite };

export function screenPreWrite(input: HookInput, roots: readonly string[]): Screened {
  if (!input.filePath)
    return { decision: 'pass', why: `no file path in tool_input (${input.toolName ?? 'no tool_name'})` };
  if (input.filePath.includes('\0')) return { decision: 'deny', reason: 'memtrust: the file path contains a NUL byte' };
  const t = locateTarget(input.filePath, input.cwd, roots);
  if (t.kind !== 'inside')
    return { decision: 'pass', why: t.kind === 'outside' ? 'not inside a memory root' : 'not a Markdown file' };
  const name = t.relPath;
  if (t.symlink)
    return {
      decision: 'deny',
      reason: `memtrust: ${name} is a symlink; memory files must be regular files inside their root (symlinked memory files are refused)`,
    };
  if (t.place === 'quarantine')
    return {
      decision: 'deny',
      reason: `memtrust: ${name} is in quarantine/, which is read-only; ask the user to restore it first (memtrust restore, or the dashboard)`,
    };
  if (t.place === 'archive')
    return { decision: 'deny', reason: `memtrust: ${name} is in archive/, a record that is never edited` };
  if (t.oddCase)
    return {
      decision: 'deny',
      reason: `memtrust: ${name}: memory files end in lowercase .md; write ${t.filename.replace(/\.md$/i, '.md')} instead`,
    };
  if (!input.write) {
    return {
      decision: 'error',
      problem: `${input.toolName ?? 'an unknown tool'} writes to ${name}, inside a memory root, and memtrust cannot read what it would write${input.inputProblem ? ` (${input.inputProblem})` : ''}`,
    };
  }
  return { decision: 'judge', target: t, write: input.write };
}
