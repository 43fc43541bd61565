// Builds the dashboard when `.next/BUILD_ID` is missing or older than any source.
// Shared by `npm start` and the e2e global setup.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const SOURCES = [
  'app',
  'components',
  'lib',
  'db',
  'public',
  'next.config.ts',
  'postcss.config.mjs',
  'package-lock.json',
];

function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of fs.readdirSync(p)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    max = Math.max(max, newestMtime(path.join(p, name)));
  }
  return max;
}

export function buildIfNeeded(dir) {
  const buildId = path.join(dir, '.next', 'BUILD_ID');
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((p) => newestMtime(path.join(dir, p))));
  if (built && sources <= built && !process.env.MEMTRUST_FORCE_BUILD) return;
  console.log('memtrust: building the dashboard (first run or sources changed)…');
  const r = spawnSync(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    stdio: 'inherit',
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (r.status !== 0) {
    console.error('memtrust: the dashboard build failed (see above).');
    process.exit(r.status ?? 1);
  }
}
