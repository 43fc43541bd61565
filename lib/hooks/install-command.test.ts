/**
 * Which command `memtrust hook install` writes (docs/install.md, "The package"): from an
 * installed package, the installed bin it was started through; from a clone, the clone's
 * launcher (docs/hooks.md, "Installing").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memtrustCommand } from '../service/session/hook-install';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-command-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function launcherIn(dir: string): string {
  const f = path.join(dir, 'lib', 'cli', 'memtrust.cjs');
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, '');
  return f;
}

describe('memtrustCommand', () => {
  it('an installed package started through its bin: the bin, by absolute path', () => {
    const pkg = path.join(tmp, 'prefix', 'lib', 'node_modules', 'memtrust');
    const launcher = launcherIn(pkg);
    const bin = path.join(tmp, 'prefix', 'bin', 'memtrust');
    fs.mkdirSync(path.dirname(bin));
    fs.symlinkSync(path.relative(path.dirname(bin), launcher), bin);
    expect(memtrustCommand(pkg, bin)).toBe(bin);
  });

  it('an installed package started by its launcher path, or through a link elsewhere: the package launcher', () => {
    const pkg = path.join(tmp, 'prefix', 'lib', 'node_modules', 'memtrust');
    const launcher = launcherIn(pkg);
    expect(memtrustCommand(pkg, launcher)).toBe(launcher);
    const other = launcherIn(path.join(tmp, 'clone'));
    const stray = path.join(tmp, 'bin', 'memtrust');
    fs.mkdirSync(path.dirname(stray));
    fs.symlinkSync(other, stray);
    expect(memtrustCommand(pkg, stray)).toBe(launcher);
  });

  it('a clone, even run through node_modules/.bin: the clone launcher', () => {
    const clone = path.join(tmp, 'clone');
    const launcher = launcherIn(clone);
    const bin = path.join(clone, 'node_modules', '.bin', 'memtrust');
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.symlinkSync(launcher, bin);
    expect(memtrustCommand(clone, bin)).toBe(launcher);
  });
});
