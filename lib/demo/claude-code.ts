/**
 * A Claude Code auto-memory folder (docs/layouts.md): flat `*.md` files with
 * name/description/type plus the real-world extra keys (`originSessionId`,
 * `modified`), mostly without trust fields, and a `MEMORY.md` index with one line
 * per memory — except one or two files deliberately left out ("not loaded").
 */
import { type Corpus, type CorpusFile, uniqueNamer } from './corpus';
import { chance, mixSeed, mulberry32, pick, seedToInt, shuffle, uuid } from './prng';
import { type FmValue, daysAgo, isoDate, isoSec, render } from './render';
import { makeTopic, pickType } from './vocab';

export interface ClaudeCodeOptions {
  n: number;
  seed: number | string;
  now: Date;
}

export interface ClaudeCodeFolder extends Corpus {
  /** Filenames present on disk but missing from MEMORY.md. */
  unindexed: string[];
}

export function generateClaudeCodeFolder(opts: ClaudeCodeOptions): ClaudeCodeFolder {
  const { n, now } = opts;
  if (!Number.isInteger(n) || n < 0) throw new Error(`n must be a non-negative integer, got ${n}`);
  const seed = seedToInt(opts.seed);
  const name = uniqueNamer();
  const sessions = Array.from({ length: Math.max(1, Math.ceil(n / 4)) }, (_, k) =>
    uuid(mulberry32(mixSeed(seed, k, 0x5e55))),
  );

  const files: CorpusFile[] = [];
  const index: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = mulberry32(mixSeed(seed, i, 0xc1a0));
    const type = pickType(r);
    const t = makeTopic(r, type);
    const filename = `${name(`${type}_${t.slug}`)}.md`;
    const created = daysAgo(now, 1 + r() * 240);
    const modified = chance(r, 0.5) ? daysAgo(now, r() * ((now.getTime() - created.getTime()) / 86_400_000)) : null;
    const fm: [string, FmValue][] = [
      ['name', t.name],
      ['description', t.description],
      ['type', type],
    ];
    if (chance(r, 0.8)) fm.push(['originSessionId', pick(r, sessions)]);
    if (modified) fm.push(['modified', { raw: isoSec(modified) }]);
    // A few files were already touched by a trust-aware tool.
    if (i % 10 === 7) {
      const tier = type === 'reference' ? 'inferred' : 'verified';
      fm.push(['created-at', { raw: isoSec(created) }], ['trust-level', tier]);
      if (tier === 'verified') fm.push(['last-verified', { raw: isoDate(modified ?? created) }]);
    }
    const body = ['', t.text];
    if (t.why && t.how) body.push('', `**Why:** ${t.why}`, '', `**How to apply:** ${t.how}`);
    files.push({ relPath: filename, content: render({ fm, body }), mtime: modified ?? created });
    index.push(`- [${t.name}](${filename}) — ${t.hook}`);
  }

  const skipCount = n >= 20 ? 2 : n >= 2 ? 1 : 0;
  const order = shuffle(
    mulberry32(mixSeed(seed, 0x5c1b)),
    files.map((_, i) => i),
  );
  const skip = new Set(order.slice(0, skipCount));
  const unindexed = files
    .filter((_, i) => skip.has(i))
    .map((f) => f.relPath)
    .sort();
  const lines = index.filter((_, i) => !skip.has(i));
  const latest = files.reduce((m, f) => Math.max(m, f.mtime.getTime()), 0);
  if (n > 0) {
    files.push({
      relPath: 'MEMORY.md',
      content: Buffer.from(`${lines.join('\n')}\n`, 'utf8'),
      mtime: new Date(latest),
    });
  }
  return { files, auditLines: [], unindexed };
}
