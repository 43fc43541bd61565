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
import { UNMADE } from './lazy-automaton';
import { recordTriggers, type TriggerAutomaton, type TriggerMatches, triggerAutomaton } from './trigger-automaton';

export interface SecretWords {
  /** Bit i set when DETECTORS[i]'s hint occurs (hintsPresent). */
  hints: number;
  /** TRIGGER's matches, one per start (TriggerMatches). */
  triggers: TriggerMatches;
  /** Per variant of the trigger automaton, the condition its match puts on its line (triggerCondition). */
  condition: Int8Array;
}

/** Made on first use: a process that never checks a text (most hook starts) does not build them. */
const AUTOMATA = onFirstUse(() => {
  const trigger = triggerAutomaton(TRIGGER_WORDS.split('|'));
  const hints = hintAutomaton(DETECTOR_HINTS);
  return {
    trigger,
    hints,
    both: new BothAutomata(trigger, hints),
    condition: Int8Array.from(trigger.literal, triggerCondition),
  };
});

/**
 * The two automata as one (their product), so a step is one table load where stepping both was
 * two: a state is a pair of their states, a column a pair of their columns. States and transitions
 * are made when first taken (lazy-automaton.ts), a few hundred states at most. A transition is
 * stored as the next state's row (state × columns) times two, plus one when a word of either
 * automaton ends there.
 */
export class BothAutomata {
  /** Per UTF-16 unit, its column: the pair of its trigger and hint columns. */
  readonly column = new Uint8Array(0x10000);
  readonly columns: number;
  /** Per row + column, the transition, or UNMADE; replaced by a bigger one as states are made. */
  delta: Int32Array;
  /** Per state, the trigger and hint automata's states in it. */
  readonly tState: number[] = [0];
  readonly hState: number[] = [0];
  private readonly pairT: number[] = [0];
  private readonly pairH: number[] = [0];
  private readonly stateOf = new Map<number, number>([[0, 0]]);
  private readonly t: TriggerAutomaton;
  private readonly h: HintAutomaton;

  constructor(t: TriggerAutomaton, h: HintAutomaton) {
    this.t = t;
    this.h = h;
    // Column 0 is the pair (0, 0): every unit in neither automaton's words.
    const pairOf = new Map<number, number>([[0, 0]]);
    for (const u of [...t.units, ...h.units]) {
      const key = (t.column[u]! << 8) | h.column[u]!;
      let col = pairOf.get(key);
      if (col === undefined) {
        col = this.pairT.length;
        if (col > 255) throw new Error('both automata: more than 256 column pairs');
        pairOf.set(key, col);
        this.pairT.push(t.column[u]!);
        this.pairH.push(h.column[u]!);
      }
      this.column[u] = col;
    }
    this.columns = this.pairT.length;
    this.delta = new Int32Array(64 * this.columns).fill(UNMADE);
  }

  /** The transition from the state at `row` on `col`, made and stored (delta may be replaced: read it again). */
  make(row: number, col: number): number {
    const s = row / this.columns;
    const nt = this.t.automaton.next(this.tState[s]!, this.pairT[col]!);
    const nh = this.h.automaton.next(this.hState[s]!, this.pairH[col]!);
    const key = nt * 0x10000 + nh;
    let n = this.stateOf.get(key);
    if (n === undefined) {
      n = this.tState.length;
      this.stateOf.set(key, n);
      this.tState.push(nt);
      this.hState.push(nh);
      if ((n + 1) * this.columns > this.delta.length) {
        const bigger = new Int32Array(this.delta.length * 2).fill(UNMADE);
        bigger.set(this.delta);
        this.delta = bigger;
      }
    }
    const ends = this.t.automaton.out[nt]!.length > 0 || this.h.automaton.out[nh]!.length > 0;
    const d = n * this.columns * 2 + (ends ? 1 : 0);
    this.delta[row + col] = d;
    return d;
  }
}

/**
 * How much text (UTF-16 units) a process checks by the plain regexes before it builds the
 * automata: building them, and the JIT's work on the new code, costs a cold process about what
 * they save on one pass of 16 million units (docs/performance-validators.md, "Trigger words and
 * token hints in one read"). A hook, a scan, one pass over a large folder run as before; a
 * process that goes on checking (a second pass, a long-running server) pays once, then reads its
 * text by them.
 */
export const UNITS_BEFORE_AUTOMATA = 1 << 24;
let unitsChecked = 0;

/** secretWordsOf once the process has checked UNITS_BEFORE_AUTOMATA units, else undefined (the callers' regexes find the same). */
export function secretWordsOnceWorthIt(text: string): SecretWords | undefined {
  if (unitsChecked < UNITS_BEFORE_AUTOMATA) {
    unitsChecked += text.length;
    return undefined;
  }
  return secretWordsOf(text);
}

export function secretWordsOf(text: string): SecretWords {
  const a = AUTOMATA();
  const m = wordsIn(text, a.trigger, a.hints, a.both);
  return { hints: m.hints, triggers: m.triggers, condition: a.condition };
}

/** Both automata over `text`, one load per unit; the rare words found go to functions of their own. */
export function wordsIn(
  text: string,
  t: TriggerAutomaton,
  h: HintAutomaton,
  b: BothAutomata,
): { hints: number; triggers: TriggerMatches } {
  const triggers: TriggerMatches = { start: [], end: [], variant: [] };
  const column = b.column;
  let delta = b.delta;
  const n = text.length;
  let hints = 0;
  let row = 0;
  for (let i = 0; i < n; i++) {
    const col = column[text.charCodeAt(i)]!;
    let d = delta[row + col]!;
    if (d === UNMADE) {
      d = b.make(row, col);
      delta = b.delta;
    }
    row = d >> 1;
    if ((d & 1) === 0) continue;
    const s = row / b.columns;
    const ts = b.tState[s]!;
    const hs = b.hState[s]!;
    if (t.automaton.out[ts]!.length > 0) recordTriggers(t, text, i, ts, triggers);
    if (h.automaton.out[hs]!.length > 0) hints = recordHints(h, text, i, hs, hints);
  }
  return { hints, triggers };
}
