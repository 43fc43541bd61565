/**
 * The kept session text made again after the assistant wrote into a memory root
 * (docs/session-context.md, "Made again after a write"). A memory the assistant writes changes
 * what the next session start of that project depends on, so that start would plan (a cold
 * plan of the largest project of a 200-project home costs about 190 ms, the kept text about
 * 115). The stamp (PostToolUse) therefore starts, detached, the same SessionStart command the
 * session start will run, once the file system's clock tick has passed (RACY_MS, text-cache.ts):
 * it plans and keeps, and the next session start answers from the kept text.
 *
 * Only a project whose text is kept already is made again (the command, in refresh mode, stops
 * when there is no entry for it), and only the last of a burst of writes runs it: each write
 * leaves its own token in a marker, and a refresher whose token was replaced stops.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDirOf, REFRESH_VAR, racyMsOf, textCacheOn } from './text-cache';

/** What the refresher waits beyond the racy window: the stamp's own write is the last one. */
const MARGIN_MS = 500;

/**
 * The refresher: waits, then runs the SessionStart command when its token is still the marker's,
 * its stdout discarded. Plain JavaScript passed to `node -e`; its inputs are arguments.
 */
const REFRESHER = `
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const [marker, token, wait, input, ...cmd] = process.argv.slice(1);
setTimeout(() => {
  try { if (fs.readFileSync(marker, 'utf8') !== token) return; } catch { return; }
  spawnSync(process.execPath, cmd, {
    input, stdio: ['pipe', 'ignore', 'ignore'], timeout: 60000,
    env: { ...process.env, ${REFRESH_VAR}: '1' },
  });
  try { if (fs.readFileSync(marker, 'utf8') === token) fs.rmSync(marker); } catch {}
}, Number(wait));
`;

/**
 * Starts the refresher for the session in `cwd` after a write into one of its roots.
 * `command`: the SessionStart hook's script and arguments, run with this Node.js. Never throws:
 * a refresher that cannot start leaves the next session start to plan, as before.
 */
export function refreshSessionText(
  env: NodeJS.ProcessEnv,
  command: readonly string[],
  cwd: string | undefined,
  sessionId: string | undefined,
): void {
  if (!textCacheOn(env) || env[REFRESH_VAR] === 'off') return;
  try {
    const dir = path.join(cacheDirOf(env), 'session-text');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const where = cwd || process.cwd();
    const name = crypto
      .createHash('sha256')
      .update(JSON.stringify([where, command]))
      .digest('hex')
      .slice(0, 16);
    const marker = path.join(dir, `refresh-${name}.pending`);
    const token = crypto.randomBytes(8).toString('hex');
    fs.writeFileSync(marker, token, { mode: 0o600 });
    const input = JSON.stringify({
      ...(sessionId ? { session_id: sessionId } : {}),
      cwd: where,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const wait = String(racyMsOf(env) + MARGIN_MS);
    const child = spawn(process.execPath, ['-e', REFRESHER, marker, token, wait, input, ...command], {
      cwd: where,
      detached: true,
      stdio: 'ignore',
      env,
    });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no data folder, no spawn: the next session start plans
  }
}
