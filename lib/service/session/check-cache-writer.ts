/**
 * Session starts as a process of their own (check-cache-log.test.ts runs several at once on one
 * kept-checks file): `node --import tsx check-cache-writer.ts DATA WHO N` — N session starts,
 * each looking up every file of the root and putting one of its own ten files with a new mtime.
 */
import { openCheckCache } from './check-cache';

const [dataDir, who, n] = process.argv.slice(2) as [string, string, string];
const owner = { emails: ['owner@example.com'], homeUser: 'owner' };
const entry = (size: number, mtimeMs: number) => ({
  size,
  mtimeMs,
  name: `n${size}`,
  credentialLines: size % 3 === 0 ? [size % 7] : [],
  injection: false,
});
/** What any writer may have put for file i: the test's first entry, or a writer's at round j. */
const candidates = (i: number) => [
  entry(100 + i, 1000),
  ...Array.from({ length: 20 }, (_, j) => entry(300 + i, 9000 + j)),
];
for (let j = 0; j < Number(n); j++) {
  const cache = openCheckCache(dataDir, owner)!;
  const r = cache.root('src', '/root');
  const mine = Number(who) * 10 + (j % 10);
  for (let i = 0; i < 50; i++) {
    if (i === mine) r.put(`m${i}.md`, entry(300 + i, 9000 + j));
    else for (const c of candidates(i)) if (r.file(`m${i}.md`, c.size, c.mtimeMs)) break;
  }
  cache.save();
}
