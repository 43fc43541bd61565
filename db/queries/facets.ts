/** Distinct values for filter menus (small: machines and sources, not memories). */
import { FILE_SOURCE } from './entry-kind';
import type Database from 'better-sqlite3';
import { memo } from './memo';

export function facets(sqlite: Database.Database): { machines: string[]; sources: { id: string; root: string }[] } {
  return memo(sqlite, 'facets', () => computeFacets(sqlite));
}

function computeFacets(sqlite: Database.Database): { machines: string[]; sources: { id: string; root: string }[] } {
  const machines = (
    sqlite
      .prepare('SELECT DISTINCT source_machine AS m FROM entries WHERE source_machine IS NOT NULL ORDER BY m LIMIT 200')
      .all() as { m: string }[]
  ).map((r) => r.m);
  const sources = sqlite.prepare(`SELECT id, root FROM sources WHERE ${FILE_SOURCE} ORDER BY root`).all() as {
    id: string;
    root: string;
  }[];
  return { machines, sources };
}
