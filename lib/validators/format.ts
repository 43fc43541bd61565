/**
 * Human output of a verdict. The contract's phrases travel verbatim in
 * `finding.message`; the conformance suite greps this text for them.
 */
import type { Finding, Verdict } from './types';

export function describeFinding(f: Finding): string {
  return f.line ? `${f.message} (line ${f.line})` : f.message;
}

/** One line per file, as `--all` prints it: `LABEL  file: message; message`. */
export function formatVerdictLine(file: string, v: Verdict): string {
  const label = v.label.padEnd(15);
  if (v.findings.length === 0) return `${label} ${file}`;
  return `${label} ${file}: ${v.findings.map(describeFinding).join('; ')}`;
}

/** Block form for a single file: the line, then each finding on its own line. */
export function formatVerdictBlock(file: string, v: Verdict): string {
  const lines = [`${v.label} ${file}`];
  for (const f of v.findings) lines.push(`  ${f.label}: ${describeFinding(f)}`);
  return lines.join('\n');
}
