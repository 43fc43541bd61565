import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { keepStartConfig, START_CONFIG_MAX_AGE_MS, takeStartConfig } from './start-config';

const config = loadConfig({ env: { MEMTRUST_ROOT: '/tmp/memtrust-start-config-root', MEMTRUST_DB: '/tmp/x.sqlite' } });

afterEach(() => {
  takeStartConfig();
});

describe('the start-up configuration handed to the first context', () => {
  it('is taken once while recent', () => {
    keepStartConfig(config, 1_000);
    expect(takeStartConfig(1_000 + START_CONFIG_MAX_AGE_MS - 1)).toBe(config);
    // The next context (a settings change) reads the disk.
    expect(takeStartConfig(1_001)).toBeUndefined();
  });

  it('is not taken once old, nor from the future, and not after that either', () => {
    keepStartConfig(config, 1_000);
    expect(takeStartConfig(1_000 + START_CONFIG_MAX_AGE_MS)).toBeUndefined();
    expect(takeStartConfig(1_000)).toBeUndefined();
    keepStartConfig(config, 5_000);
    expect(takeStartConfig(4_999)).toBeUndefined();
  });

  it('is nothing when start-up kept none (next dev, tests)', () => {
    expect(takeStartConfig()).toBeUndefined();
  });
});
