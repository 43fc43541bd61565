/**
 * The demo root shown when no memory root is configured (docs/configuration.md): generated
 * once, deterministically, into the project's data folder, with a marker so the
 * UI can say it is demo data and so a user's real folder is never mistaken for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, writeCorpus, DEMO_N, DEMO_SEED } from '../../demo';

export const DEMO_MARKER = '.memtrust-demo.json';

export function isDemoRoot(root: string): boolean {
  return fs.existsSync(path.join(root, DEMO_MARKER));
}

export function ensureDemoRoot(root: string, now: Date): void {
  if (isDemoRoot(root)) return;
  // Write beside, then rename: a half-written demo root is never picked up.
  const tmp = `${root}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  writeCorpus(tmp, generateCorpus({ n: DEMO_N, seed: DEMO_SEED, now }));
  fs.writeFileSync(path.join(tmp, DEMO_MARKER), `${JSON.stringify({ generatedAt: now.toISOString(), n: DEMO_N })}\n`);
  fs.mkdirSync(path.dirname(root), { recursive: true });
  try {
    fs.renameSync(tmp, root);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    // Another process (CLI and dashboard starting together) won the race: fine.
    if (!isDemoRoot(root)) throw e;
  }
}
