/** Helpers for the governed adapter's tests: temp projects and byte-level fingerprints. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function tmpProject(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-governed-test-'));
}

/**
 * Every file in `dir` (not recursive) with its sha256, size and mtime in ns: two equal
 * fingerprints mean nothing was written, created or removed there.
 */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const st = fs.statSync(p, { bigint: true });
    if (!st.isFile()) {
      out[name] = `dir mtime=${st.mtimeNs}`;
      continue;
    }
    const sha = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    out[name] = `${sha} size=${st.size} mtime=${st.mtimeNs}`;
  }
  return out;
}
