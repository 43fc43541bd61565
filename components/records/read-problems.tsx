/** What kept part of a record root from being read: one line per problem with its place (never fatal). */
export interface ProblemGroup {
  source: string;
  root: string;
  label: string;
  problems: { file: string; line: number; problem: string }[];
  warnings: string[];
}

const SHOWN = 20;

export function ReadProblems({ groups }: { groups: ProblemGroup[] }) {
  const withAny = groups.filter((g) => g.problems.length || g.warnings.length);
  if (withAny.length === 0) return null;
  return (
    <section aria-label="Read problems" className="mb-4 space-y-3">
      {withAny.map((g) => (
        <div
          key={g.source}
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">
            {g.label} at <span className="font-mono text-xs">{g.root}</span>:{' '}
            {g.problems.length
              ? `${g.problems.length} ${g.problems.length === 1 ? 'problem' : 'problems'} while reading`
              : `read, with ${g.warnings.length === 1 ? 'a warning' : `${g.warnings.length} warnings`}`}
          </p>
          {g.warnings.map((w) => (
            <p key={w} className="text-xs">
              {w}
            </p>
          ))}
          {g.problems.length ? (
            <ul className="mt-1 space-y-0.5 font-mono text-xs">
              {g.problems.slice(0, SHOWN).map((p, i) => (
                <li key={i}>
                  {p.file}
                  {p.line ? `:${p.line}` : ''} — <span className="font-sans">{p.problem}</span>
                </li>
              ))}
              {g.problems.length > SHOWN ? <li className="font-sans">… and {g.problems.length - SHOWN} more</li> : null}
            </ul>
          ) : null}
        </div>
      ))}
    </section>
  );
}
