/**
 * Re-verifying an entry's target against the project checkout (docs/canonical-layout.md,
 * "Re-verify"): a `path:line` must name an existing file with that line, a symbol must
 * still be near the line, every `governs` path must exist and every glob must match.
 * Paths the project ignores are skipped. All entries are checked in one batch so git
 * runs at most twice (one `ls-files` for globs, one `check-ignore --stdin`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { globToRegExp, isGlob, staticPrefix } from './glob';
import { ignoredPaths, listFiles } from './git';
import type { TargetSpec } from './target';
import type { TargetCheck } from './types';

/** How far from the named line a symbol may have drifted and still count as "near". */
export const SYMBOL_WINDOW = 15;

export { targetSpec, type TargetSpec, type PathLine } from './target';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Checks every spec against `checkout`; answers in the same order. */
export function verifyTargets(specs: TargetSpec[], checkout: string): TargetCheck[] {
  const fileLines = new Map<string, string[] | null>();
  const readLines = (rel: string): string[] | null => {
    if (!fileLines.has(rel)) {
      let v: string[] | null = null;
      try {
        const abs = path.join(checkout, rel);
        if (fs.statSync(abs).isFile()) v = fs.readFileSync(abs, 'utf8').split(/\r?\n/);
      } catch {
        v = null;
      }
      fileLines.set(rel, v);
    }
    return fileLines.get(rel)!;
  };
  const exists = new Map<string, boolean>();
  const existsRel = (rel: string) => {
    if (!exists.has(rel)) exists.set(rel, fs.existsSync(path.join(checkout, rel)));
    return exists.get(rel)!;
  };
  let files: string[] | null | undefined;
  const globMatches = (g: string): boolean | null => {
    if (files === undefined) files = listFiles(checkout);
    if (files === null) return null;
    const re = globToRegExp(g);
    return files.some((f) => re.test(f));
  };

  // First pass: what is missing. A missing path is suspect unless the project ignores it.
  type Pending = { kind: 'path' | 'glob' | 'line'; item: string; problem: string };
  const perSpec: { checked: string[]; pending: Pending[]; problems: string[] }[] = specs.map((spec) => {
    const checked: string[] = [];
    const pending: Pending[] = [];
    const problems: string[] = [];
    if (spec.pathLine) {
      const { path: p, line, symbol } = spec.pathLine;
      const lines = readLines(p);
      if (!lines) pending.push({ kind: 'line', item: p, problem: `${p} is missing` });
      else {
        const count = lines.length - (lines.at(-1) === '' ? 1 : 0);
        if (line < 1 || line > Math.max(count, 1))
          problems.push(`${p} has ${count} lines, the target names line ${line}`);
        else checked.push(`${p}:${line} exists`);
        if (symbol) {
          const re = new RegExp(`(^|[^A-Za-z0-9_$])${escapeRe(symbol)}($|[^A-Za-z0-9_$])`);
          const lo = Math.max(1, line - SYMBOL_WINDOW);
          const hi = Math.min(count, line + SYMBOL_WINDOW);
          let near = false;
          for (let i = lo; i <= hi && !near; i++) near = re.test(lines[i - 1]!);
          if (near) checked.push(`${symbol} is near line ${line}`);
          else {
            const at = lines.findIndex((l) => re.test(l));
            problems.push(
              at === -1
                ? `${symbol} is no longer in ${p}`
                : `${symbol} moved to line ${at + 1} of ${p} (target says ${line})`,
            );
          }
        }
      }
    } else {
      for (const p of spec.paths) {
        if (isGlob(p)) {
          const hit = globMatches(p);
          if (hit === null) checked.push(`${p} not checked (no file list)`);
          else if (hit) checked.push(`${p} matches files`);
          else pending.push({ kind: 'glob', item: p, problem: `${p} matches nothing` });
        } else if (existsRel(p)) checked.push(`${p} exists`);
        else pending.push({ kind: 'path', item: p, problem: `${p} is missing` });
      }
    }
    return { checked, pending, problems };
  });

  const askIgnore = new Set<string>();
  // A glob is asked about through its literal folder, with a slash so that a folder
  // pattern (`dist/`) matches even when the folder does not exist.
  const probe = (p: Pending) =>
    p.kind === 'glob' ? (staticPrefix(p.item) ? `${staticPrefix(p.item)}/` : p.item) : p.item;
  for (const s of perSpec) for (const p of s.pending) askIgnore.add(probe(p));
  askIgnore.delete('');
  const ignored = ignoredPaths(checkout, [...askIgnore]);

  return perSpec.map((s) => {
    const ign: string[] = [];
    const problems = [...s.problems];
    for (const p of s.pending) {
      if (ignored.has(probe(p))) ign.push(p.item);
      else problems.push(p.problem);
    }
    return { ok: problems.length === 0, problems, checked: s.checked, ignored: ign };
  });
}
