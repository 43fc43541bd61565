/**
 * `memtrust context [--format text|hook] [--project DIR] [--explain] [--budget N]`: what a session gets
 * (docs/session-context.md). Reads the files directly (no index database), so the SessionStart hook
 * starts fast and sees the disk as it is. docs/session-context.md has the decisions.
 */
import { UsageError, lastValue, parseArgs, type ParsedArgs } from '../args';
import { indexPath, loadConfig } from '../../core/config';
import { ownerIdentity } from '../../core/identity';
import { buildSessionContext, contextBudgetSetting } from '../../service/session/session-context';
import { explainText } from '../../service/session/context-xray';
import { hookJson, MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET, type ContextPlan } from '../../trust/context';
import {
  NOTHING_FOR_PROJECT,
  parseSessionStart,
  projectRoot,
  readHookStdin,
} from '../../service/session/project-scope';
import type { Command } from './index';
import { massNotices } from '../../service/versions/mass-notice';
import { keepSeen, type SeenFile } from '../../service/versions/hook-keep';
import { massChangesFile } from '../../service/versions/mass-change';
import { recorder } from '../../service/session/text-cache';

/**
 * A mass change outside memtrust, said once by the next SessionStart text (docs/versions.md, "Mass changes"),
 * for the session's own roots only (CONTRACT §4: nothing of another project).
 */
function withMassNotices(roots: string[], text: string): string {
  try {
    // Only where the index is: loading the configuration again would walk the whole Claude Code home.
    const lines = massNotices(indexPath(), roots, true);
    return lines.length > 0 ? `${lines.join('\n')}\n\n${text}` : text;
  } catch {
    return text; // the notice never stops a session's text
  }
}

function plan(
  args: ParsedArgs,
  budgetFlag: number | undefined,
  project: string | undefined,
  keepVersions = false,
): ContextPlan & { madeAt: number } {
  const config = loadConfig({ flagRoots: args.values.get('root'), project });
  const now = config.now();
  const setting = contextBudgetSetting();
  const owner = ownerIdentity();
  // The SessionStart hook keeps each file it read from disk as a version (docs/versions.md, "When").
  const seen: SeenFile[] = [];
  const p = buildSessionContext({
    roots: config.roots,
    now,
    owner,
    budget: budgetFlag ?? setting.budget,
    problems: setting.problem ? [setting.problem] : [],
    cache: config.dbPath,
    onRead: keepVersions
      ? (source, f, bytes, credential) =>
          seen.push({ root: source.root, id: `${source.id}:${f.filename}`, relPath: f.relPath, bytes, credential })
      : undefined,
  });
  keepSeen(config.dbPath, seen, owner, now, { blind: false });
  // Not a field of the plan: `--json` prints the plan as it is.
  return Object.defineProperty(p, 'madeAt', { value: now.getTime(), enumerable: false }) as ContextPlan & {
    madeAt: number;
  };
}

function parseBudget(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < MIN_CONTEXT_BUDGET || n > MAX_CONTEXT_BUDGET) {
    throw new UsageError(`--budget must be a whole number from ${MIN_CONTEXT_BUDGET} to ${MAX_CONTEXT_BUDGET}: ${raw}`);
  }
  return n;
}

export const contextCmd: Command = {
  synopsis: 'context [--format text|hook] [--project DIR] [--explain] [--budget N]',
  summary: 'what a session gets (hook: SessionStart JSON, always exit 0; --explain: the X-ray table)',
  async run(argv, io) {
    // Not service-args: that module loads the database layer, which the hook does not need.
    const args = parseArgs(argv, { values: ['root', 'format', 'budget', 'project'], bools: ['json', 'explain'] });
    const format = lastValue(args, 'format') ?? 'text';
    if (format !== 'text' && format !== 'hook') throw new UsageError('--format must be text or hook');
    const projectFlag = lastValue(args, 'project');
    if (projectFlag === '') throw new UsageError('--project needs a folder');
    if (format === 'hook') {
      // A hook must never block a session: every failure becomes context text, exit 0.
      let text: string;
      try {
        // The session's project (CONTRACT §4): --project, else the hook JSON's cwd, else where the hook runs.
        const input = projectFlag === undefined ? parseSessionStart(await readHookStdin()) : {};
        const project = projectRoot(projectFlag ?? input.cwd ?? process.cwd());
        const p = plan(args, parseBudget(lastValue(args, 'budget')), project, true);
        const planned = p.roots.length === 0 ? NOTHING_FOR_PROJECT : p.text;
        text =
          p.roots.length === 0
            ? planned
            : withMassNotices(
                p.roots.map((r) => r.root),
                planned,
              );
        // Kept for the next session start while nothing it read changes (text-cache.ts); never a notice said once.
        const rec = recorder();
        if (rec) {
          rec.file(massChangesFile(indexPath()));
          if (text === planned) rec.keep(hookJson(text), p.madeAt);
        }
      } catch (e) {
        text = `memtrust could not load memories: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`;
      }
      io.out(hookJson(text));
      return 0;
    }
    const p = plan(args, parseBudget(lastValue(args, 'budget')), projectFlag && projectRoot(projectFlag));
    if (projectFlag && p.roots.length === 0) {
      io.out(NOTHING_FOR_PROJECT.replace(/\n$/, ''));
      return 0;
    }
    if (args.bools.has('json')) io.out(JSON.stringify(p, null, 2));
    else if (args.bools.has('explain')) io.out(explainText(p));
    else io.out(p.text.replace(/\n$/, ''));
    return 0;
  },
};
