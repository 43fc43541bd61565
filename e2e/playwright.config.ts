import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's chromium where it exists (CI and dev machines here); Playwright's own browser elsewhere.
const executablePath = fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  // Each test starts its own server with its own root, SQLite file and settings, so spec
  // files can run side by side: two workers for the 2 cores (docs/tooling.md, "What npm test
  // runs"). Tests within a file still run in order, in one worker.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1280, height: 900 },
    trace: 'off',
  },
});
