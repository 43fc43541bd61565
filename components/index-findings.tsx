import type { IndexFinding } from '@/lib/service/claude/index-file-scan';
import { secretWayOut } from '@/lib/trust/way-out';

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
 * never demotes the index; it shows each finding with its line and the fix (messages are masked).
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
        {findings.map((f, i) => (
          <li key={i} className="flex gap-2">
            <span className="w-16 shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
              {f.line ? `line ${f.line}` : 'file'}
            </span>
            <span className={`w-32 shrink-0 font-mono ${TONE[f.label] ?? ''}`}>{f.label}</span>
            <span>
              {f.message}{' '}
              <span className="text-slate-500 dark:text-slate-400">
                → {f.check === 'secret' ? `edit MEMORY.md: ${secretWayOut(f)}` : (FIX[f.check] ?? 'edit the file')}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
