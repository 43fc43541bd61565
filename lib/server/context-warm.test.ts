/**
 * When the server makes the Context X-ray's plan ahead (docs/session-context.md, "Made before
 * it is asked for"): only while the page was looked at lately, once per burst of changes,
 * and when the plan's minute turns. Real timers, shortened; the clock is injected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contextWarmer, type ContextWarmer } from './context-warm';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let w: ContextWarmer | undefined;
afterEach(() => w?.close());

function counted(opts: Parameters<typeof contextWarmer>[1]) {
  const runs = { n: 0 };
  w = contextWarmer(() => {
    runs.n++;
  }, opts);
  return { runs, w };
}

describe('contextWarmer', () => {
  it('does nothing for a page nobody looked at', async () => {
    const { runs, w } = counted({ delayMs: 5, periodMs: 30 });
    w.changed();
    w.changed();
    await sleep(80);
    expect(runs.n).toBe(0);
  });

  it('makes the plan once, shortly after a burst of changes', async () => {
    let now = 1_000_000;
    const { runs, w } = counted({ delayMs: 20, periodMs: 60_000, clock: () => now });
    w.viewed();
    w.changed();
    await sleep(5);
    w.changed();
    w.changed();
    expect(runs.n).toBe(0);
    await sleep(60);
    expect(runs.n).toBe(1);
    now += 1000;
    w.changed();
    await sleep(60);
    expect(runs.n).toBe(2);
  });

  it('stops once the page was last looked at longer ago than the window', async () => {
    let now = 1_000_000;
    const { runs, w } = counted({ delayMs: 5, windowMs: 1000, periodMs: 60_000, clock: () => now });
    w.viewed();
    now += 1001;
    w.changed();
    await sleep(40);
    expect(runs.n).toBe(0);
    w.viewed();
    w.changed();
    await sleep(40);
    expect(runs.n).toBe(1);
  });

  it('makes it again each time the period turns, while wanted', async () => {
    let now = 1_000_000;
    const { runs, w } = counted({ delayMs: 5, windowMs: 1000, periodMs: 40, clock: () => now });
    w.viewed();
    await sleep(150);
    const turned = runs.n;
    expect(turned).toBeGreaterThanOrEqual(2);
    now += 5000; // nobody looked since: the turns stop
    await sleep(150);
    expect(runs.n).toBeLessThanOrEqual(turned + 1);
    const stopped = runs.n;
    await sleep(150);
    expect(runs.n).toBe(stopped);
  });

  it('waits while a request is being answered', async () => {
    const now = 1_000_000;
    let inFlight = 1;
    const { runs, w } = counted({ delayMs: 5, periodMs: 60_000, clock: () => now, busy: () => inFlight > 0 });
    w.viewed();
    w.changed();
    await sleep(60);
    expect(runs.n).toBe(0);
    inFlight = 0;
    await sleep(40);
    expect(runs.n).toBe(1);
    await sleep(40);
    expect(runs.n).toBe(1);
  });

  it('close cancels what is pending', async () => {
    let now = 1_000_000;
    const { runs, w } = counted({ delayMs: 20, periodMs: 30, clock: () => now });
    w.viewed();
    w.changed();
    w.close();
    now += 1;
    await sleep(100);
    expect(runs.n).toBe(0);
  });
});
