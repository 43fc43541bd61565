/**
 * `memtrust hook post-write` (docs/hooks.md "The stamp"): after the assistant wrote a
 * memory, put memtrust's fields right through the trust service's write path. From the
 * CLI the index is updated with the file; the plugin's bundle (lib/plugin/) runs it with
 * `index: false`, where better-sqlite3 is not built (docs/install.md, "Hooks without the index").
 */
import type { Io } from './io';
import { type HookInput, parseHookInput } from '../hooks/input';
import { locateTarget, type Target } from '../hooks/target';
import type { Env } from '../core/config';
import { config, emit, readStdin, type Stdin } from './hook-pre';

export interface PostWriteOptions {
  /** false: files only, the SQLite index is neither opened nor loaded. */
  index: boolean;
  /**
   * The SessionStart hook's script and arguments in this installation: after a write into a
   * root, the session's kept text is made again with it (docs/session-context.md, "Made again
   * after a write"). Absent: not made again.
   */
  sessionStart?: readonly string[];
  /** The environment Claude Code gave this hook, before the entry added to it (the plugin's: entry.ts). */
  sessionEnv?: NodeJS.ProcessEnv;
}

export async function postWrite(io: Io, env: Env, opts: PostWriteOptions = { index: true }): Promise<number> {
  let stdin: Stdin;
  try {
    stdin = await readStdin();
  } catch (e) {
    io.err(`memtrust hook post-write: cannot read stdin (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    return 1;
  }
  if (stdin.oversize) {
    io.err(
      `memtrust hook post-write: hook input of ${stdin.bytes} bytes is too large to read: not stamped (the next backfill marks it inferred)`,
    );
    return 1;
  }
  const parsed = parseHookInput(stdin.text);
  if (!parsed.ok) {
    io.err(`memtrust hook post-write: ${parsed.problem}: not stamped`);
    return 1;
  }
  const input = parsed.input;
  if (!input.filePath || !input.toolName || !['Write', 'Edit', 'MultiEdit'].includes(input.toolName)) return 0;
  let cfg: ReturnType<typeof config>;
  try {
    cfg = config(env, input.filePath, input.cwd);
  } catch (e) {
    io.err(`memtrust hook post-write: ${(e as Error).message}: not stamped`);
    return 1;
  }
  const t = locateTarget(input.filePath, input.cwd, cfg.roots);
  if (t.kind !== 'inside') return 0;
  // Any write into a root changes what the session's text is made from (MEMORY.md too). The
  // session start's folder is where Claude Code started (CLAUDE_PROJECT_DIR), which the hook
  // JSON's `cwd` leaves once the assistant changed folder in its shell.
  const refresh = opts.sessionStart
    ? async () => {
        const { refreshSessionText } = await import('../service/session/text-refresh');
        await refreshSessionText(
          opts.sessionEnv ?? (env as NodeJS.ProcessEnv),
          opts.sessionStart!,
          env.CLAUDE_PROJECT_DIR || input.cwd,
          input.sessionId,
        );
      }
    : null;
  // Started before the write path is loaded: forking this process costs less while it is small.
  await refresh?.();
  try {
    return await stamp(io, env, opts, cfg, { ...input, toolName: input.toolName }, t);
  } finally {
    // Touched after the stamp's own write: the refresher's delay counts from there.
    await refresh?.();
  }
}

async function stamp(
  io: Io,
  env: Env,
  opts: PostWriteOptions,
  cfg: ReturnType<typeof config>,
  input: HookInput & { toolName: string },
  t: Extract<Target, { kind: 'inside' }>,
): Promise<number> {
  if (t.place !== 'memory' || t.symlink || t.oddCase) return 0;
  // Only now the service (and, from the CLI, SQLite): most writes never get here. In the
  // plugin, a second file loaded through V8's code cache (lib/plugin/post-deps.ts).
  const { stampAssistantWrite, createFilesContext, keepAfterStamp, indexContext } = await import(
    '../hooks/post-write-deps'
  );
  const ctx = opts.index ? await indexContext(cfg, env) : createFilesContext(cfg, env);
  const r = stampAssistantWrite(ctx, {
    abs: t.real,
    realRoot: t.realRoot,
    relPath: t.relPath,
    toolName: input.toolName,
    toolUseId: input.toolUseId,
    sessionId: input.sessionId,
  });
  // The bytes before the write (as Claude Code reports them) and those the stamp left are
  // versions (docs/versions.md, "When"): kept before the answer.
  const original = input.toolResponse?.originalFile;
  keepAfterStamp(ctx, t.realRoot, t.relPath, t.real, {
    before: typeof original === 'string' ? original : null,
    stamped: r.ok,
  });
  if (!r.ok) {
    io.err(`memtrust hook post-write: ${t.relPath}: ${r.message}: not stamped`);
    return 1;
  }
  if (r.noop) return 0;
  const what =
    r.to === 'verified'
      ? `kept ${t.relPath} verified and flagged it changed-since-verified: the user will re-affirm or demote it`
      : `stamped ${t.relPath} trust-level: inferred (a memory the assistant writes is inferred until the user promotes it)`;
  emit(io, 'PostToolUse', {
    additionalContext: `memtrust ${what}. The file changed on disk: read it again before editing it.`,
  });
  return 0;
}
