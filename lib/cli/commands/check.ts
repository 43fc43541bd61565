/**
 * `memtrust validate|secret-check|injection-check FILE | --all DIR` — a drop-in
 * for the reference shell validators (docs/validators.md "Command line"): same exit codes, same
 * phrases, `--all` summary, deterministic order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, UsageError } from '../args';
import { readInputFile } from '../read-input';
import type { Io } from '../io';
import { runCheck, CHECK_COMMANDS, type CheckCommand } from '../../validators/run';
import { EXIT } from '../../core/error-codes';
import { formatVerdictBlock, formatVerdictLine } from '../../validators/format';
import type { OwnerIdentity, Verdict } from '../../validators/types';
import { ownerIdentity } from '../../core/identity';

/** Worst-first exit order per command (1 > 2 > 3 > 0 for validate). */
const SEVERITY: Record<CheckCommand, number[]> = {
  validate: [1, 2, 3, 0],
  'secret-check': [1, 0],
  'injection-check': [3, 0],
};

export function checkUsage(cmd: string): string {
  return `usage: memtrust ${cmd} FILE | --all DIR [--json]`;
}

function unreadableVerdict(cmd: CheckCommand, message: string): Verdict {
  // A file we cannot read is a structural failure for validate and "not known clean" elsewhere.
  const check = cmd === 'validate' ? 'validate' : cmd === 'secret-check' ? 'secret' : 'injection';
  const exit = cmd === 'injection-check' ? 3 : 1;
  const label = cmd === 'validate' ? 'FAIL-STRUCT' : cmd === 'secret-check' ? 'SECRET-DETECTED' : 'FLAGGED';
  return { check, exit, label, findings: [{ check, code: 'unreadable', label, message }] };
}

function checkFile(cmd: CheckCommand, file: string, owner?: OwnerIdentity): Verdict {
  const read = readInputFile(file);
  if (!read.ok) return unreadableVerdict(cmd, read.message);
  return runCheck(cmd, read.bytes, path.basename(file), owner);
}

export function worstExit(cmd: CheckCommand, exits: number[]): number {
  for (const code of SEVERITY[cmd]) if (exits.includes(code)) return code;
  return 0;
}

export async function runCheckCommand(cmd: CheckCommand, argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: ['all'], bools: ['json', 'help', 'h'] });
  if (args.bools.has('help') || args.bools.has('h')) {
    io.out(checkUsage(cmd));
    return 0;
  }
  const json = args.bools.has('json');
  const allDir = args.values.get('all')?.at(-1);
  if (allDir !== undefined) {
    if (args.positionals.length > 0) throw new UsageError('give either FILE or --all DIR');
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(allDir);
    } catch {
      st = undefined;
    }
    if (!st?.isDirectory()) throw new UsageError(`not a directory: ${allDir}`);
    return checkAll(cmd, allDir, json, io);
  }
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'one FILE only' : 'missing FILE');
  const file = args.positionals[0]!;
  const verdict = checkFile(cmd, file);
  if (json) io.out(JSON.stringify({ file, ...verdict }));
  else io.out(formatVerdictBlock(file, verdict));
  return verdict.exit;
}

function checkAll(cmd: CheckCommand, dir: string, json: boolean, io: Io): number {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // The owner once per run: asking per file reads five environment variables each time
  // (about 4 µs a file, 10 % of secret-check --all on small files).
  const owner = cmd === 'secret-check' ? ownerIdentity() : undefined;
  const results = names.map((name) => {
    const file = path.join(dir, name);
    return { file, verdict: checkFile(cmd, file, owner) };
  });
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.verdict.label, (counts.get(r.verdict.label) ?? 0) + 1);
  const exit = worstExit(
    cmd,
    results.map((r) => r.verdict.exit),
  );
  if (json) {
    io.out(
      JSON.stringify({
        dir,
        exit,
        counts: Object.fromEntries(counts),
        files: results.map((r) => ({ file: r.file, ...r.verdict })),
      }),
    );
    return exit;
  }
  const parts = [...counts.entries()].sort().map(([label, n]) => `${n} ${label}`);
  // One write for the whole listing: 10,000 small writes cost more than the checks.
  const lines = results.map((r) => formatVerdictLine(r.file, r.verdict));
  lines.push(`Summary: ${results.length} files${parts.length ? `, ${parts.join(', ')}` : ''}`);
  io.out(lines.join('\n'));
  return exit;
}

/** One check command as the CLI runs it: a usage error names the command and prints its usage (exit 64). */
export async function runCheckUsage(cmd: CheckCommand, rest: string[], io: Io): Promise<number> {
  try {
    return await runCheckCommand(cmd, rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`memtrust ${cmd}: ${e.message}`);
      io.err(checkUsage(cmd));
      return EXIT.usage;
    }
    throw e;
  }
}

export { CHECK_COMMANDS };
