/**
 * Findings grouped by kind and message, with their count and lines (docs/review-inbox.md
 * "Findings grouped"): a memory with 60 private addresses is one group "× 60", never 60
 * identical lines. Used by the pages and the CLI's plans. Messages are already masked by
 * the validators, so equal masks group together.
 */

export interface FindingLike {
  check: string;
  code: string;
  label: string;
  line?: number | null;
  message: string;
  /** Secret findings: credential or personal data (lib/validators/types.ts). */
  class?: 'credential' | 'personal' | null;
}

export interface FindingGroup {
  /** The check that found it (secret, injection, index, …): the way out depends on it. */
  check: string;
  code: string;
  label: string;
  count: number;
  lines: number[];
  messages: string[];
  cls: 'credential' | 'personal' | null;
}

const RANK: Record<string, number> = {
  'FAIL-STRUCT': 0,
  'SECRET-DETECTED': 1,
  'FAIL-FORMAT': 2,
  FLAGGED: 3,
  'WARN-SEMANTIC': 4,
};

export function groupFindings(findings: readonly FindingLike[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    const k = `${f.label}|${f.code}|${f.class ?? ''}|${f.message}`;
    const g = groups.get(k) ?? {
      check: f.check,
      code: f.code,
      label: f.label,
      count: 0,
      lines: [],
      messages: [],
      cls: f.class ?? null,
    };
    g.count++;
    if (f.line != null && !g.lines.includes(f.line)) g.lines.push(f.line);
    if (!g.messages.includes(f.message)) g.messages.push(f.message);
    groups.set(k, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, lines: g.lines.sort((a, b) => a - b) }))
    .sort(
      (a, b) =>
        (RANK[a.label] ?? 9) - (RANK[b.label] ?? 9) ||
        a.code.localeCompare(b.code) ||
        (a.lines[0] ?? 0) - (b.lines[0] ?? 0),
    );
}

export function lineList(lines: number[]): string {
  if (lines.length === 0) return '';
  const shown = lines.slice(0, 12).join(', ');
  return lines.length > 12 ? `${shown} and ${lines.length - 12} more` : shown;
}
