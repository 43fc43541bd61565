/**
 * Playwright fixtures: each test gets its own temp memory root (a generated
 * corpus unless the test writes its own files), database and settings, and a
 * real production server on a free port.
 */
import { test as base, expect } from '@playwright/test';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus } from '../lib/demo';
import { startServer, tempDir, type RunningServer } from './server';

export const NOW = '2026-11-22T12:00:00Z';

export interface MemtrustFixtures {
  /** Files to write into the root before the server starts; default: a generated 60-memory corpus. */
  rootFiles: Record<string, string | Buffer> | 'corpus';
  /** Its `setup` runs on the root after the files are written, before the server starts (a store that is not plain files: a SQLite database). */
  rootSetup: { setup(root: string): void } | null;
  server: RunningServer;
}

export const test = base.extend<MemtrustFixtures>({
  rootFiles: ['corpus', { option: true }],
  rootSetup: [null, { option: true }],
  server: async ({ rootFiles, rootSetup }, use, testInfo) => {
    const dir = tempDir();
    const root = path.join(dir, 'root');
    if (rootFiles === 'corpus') {
      writeCorpus(root, generateCorpus({ n: 60, seed: 7, now: new Date(NOW), ownerEmail: 'owner@example.com' }));
    } else {
      for (const [rel, content] of Object.entries(rootFiles)) {
        const abs = path.join(root, rel);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, content);
      }
    }
    if (rootSetup) {
      fs.mkdirSync(root, { recursive: true });
      rootSetup.setup(root);
    }
    const server = await startServer({ root, dir, now: NOW });
    await use(server);
    await server.stop();
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('server-log', { body: server.log(), contentType: 'text/plain' });
    fs.rmSync(dir, { recursive: true, force: true });
  },
  baseURL: async ({ server }, use) => use(server.baseURL),
});

export { expect };

export function shot(name: string): string {
  const dir = path.join(__dirname, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

/** sha256 of every file under the root, outside memtrust's own `.memtrust/` (byte-identical checks after Undo). */
export function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === '.memtrust') continue;
      if (e.isDirectory()) walk(r);
      else
        out[r] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(root, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}
