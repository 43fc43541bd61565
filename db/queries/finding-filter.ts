/**
 * The Finding class and Finding kind filters on memory rows, one rule for the review inbox
 * and the tier tabs (docs/dashboard.md "Words"). The class is derived from the finding code
 * with the validators' one rule (findingClass): the distinct secret codes present are split
 * once per database version, and the filter becomes `code IN (…)` on the findings_code
 * index (migration 0011). The record side of both filters is recordWhere (record-rows.ts).
 */
import type Database from 'better-sqlite3';
import { memo } from './memo';
import { findingClass, type FindingClass } from '../../lib/validators/types';

export const FINDING_CLASSES = ['credential', 'personal'] as const satisfies readonly FindingClass[];

/** The secret finding codes present in the index, by class. */
export function classCodes(sqlite: Database.Database): Record<FindingClass, string[]> {
  return memo(sqlite, 'finding-class-codes', () => {
    const out: Record<FindingClass, string[]> = { credential: [], personal: [] };
    const codes = sqlite.prepare(`SELECT DISTINCT code FROM findings WHERE "check" = 'secret' ORDER BY code`).all() as {
      code: string;
    }[];
    for (const { code } of codes) out[findingClass(code)].push(code);
    return out;
  });
}

/** WHERE parts (on `entries m`) for a finding class and a finding kind (a code). */
export function memoryFindingWhere(
  sqlite: Database.Database,
  q: { cls?: FindingClass; kind?: string },
): { parts: string[]; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (q.cls) {
    const codes = classCodes(sqlite)[q.cls];
    if (codes.length === 0) parts.push('0');
    else {
      parts.push(`m.key IN (SELECT key FROM findings WHERE code IN (${codes.map((_, i) => `@cls${i}`).join(', ')}))`);
      for (const [i, code] of codes.entries()) params[`cls${i}`] = code;
    }
  }
  if (q.kind) {
    parts.push('m.key IN (SELECT key FROM findings WHERE code = @kind)');
    params.kind = q.kind;
  }
  return { parts, params };
}
