import type { ProjectRef } from '@/lib/sources/claude-home';

/** Under a root: the project it belongs to, and whether that project still exists (docs/roots.md "The Claude Code home"). */
export function ProjectLine({ project }: { project: ProjectRef | null | undefined }) {
  if (!project) return null;
  return (
    <div className="truncate text-xs text-slate-600 dark:text-slate-300" data-testid="root-project">
      project <span className="font-mono">{project.path}</span>
      {project.exists ? null : (
        <span className="ml-1 rounded bg-slate-100 px-1 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          no longer exists
        </span>
      )}
    </div>
  );
}
