/** The text form of a batch plan and its outcome (docs/batches.md); `--json` prints the same structure. */
import type { Io } from '../io';
import type { BatchPlan } from '../../service/batches/batch-plan';
import type { BatchOutcome } from '../../service/batches/batch-run';
import { groupFindings, lineList } from '../../validators/finding-groups';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function printPlan(io: Io, plan: BatchPlan, verb: string): void {
  if (plan.files.length === 0) {
    io.out(`plan: nothing to ${verb}`);
    return;
  }
  const moves = plan.files.filter((f) => f.moves).length;
  io.out(
    `plan: ${verb} ${plural(plan.files.length, 'file', 'files')}${moves ? ` (${moves} move${moves === 1 ? 's' : ''})` : ''} — ${plan.destinations.map((d) => `${d.files} → ${d.to}`).join(', ')}`,
  );
  if (plan.groups.length) {
    io.out('findings by kind:');
    for (const g of plan.groups) {
      const kind = g.class ?? (g.check === 'injection' ? 'advisory' : g.check);
      io.out(
        `  ${kind.padEnd(10)} ${g.code.padEnd(32)} ${plural(g.findings, 'finding', 'findings')} in ${plural(g.files, 'file', 'files')}`,
      );
    }
  }
  io.out('files:');
  for (const f of plan.files) {
    io.out(
      `  ${f.file}  ${f.from ?? 'no trust-level'} → ${f.to}${f.moves ? `  (to ${f.destination})` : ''}${f.note ? `  ${f.note}` : ''}`,
    );
    // One line per kind and message, with its count and lines: 60 private addresses are one line.
    const why = new Map(f.findings.map((x) => [x.code, x.class ? ` (${x.class})` : x.advisory ? ' (advisory)' : '']));
    for (const g of groupFindings(f.findings.map((x) => ({ ...x, label: x.check })))) {
      const where = g.lines.length ? `${g.lines.length === 1 ? 'line' : 'lines'} ${lineList(g.lines)}` : '';
      io.out(
        `      ${g.code}${why.get(g.code) ?? ''}: ${g.messages[0]}${g.count > 1 ? ` × ${g.count}` : ''}${where ? `  (${where})` : ''}`,
      );
    }
  }
  for (const s of plan.skipped) io.out(`  skip ${s.file}: ${s.reason}`);
  for (const r of plan.roots)
    if (r.moving) io.out(`root ${r.root}: ${r.moving} of ${plural(r.memories, 'memory', 'memories')} would move`);
}

export function printOutcome(io: Io, outcome: BatchOutcome, verb: string): void {
  for (const r of outcome.results)
    io.out(
      r.result.ok
        ? `${r.result.noop ? 'already' : verb}: ${r.result.message}`
        : `refused: ${r.memory}: ${r.result.message}`,
    );
  io.out(
    `batch ${outcome.batch}: ${outcome.done} ${verb}${outcome.noop ? `, ${outcome.noop} already so` : ''}${outcome.refused ? `, ${outcome.refused} refused` : ''} — undo with: memtrust undo ${outcome.batch}`,
  );
}
