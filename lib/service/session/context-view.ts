/**
 * The Context X-ray's plan and its table order, as the dashboard shows them
 * (docs/session-context.md, "The X-ray"). Kept until the index changes or the minute turns;
 * between plans each memory's part is kept (`contextKeepOf`, "Between changes"). The page
 * and the server's warm-up after a change (docs/session-context.md, "Made before it is
 * asked for") both come here, so a warmed plan is the one the page would have made.
 */
import type { Env } from '../../core/env';
import type { ServiceContext } from '../context';
import { memo } from '../../../db/queries/memo';
import type { ContextPlan, ContextRow } from '../../trust/context';
import { orderedRows } from './context-xray';
import { sessionRoots } from './project-scope';
import { buildSessionContext, contextBudgetSetting, contextKeepOf, contextPlanKey } from './session-context';

export interface ContextView {
  plan: ContextPlan;
  /** Each root's rows in the table's order (archived rows left out), by root id. */
  rows: Map<string, ContextRow[]>;
}

/**
 * `ctx`'s index must be current (the dashboard's freshContext): the rows are the list of files.
 * `project`: the plan a session in that project gets (`/context?project=`, CONTRACT §4): the
 * user-level roots and that project's (lib/sources/claude-home.ts `rootBelongsTo`), made
 * without the keep of the all-roots plan.
 */
export function contextView(ctx: ServiceContext, env: Env = process.env, project?: string): ContextView {
  const setting = contextBudgetSetting(env);
  const now = ctx.now();
  const roots = project === undefined ? ctx.config.roots : sessionRoots(ctx.config.roots, project, env);
  const key = `${contextPlanKey(ctx.sources, setting, now)}${project === undefined ? '' : `:project:${project}`}`;
  return memo(ctx.handle.sqlite, key, () => {
    const plan = buildSessionContext({
      roots,
      now,
      owner: ctx.owner(),
      budget: setting.budget,
      problems: setting.problem ? [setting.problem] : [],
      cache: ctx.handle.sqlite,
      listing: 'index',
      // Transcripts from the cache only: the server reads the rest in the background (docs/origin.md "In the dashboard").
      originReadMs: 0,
      keep: project === undefined ? contextKeepOf(ctx.handle.sqlite) : null,
    });
    return { plan, rows: new Map(plan.roots.map((r) => [r.id, orderedRows(r, { archived: false })])) };
  });
}
