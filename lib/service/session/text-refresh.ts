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
 * when there is no entry for it), and a burst of writes starts one refresher: the marker holds
 * the running refresher's pid, a later write only touches it, and the refresher waits until the
 * marker has been still for its whole delay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cacheDirOf, REFRESH_VAR, racyMsOf, textCacheOn } from './text-cache';

/** What the refresher waits beyond the racy window: the stamp's own write is the last one. */
const MARGIN_MS = 500;
/** A marker untouched this long belongs to no live refresher (its pid may have been reused). */
const STALE_MS = 5 * 60_000;

/**
 * The refresher, started after `wait` ms: waits until the marker (which must still name it)
 * has been still for `wait` ms, runs the SessionStart command with its stdout discarded, and
 * starts over if the marker was touched meanwhile. Plain JavaScript passed to `node -e`; its
 * inputs are arguments.
 */
const REFRESHER = `
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const [marker, wait, input, ...cmd] = process.argv.slice(1);
const me = String(process.pid);
const mine = () => { try { return fs.readFileSync(marker, 'utf8') === me ? fs.statSync(marker).mtimeMs : null; } catch { return null; } };
const tick = () => {
  const at = mine();
  if (at === null) return;
  const due = at + Number(wait) - Date.now();
  if (due > 0) return void setTimeout(tick, due);
  spawnSync(process.execPath, cmd, {
    input, stdio: ['pipe', 'ignore', 'ignore'], timeout: 60000,
    env: { ...process.env, ${REFRESH_VAR}: '1' },
  });
  if (mine() === at) { try { fs.rmSync(marker); } catch {} } else setTimeout(tick, 0);
};
setTimeout(tick, 0);
`;

/** FNV-1a of `s`, as hex: a file name, not a secret (node:crypto costs the stamp a few ms to load). */
function nameOf(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The pid in the marker, when that refresher still runs. */
function liveRefresher(marker: string): number | null {
  try {
    if (Date.now() - fs.statSync(marker).mtimeMs > STALE_MS) return null;
    const pid = Number(fs.readFileSync(marker, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * Makes the kept text of the session in `cwd` again after a write into one of its roots.
 * `command`: the SessionStart hook's script and arguments, run with this Node.js. Never throws:
 * a refresher that cannot start leaves the next session start to plan, as before.
 */
export async function refreshSessionText(
  env: NodeJS.ProcessEnv,
  command: readonly string[],
  cwd: string | undefined,
  sessionId: string | undefined,
): Promise<void> {
  if (!textCacheOn(env) || env[REFRESH_VAR] === 'off') return;
  try {
    const dir = path.join(cacheDirOf(env), 'session-text');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const where = cwd || process.cwd();
    const marker = path.join(dir, `refresh-${nameOf(JSON.stringify([where, command]))}.pending`);
    const running = liveRefresher(marker);
    if (running !== null) {
      // Touched: the running refresher waits its delay again from now.
      fs.writeFileSync(marker, String(running), { mode: 0o600 });
      return;
    }
    const input = JSON.stringify({
      ...(sessionId ? { session_id: sessionId } : {}),
      cwd: where,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const wait = String(racyMsOf(env) + MARGIN_MS);
    // Loaded only here: a write in a burst, or outside the roots, never pays for it.
    const { spawn } = await import('node:child_process');
    const node = [process.execPath, '-e', REFRESHER, marker, wait, input, ...command];
    // Node.js starts only after the delay, through `sleep`: started at once, its start-up took
    // the CPU the stamp was still using (docs/session-context.md, "Made again after a write").
    // Without a `sleep` it starts at once, and its own wait still holds.
    const [file, ...args] =
      process.platform === 'win32'
        ? node
        : ['/bin/sh', '-c', 'sleep "$0"; exec "$@"', String(Number(wait) / 1000), ...node];
    const child = spawn(file!, args, {
      cwd: where,
      detached: true,
      stdio: 'ignore',
      env,
    });
    child.on('error', () => {});
    child.unref();
    if (child.pid) fs.writeFileSync(marker, String(child.pid), { mode: 0o600 });
  } catch {
    // no data folder, no spawn: the next session start plans
  }
}
