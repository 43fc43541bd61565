/**
 * One read of a text for the words the secret check starts from (docs/performance-validators.md,
 * "Both scanners: fast paths"): the trigger words that select lines for the prose detectors
 * (TRIGGER_WORDS, secrets-trigger.ts) and the token detectors' hints (secrets-patterns.ts). Each
 * was a regex pass over the whole text; here two automata (trigger-automaton.ts,
 * hint-automaton.ts) step together, one unit read for both. The rules stay where they are; the
 * plain forms (TRIGGER, hintsPresent) are what wantedLines and patternCandidates use without
 * these words, and what the tests hold these to.
 */
import { onFirstUse } from '../core/on-first-use';
import { type HintAutomaton, hintAutomaton, recordHints } from './hint-automaton';
import { DETECTOR_HINTS } from './secrets-patterns';
import { TRIGGER_WORDS, triggerCondition } from './secrets-trigger';
import { recordTriggers, type TriggerAutomaton, type TriggerMatches, triggerAutomaton } from './trigger-automaton';

export interface SecretWords {
  /** Bit i set when DETECTORS[i]'s hint occurs (hintsPresent). */
  hints: number;
  /** TRIGGER's matches, one per start (TriggerMatches), with the condition each puts on its line. */
  triggers: TriggerMatches & { condition: number[] };
}

/** Made on first use: a process that never checks a text (most hook starts) does not build them. */
const AUTOMATA = onFirstUse(() => {
  const trigger = triggerAutomaton(TRIGGER_WORDS.split('|'));
  const hints = hintAutomaton(DETECTOR_HINTS);
  return {
    trigger,
    hints,
    columns: bothColumns(trigger, hints),
    condition: Int8Array.from(trigger.literal, triggerCondition),
  };
});

/** Per unit, its trigger column and, above it, its hint column: one load for both automata. */
function bothColumns(t: TriggerAutomaton, h: HintAutomaton): Uint16Array {
  const both = new Uint16Array(0x10000);
  for (let u = 0; u < 0x10000; u++) both[u] = t.column[u]! | (h.column[u]! << 8);
  return both;
}

export function secretWordsOf(text: string): SecretWords {
  const a = AUTOMATA();
  const m = wordsIn(text, a.trigger, a.hints, a.columns);
  return { hints: m.hints, triggers: { ...m.triggers, condition: m.triggers.variant.map((v) => a.condition[v]!) } };
}

/** Both automata over `text`, one unit read per step; the rare words found go to functions of their own. */
export function wordsIn(
  text: string,
  t: TriggerAutomaton,
  h: HintAutomaton,
  columns: Uint16Array,
): { hints: number; triggers: TriggerMatches } {
  const triggers: TriggerMatches = { start: [], end: [], variant: [] };
  const tDelta = t.delta;
  const hDelta = h.delta;
  const n = text.length;
  let hints = 0;
  let tRow = 0;
  let hRow = 0;
  for (let i = 0; i < n; i++) {
    const cc = columns[text.charCodeAt(i)]!;
    const dt = tDelta[tRow + (cc & 255)]!;
    const dh = hDelta[hRow + (cc >> 8)]!;
    tRow = dt >> 1;
    hRow = dh >> 1;
    if (((dt | dh) & 1) === 0) continue;
    if ((dt & 1) !== 0) recordTriggers(t, text, i, tRow, triggers);
    if ((dh & 1) !== 0) hints = recordHints(h, text, i, hRow, hints);
  }
  return { hints, triggers };
}
