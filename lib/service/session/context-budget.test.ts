/** contextBudget (docs/configuration.md): validated at both edges, kept beside the other settings. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettings, readSettings, writeSettings } from '../../core/settings';
import { saveContextBudget } from '../settings/settings-service';
import { contextBudgetSetting } from './session-context';

let tmp: string;
let env: Record<string, string>;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-budget-'));
  env = { XDG_CONFIG_HOME: tmp };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('contextBudget', () => {
  it.each([1000, 8000, 10000])('accepts %i', (n) => {
    expect(parseSettings({ contextBudget: n })).toEqual({
      ok: true,
      value: { roots: undefined, owner: undefined, contextBudget: n },
    });
  });

  it.each([999, 10001, 8000.5, '8000', null, -1])('refuses %j, naming the rule', (v) => {
    expect(parseSettings({ contextBudget: v })).toEqual({
      ok: false,
      message: '"contextBudget" must be a whole number of characters from 1000 to 10000',
    });
  });

  it('saving keeps roots and owner, and a refused value changes nothing on disk', () => {
    writeSettings({ roots: ['/data/memories'], owner: { emails: ['owner@example.com'] } }, env);
    const file = path.join(tmp, 'memtrust', 'settings.json');
    expect(saveContextBudget(4000, env)).toMatchObject({ ok: true });
    expect(readSettings(env)).toEqual({
      roots: ['/data/memories'],
      owner: { emails: ['owner@example.com'], githubHandle: undefined, homeUser: undefined },
      contextBudget: 4000,
    });
    const before = fs.readFileSync(file);
    expect(saveContextBudget(12000, env)).toEqual({
      ok: false,
      code: 'bad-budget',
      message: '"contextBudget" must be a whole number of characters from 1000 to 10000',
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('the hook reads it, and falls back to 8,000 (saying why) when the settings file is broken', () => {
    expect(contextBudgetSetting(env)).toEqual({ budget: 8000 });
    saveContextBudget(2500, env);
    expect(contextBudgetSetting(env)).toEqual({ budget: 2500 });
    fs.writeFileSync(path.join(tmp, 'memtrust', 'settings.json'), JSON.stringify({ contextBudget: 99999 }));
    const r = contextBudgetSetting(env);
    expect(r.budget).toBe(8000);
    expect(r.problem?.message).toContain(
      '"contextBudget" must be a whole number of characters from 1000 to 10000; using the default budget of 8000 characters',
    );
  });
});
