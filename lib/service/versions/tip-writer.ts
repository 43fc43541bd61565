/**
 * A session start's writer, as a process of its own (tip.test.ts runs several at once on one
 * pack): `node --import tsx tip-writer.ts DIR WHO N` keeps N rounds of a few files of `/r`
 * through the store's tip, each round a fresh store, as a SessionStart does.
 */
import crypto from 'node:crypto';
import { VersionStore } from './version-store';

const [dir, who, n] = process.argv.slice(2) as [string, string, string];
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
for (let i = 0; i < Number(n); i++) {
  // Paths of its own and two shared by every writer; bytes another writer may store too.
  const files = [`${who}-${i % 5}.md`, `shared-${i % 2}.md`].map((rel, k) => {
    const text = `${k === 0 ? who : 'shared'} round ${Math.floor(i / 2)}`;
    return { id: `s:${rel}`, rel, sha: sha(text), size: text.length, stored: Buffer.from(text), redacted: 0 };
  });
  const store = new VersionStore(dir);
  store.put('/r', `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, files, { stored: true });
  store.flush();
}
