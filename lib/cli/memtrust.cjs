#!/usr/bin/env node
'use strict';
// Launcher: runs the TypeScript CLI directly (tsx compiles and caches it), so the
// command works right after `npm ci` with no build step.
const path = require('node:path');
process.env.MEMTRUST_PROJECT_DIR ||= path.resolve(__dirname, '..', '..');
// `memtrust list | head` closes the pipe early: that is not an error.
process.stdout.on('error', (e) => {
  if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
require('tsx/cjs/api').register();
const { main } = require('./main.ts');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // Last resort: never a stack trace for the user (MEMTRUST_DEBUG=1 shows it).
    process.stderr.write(`memtrust: unexpected error: ${err && err.message ? err.message : String(err)}\n`);
    if (process.env.MEMTRUST_DEBUG) process.stderr.write(String(err && err.stack) + '\n');
    process.exitCode = 1;
  },
);
