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
// tsx turns Node's source maps on for the TypeScript it loads (all of it is loaded by now). Left
// on, every chunk of the build Next loads has its map read and parsed (20 MB of maps: 0.8 s of
// CPU over the start and the first pages, about 0.14 s of it in the first page;
// docs/performance-pages.md, "The first page after a start").
process.setSourceMapsEnabled(false);
startDashboard().catch((err) => {
  console.error(`memtrust: ${err?.message ? err.message : err}`);
  process.exit(1);
});
