/** What an entry's target asks to check (docs/canonical-layout.md, "Re-verify"). Pure. */
import { isGlob } from './glob';
import { listValue } from './parse';

export interface PathLine {
  path: string;
  line: number;
  symbol: string | null;
}

export interface TargetSpec {
  pathLine: PathLine | null;
  /** Literal paths and globs (from `governs`, or the path of a `path:line`/path target). */
  paths: string[];
}

const PATH_LINE_RE = /^`?([^\s`()]+?):(\d+)(?:-\d+)?`?(?:\s*\(`?([^()`]+?)`?\))?\s*$/;

function looksLikePath(s: string): boolean {
  return !/\s/.test(s) && /[/.]/.test(s) && !/^[a-z]+:\/\//i.test(s);
}

/** What a target value asks to check. Pure. */
export function targetSpec(
  target: string | null,
  from: 'target' | 'governs' | 'key' | null,
  symbol?: string | null,
): TargetSpec {
  if (!target) return { pathLine: null, paths: [] };
  if (from === 'governs') {
    return {
      pathLine: null,
      paths: listValue(target)
        .map(clean)
        .filter((p) => !!p && (looksLikePath(p) || isGlob(p))),
    };
  }
  const m = PATH_LINE_RE.exec(target.trim());
  if (m && looksLikePath(m[1]!)) {
    const sym = (m[3] ?? symbol ?? '').trim() || null;
    return { pathLine: { path: clean(m[1]!), line: Number(m[2]), symbol: sym }, paths: [clean(m[1]!)] };
  }
  const bare = clean(target);
  return looksLikePath(bare) || isGlob(bare) ? { pathLine: null, paths: [bare] } : { pathLine: null, paths: [] };
}

function clean(p: string): string {
  return p.trim().replace(/^`|`$/g, '').replace(/^\.\//, '');
}
