/**
 * Makes the Context X-ray's plan before it is asked for (docs/session-context.md, "Made
 * before it is asked for").
 *
 * At 100,000 memories the plan takes about half a second even when only one file changed:
 * every memory's lifecycle and table row, the packing order, the render. That half second
 * used to be spent inside the first request after a change, or after the minute turned.
 * While someone has looked at the page lately, the server now makes the plan shortly after
 * anything could have moved it (a scan, a write, any request) and when the minute turns, so
 * the page and its live refresh find it made. The plan is memoised by the index's version
 * and the minute (contextView), so a warm-up with nothing moved costs a key check.
 */

/** Warm only while the page was shown within this long (an open tab's polls count as shown). */
export const WARM_WINDOW_MS = 10 * 60_000;
/** After a change, wait this long for more (a burst of writes is planned once), and again while requests are answered. */
export const WARM_DELAY_MS = 20;
/** The plan's clock runs by the minute (contextPlanKey). */
export const WARM_PERIOD_MS = 60_000;

export interface ContextWarmer {
  /** The page was just shown. */
  viewed(): void;
  /** Something may have moved the plan (a scan, a write, a request). */
  changed(): void;
  close(): void;
}

export function contextWarmer(
  warm: () => void,
  opts: {
    windowMs?: number;
    delayMs?: number;
    periodMs?: number;
    clock?: () => number;
    /** A request is being answered: the plan waits for it (it would only make the response later). */
    busy?: () => boolean;
  } = {},
): ContextWarmer {
  const windowMs = opts.windowMs ?? WARM_WINDOW_MS;
  const delayMs = opts.delayMs ?? WARM_DELAY_MS;
  const periodMs = opts.periodMs ?? WARM_PERIOD_MS;
  const clock = opts.clock ?? Date.now;
  const busy = opts.busy ?? (() => false);
  let viewedAt = Number.NEGATIVE_INFINITY;
  let soon: NodeJS.Timeout | undefined;
  let turn: NodeJS.Timeout | undefined;
  let closed = false;
  const wanted = () => !closed && clock() - viewedAt <= windowMs;
  const later = () => {
    if (soon) clearTimeout(soon);
    soon = setTimeout(() => {
      soon = undefined;
      run();
    }, delayMs);
    soon.unref();
  };
  const run = () => {
    if (!wanted()) return;
    if (busy()) later();
    else warm();
  };
  // Just after the next period boundary (the minute the plan's key moves to), while wanted.
  const armTurn = () => {
    if (turn || closed) return;
    turn = setTimeout(
      () => {
        turn = undefined;
        if (!wanted()) return;
        run();
        armTurn();
      },
      periodMs - (clock() % periodMs) + 20,
    );
    turn.unref();
  };
  return {
    viewed() {
      viewedAt = clock();
      armTurn();
    },
    changed() {
      if (wanted()) later();
    },
    close() {
      closed = true;
      if (soon) clearTimeout(soon);
      if (turn) clearTimeout(turn);
    },
  };
}
