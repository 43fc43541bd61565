/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// lib/trust decides and never does: no disk, database, framework, environment or clock.
const SOURCES = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const BANNED = [
  /from ['"](node:)?(fs|path|os|child_process|crypto)(\/[a-z]+)?['"]/,
  /from ['"](next|react|better-sqlite3|drizzle-orm)(\/.*)?['"]/,
  /from ['"]@\/(db|lib\/service|lib\/sources)/,
  /process\.env/,
  /Date\.now\(/,
  /new Date\(\)/,
  /\bBuffer\b/,
];

describe('lib/trust is pure', () => {
  it.each(SOURCES)('%s', (file) => {
    const text = readFileSync(join(__dirname, file), 'utf8');
    for (const re of BANNED) expect(text, `${file} matches ${re}`).not.toMatch(re);
  });
});

describe('the barrel', () => {
  it('exposes the whole API once', async () => {
    const api = await import('./index');
    for (const name of [
      'TIERS',
      'ACTIONS',
      'MEMORY_ACTIONS',
      'TRANSITIONS',
      'FORBIDDEN',
      'decide',
      'actionFor',
      'allowedActions',
      'effectiveTier',
      'lifecycle',
      'describeLifecycle',
      'backfillPlan',
      'sessionContext',
      'hookJson',
      'applyIndexLimits',
      'sanitiseReason',
      'isoNow',
      'today',
      'parseTimestamp',
      'refuse',
      'REFUSAL_CODES',
    ]) {
      expect(api, name).toHaveProperty(name);
    }
  });
});
