import type { IndexFinding } from '@/lib/service/claude/index-file-scan';
import { secretWayOut } from '@/lib/trust/way-out';
import { groupFindings, lineList } from '@/lib/validators/finding-groups';

const TONE: Record<string, string> = {
  'SECRET-DETECTED': 'text-red-800 dark:text-red-300',
  FLAGGED: 'text-violet-800 dark:text-violet-300',
  MISSING: 'text-amber-800 dark:text-amber-300',
};

const FIX: Record<string, string> = {
  injection: 'edit MEMORY.md: reword or remove the line (advisory)',
  index: 'edit MEMORY.md: remove the line or restore the file',
};

/**
 * Findings of a root's MEMORY.md, which the assistant loads into every session. memtrust
 * never demotes the index; it shows each finding with its lines and the fix (messages are
 * masked). The same finding on many lines is one row with its count and lines
 * (lib/validators/finding-groups.ts, docs/review-inbox.md "Findings grouped").
 */
export function IndexFindings({ findings }: { findings: IndexFinding[] }) {
  const files = [...new Set(findings.map((f) => f.file))];
  return (
    <div
      className="mt-2 rounded-md border border-amber-200 bg-amber-50/60 px-3 py-2 text-xs dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="index-findings"
    >
      <p className="mb-1 font-medium">
        {files.join(', ')}: {findings.length} {findings.length === 1 ? 'finding' : 'findings'} — loaded into every
        session, so fix them in the file (memtrust never quarantines the index)
      </p>
      <ul className="space-y-0.5">
        {files.flatMap((file) =>
          groupFindings(
            findings
              .filter((f) => f.file === file)
              .map((f) => ({ ...f, class: f.class === 'credential' || f.class === 'personal' ? f.class : null })),
          ).map((g) => (
            <li key={`${file}|${g.label}|${g.code}|${g.messages[0]}`} className="flex gap-2">
              <span className="w-20 shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
                {g.lines.length === 0 ? 'file' : `${g.lines.length === 1 ? 'line' : 'lines'} ${lineList(g.lines)}`}
              </span>
              <span className={`w-32 shrink-0 font-mono ${TONE[g.label] ?? ''}`}>{g.label}</span>
              {/* A long file name wraps anywhere: at 390 px the two label columns leave little room. */}
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {g.messages[0]}
                {g.count > 1 ? (
                  <span
                    className="ml-1 rounded bg-white/70 px-1 font-medium tabular-nums dark:bg-slate-800"
                    role="img"
                    aria-label={`${g.count} times`}
                  >
                    × {g.count}
                  </span>
                ) : null}{' '}
                <span className="text-slate-500 dark:text-slate-400">
                  →{' '}
                  {g.check === 'secret'
                    ? `edit MEMORY.md: ${secretWayOut({ code: g.code, class: g.cls })}`
                    : (FIX[g.check] ?? 'edit the file')}
                </span>
              </span>
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
