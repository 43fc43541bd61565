/**
 * The configuration the server read at start-up, handed to its first service context
 * (docs/performance-pages.md, "The first page after a start").
 *
 * `npm start` reads the configuration before it listens (lib/server/main.ts: a broken one is
 * reported there), and the first request read it again: in a Claude Code home of 200
 * projects that is every project folder and a transcript head each, 0.2–0.3 s of the first
 * page. The first context takes the start-up reading instead when it is recent; any later
 * context (after a settings change) reads the disk as before. main.ts runs from the sources
 * and the pages from Next's build, two copies of this module, so the hand-over goes through
 * a global.
 */
import type { Config } from '../core/config';

/** Older than this, the start-up reading may miss a project created since: read again. */
export const START_CONFIG_MAX_AGE_MS = 60_000;

const g = globalThis as unknown as { __memtrustStartConfig?: { config: Config; at: number } };

/** At start-up: the configuration just read, for the first context. */
export function keepStartConfig(config: Config, at = Date.now()): void {
  g.__memtrustStartConfig = { config, at };
}

/** The start-up configuration, once, if it was read less than `maxAgeMs` ago; else undefined. */
export function takeStartConfig(now = Date.now(), maxAgeMs = START_CONFIG_MAX_AGE_MS): Config | undefined {
  const kept = g.__memtrustStartConfig;
  g.__memtrustStartConfig = undefined;
  return kept && now - kept.at >= 0 && now - kept.at < maxAgeMs ? kept.config : undefined;
}
