#!/usr/bin/env node
// `npm start`: build when needed, then serve the dashboard on
// http://127.0.0.1:$PORT (default 3000). Tests set MEMTRUST_NO_BUILD after building once.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildIfNeeded } from './build-if-needed.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.env.MEMTRUST_PROJECT_DIR ||= dir;
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.chdir(dir);
if (!process.env.MEMTRUST_NO_BUILD) buildIfNeeded(dir);

const require = createRequire(import.meta.url);
require('./external-aliases.cjs');
require('tsx/cjs/api').register();
const { startDashboard } = require('./main.ts');
startDashboard().catch((err) => {
  console.error(`memtrust: ${err?.message ? err.message : err}`);
  process.exit(1);
});
