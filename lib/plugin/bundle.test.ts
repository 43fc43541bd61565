/**
 * The committed hook bundles (dist/hooks/*.cjs, docs/install.md): the same bytes a fresh
 * `npm run build:hooks` gives, no native module or package loaded at run time, and the
 * three hook commands of hooks/hooks.json answering as the CLI does, from this checkout.
 * (plugin-install.test.ts does the same on a copy installed with `npm ci --ignore-scripts`.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../service/test-support';
// @ts-expect-error: a plain ES module of the build tooling, without type declarations
import { BUNDLE_FILES, buildHooks } from '../tools/build-hooks.mjs';
import { driveHooks, type Drive } from './test-drive-hooks';
import { expectPluginAnswers } from './test-answers';

describe('dist/hooks: the committed bundles', () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-bundle-'));
    await buildHooks(fresh);
  });
  afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

  it('equal a fresh build of lib/plugin/*.ts (run `npm run build:hooks` and commit when this fails)', () => {
    for (const name of BUNDLE_FILES as string[]) {
      const committed = path.join(PROJECT, 'dist', 'hooks', `${name}.cjs`);
      expect(fs.existsSync(committed), `${committed} is missing: npm run build:hooks`).toBe(true);
      const same = fs.readFileSync(committed).equals(fs.readFileSync(path.join(fresh, `${name}.cjs`)));
      expect(same, `dist/hooks/${name}.cjs is stale: run npm run build:hooks and commit it`).toBe(true);
    }
  });

  it('require only Node built-ins: no better-sqlite3, no package from node_modules', () => {
    // A bundle may require another file of the build beside it (the guard's second file).
    const sibling = (r: string) => (BUNDLE_FILES as string[]).some((n) => r === `./${n}.cjs`);
    for (const name of BUNDLE_FILES as string[]) {
      const text = fs.readFileSync(path.join(PROJECT, 'dist', 'hooks', `${name}.cjs`), 'utf8');
      const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
      const outside = required.filter((r) => !r.startsWith('node:') && !builtinModules.includes(r) && !sibling(r));
      expect(outside, name).toEqual([]);
      expect(text).not.toMatch(/require\("better-sqlite3"\)/);
    }
  });
});

describe('hooks/hooks.json from this checkout', () => {
  let d: Drive;
  beforeAll(() => {
    d = driveHooks(PROJECT, fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-plugin-')));
  });
  afterAll(() => fs.rmSync(d.tmp, { recursive: true, force: true }));

  it('deny a password, stamp a new memory inferred with its audit event, give the session text; no index', () => {
    const { preWriteMs, nodeMs } = expectPluginAnswers(d);
    console.log(
      `plugin pre-write (outside the roots), ms: ${preWriteMs.map((m) => m.toFixed(0)).join(', ')}; node -e 0: ${nodeMs.map((m) => m.toFixed(0)).join(', ')}`,
    );
  });
});
