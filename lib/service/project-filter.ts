/**
 * The project filter of every listing (CONTRACT §8 "Every record carries `project`; every page
 * and listing filters by project"; docs/roots.md "The Claude Code home"): which roots a
 * project's view keeps, and the projects the configured roots name, for the picker.
 */
import path from 'node:path';
import type { ProjectRef } from '../sources/claude-home';
import type { ServiceContext } from './context';

/** The filter value of the user-level roots (trust-model roots, user agent memory): not a path. */
export const USER_LEVEL = 'user';

export interface ProjectChoice {
  /** The filter value: the project's path, or USER_LEVEL. */
  value: string;
  label: string;
  exists: boolean;
  roots: number;
}

/** A filter value as given (`--project DIR`, `?project=`): a path is made absolute; empty is none. */
export function projectFilter(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  return raw === USER_LEVEL ? USER_LEVEL : path.resolve(raw);
}

/** Whether a root is kept by the filter (none keeps every root). */
export function inProject(project: ProjectRef | null, filter: string | undefined): boolean {
  if (filter === undefined) return true;
  if (filter === USER_LEVEL) return project === null;
  return project !== null && path.resolve(project.path) === filter;
}

/** The roots a filter keeps. */
export function projectSources<T extends { project: ProjectRef | null }>(
  sources: readonly T[],
  filter: string | undefined,
): T[] {
  return sources.filter((s) => inProject(s.project, filter));
}

/** The projects the roots name, by path (user-level first when there is one), for the picker. */
export function projectChoices(sources: readonly { project: ProjectRef | null }[]): ProjectChoice[] {
  const by = new Map<string, ProjectChoice>();
  let user = 0;
  for (const s of sources) {
    if (!s.project) {
      user++;
      continue;
    }
    const key = path.resolve(s.project.path);
    const c = by.get(key);
    if (c) c.roots++;
    else by.set(key, { value: key, label: key, exists: s.project.exists, roots: 1 });
  }
  const list = [...by.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return user ? [{ value: USER_LEVEL, label: 'user-level (every session)', exists: true, roots: user }, ...list] : list;
}

/**
 * A page's view through the `project` parameter: the same context with only that project's
 * roots (`sources`, `recordSources`) and their ids for the queries over every row; no
 * parameter (or one naming no configured root's project) keeps every root.
 */
export function scopedContext(
  ctx: ServiceContext,
  raw: string | string[] | undefined,
): { ctx: ServiceContext; filter?: string; ids?: string[] } {
  const filter = projectFilter(Array.isArray(raw) ? raw[0] : raw);
  if (filter === undefined) return { ctx };
  const sources = projectSources(ctx.sources, filter);
  const recordSources = projectSources(ctx.recordSources, filter);
  return {
    ctx: { ...ctx, config: { ...ctx.config, projectFilter: filter }, sources, recordSources },
    filter,
    ids: [...sources, ...recordSources].map((s) => s.id),
  };
}
