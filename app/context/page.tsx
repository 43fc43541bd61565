import type { Metadata } from 'next';
import { freshContext, shownContextView } from '@/lib/server';
import { summaryLine } from '@/lib/service/session/context-xray';
import { StatCard, Section } from '@/components/ui/stat-card';
import { LiveRefresh } from '@/components/live-refresh';
import { indexSignature } from '@/db/queries/signature';
import { IndexAsLoaded, RootRows } from '@/components/context-xray';
import { ProjectLine } from '@/components/project-line';
import { projectFilter, USER_LEVEL } from '@/lib/service/project-filter';
import { projectRoot } from '@/lib/service/session/project-scope';
import { pageProject } from '@/app/page-project';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Context X-ray' };

/** What a session gets, exactly: the plan the SessionStart hook prints (docs/session-context.md). */
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ContextPage({ searchParams }: Props) {
  const ctx = freshContext();
  // `?project=`: what a session in that project gets, as `context --project DIR` (CONTRACT §4).
  const filter = projectFilter(await pageProject((await searchParams).project));
  const project = filter === undefined || filter === USER_LEVEL ? filter : projectRoot(filter);
  // Kept until the index changes (freshContext rescans what the watchers saw move) or the
  // minute turns, and made ahead of the request after a change while the page is looked at
  // (docs/session-context.md, "Between changes" and "Made before it is asked for").
  const { plan, rows } = shownContextView(ctx, project);
  const c = plan.counts;
  // Under each root's heading, the project it belongs to (the overview's line): on a home of
  // many projects a folder path like ~/.claude/projects/-src-app/memory says little.
  const projects = new Map(ctx.sources.map((s) => [s.id, s.project]));
  return (
    <div>
      <LiveRefresh since={indexSignature(ctx.handle.sqlite)} context />
      <h1 className="text-2xl font-semibold tracking-tight">Context X-ray</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Exactly what memtrust’s SessionStart hook gives an assistant session now, root by root. The same table in a
        terminal: <code className="font-mono text-xs">npx memtrust context --explain</code>.
      </p>
      {project && project !== USER_LEVEL ? (
        <p className="mt-1 text-sm" data-testid="context-project">
          For a session in <span className="font-mono">{project}</span>: its own folders and the user-level roots (
          <code className="font-mono text-xs">npx memtrust context --project {project}</code>).
          {plan.roots.length === 0 ? ' Nothing of this project holds memories yet.' : ''}
        </p>
      ) : null}

      <Section title="Hook text">
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <StatCard
            label="Characters"
            value={plan.chars}
            hint={`of a ${plan.budget.toLocaleString('en-US')}-character budget`}
            href="/settings#context-budget"
          />
          <StatCard label="Estimated tokens" value={plan.tokens} hint="ASCII ÷ 4 + 1 per other character" />
          <StatCard label="Headroom" value={plan.headroom} hint="characters left in the budget" />
          <StatCard
            label="Not loaded: over budget"
            value={c.overBudget}
            tone={c.overBudget ? 'inferred' : 'neutral'}
            hint={`${c.verified + c.inferred} bodies quoted · ${c.withheld} withheld`}
          />
        </div>
      </Section>

      {plan.roots.map((root) => (
        <section key={root.id} className="mt-10" aria-label={`Root ${root.display}`}>
          <h2 className="text-lg font-semibold">
            <span className="font-mono text-base">{root.display}</span>
            <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">
              {root.layout === 'claude-code'
                ? 'Claude Code memory folder — Claude Code loads MEMORY.md itself; memtrust adds trust notes only'
                : 'trust-model root — nothing else loads it; memtrust quotes its bodies'}
            </span>
          </h2>
          <ProjectLine project={projects.get(root.id)} />
          {root.error ? (
            <p
              role="alert"
              className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200"
            >
              Could not read this root: {root.error}
            </p>
          ) : null}
          {root.layout === 'claude-code' && !root.error ? <IndexAsLoaded root={root} /> : null}
          {!root.error ? <RootRows root={root} rows={rows.get(root.id) ?? []} /> : null}
        </section>
      ))}

      {plan.problems.length ? (
        <Section title="Could not read">
          <ul className="space-y-1 text-sm">
            {plan.problems.map((p, i) => (
              <li key={i}>
                <code className="font-mono text-xs">{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section title="The hook text, verbatim">
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="hook-summary">
          {summaryLine(plan)}
        </p>
        <pre
          data-testid="hook-text"
          className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-xs text-slate-800 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-200"
        >
          {plan.text}
        </pre>
      </Section>
    </div>
  );
}
