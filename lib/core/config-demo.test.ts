/** The demo root lives in the data directory, never the install folder
 * (docs/configuration.md; docs/roots.md). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { projectDir } from './project';

describe('demo root location', () => {
  // The default root (~/.claude/claude-memory of the real home) would win over the demo.
  it.skipIf(fs.existsSync(path.join(os.homedir(), '.claude', 'claude-memory')))(
    'is <data dir>/memtrust/demo-root when nothing is configured, and flagged as demo',
    () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-cfg-'));
      try {
        const env = { HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'cfg') };
        const c = loadConfig({ env });
        expect(c.demo).toBe(true);
        expect(c.roots).toEqual([path.join(home, 'data', 'memtrust', 'demo-root')]);
        expect(c.roots[0]!.startsWith(projectDir())).toBe(false);
        // Loading the configuration creates nothing.
        expect(fs.readdirSync(home)).toEqual([]);
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
