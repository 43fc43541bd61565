/**
 * Hints (docs/validators.md "Hints"): findings of injection-check that inside memtrust are
 * advice, not flags. The absolute-command density (3+ always/never/must/from now on in a
 * body) fires on a fifth of some real Claude Code folders whose feedback memories are
 * simply rules ("never commit to main", "always run the tests"). The drop-in
 * `injection-check` keeps it as a flag (exit 3, CONTRACT §2.3); inside memtrust it is a
 * hint: shown with the memory, never counted with injection findings — not in the
 * injection exit the index stores, the overview, the review inbox, the flags, the plans.
 */
import type { Finding, Verdict } from './types';

/** The injection codes memtrust shows as hints. */
export const HINT_CODES: ReadonlySet<string> = new Set(['injection.absolute-density']);

/** An injection finding as memtrust keeps it: check `hint`, label `HINT`, code `hint.<category>`. */
export function asHint(f: Finding): Finding {
  return { ...f, check: 'hint', label: 'HINT', code: `hint.${f.code.slice(f.code.indexOf('.') + 1)}` };
}

/** The injection verdict without its hints (exit recomputed: 3 only for a real flag), and the hints. */
export function splitHints(v: Verdict): { injection: Verdict; hints: Finding[] } {
  if (!v.findings.some((f) => HINT_CODES.has(f.code))) return { injection: v, hints: [] };
  const flags = v.findings.filter((f) => !HINT_CODES.has(f.code));
  const hints = v.findings.filter((f) => HINT_CODES.has(f.code)).map(asHint);
  const flagged = flags.length > 0;
  return {
    injection: { check: 'injection', exit: flagged ? 3 : 0, label: flagged ? 'FLAGGED' : 'CLEAN', findings: flags },
    hints,
  };
}
