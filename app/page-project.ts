/**
 * The project a dashboard page shows (docs/roots.md "The Claude Code home"): the URL's
 * `project` parameter when there is one (empty: all projects), else the one the project
 * picker remembered in a cookie, so every page and every link keeps the choice without
 * each link carrying it.
 */
import 'server-only';
import { cookies } from 'next/headers';
import { PROJECT_COOKIE } from '@/components/project-cookie';

export async function pageProject(raw: string | string[] | undefined): Promise<string | undefined> {
  const param = Array.isArray(raw) ? raw[0] : raw;
  if (param !== undefined) return param || undefined;
  const c = (await cookies()).get(PROJECT_COOKIE)?.value;
  return c ? decodeURIComponent(c) : undefined;
}
