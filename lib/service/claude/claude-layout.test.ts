/**
 * Issue #3 item 7.1, Claude Code layout (flat folder + MEMORY.md): demote
 * removes the memory's index line, restore puts it back at the same position.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transition } from '../write/transition';
import { scan } from '../index/scan-service';
import { generateClaudeCodeFolder, mulberry32, seedToInt, writeCorpus } from '../../demo';
import { shuffle } from '../../demo/prng';
import {
  MACHINE,
  NOW,
  TODAY,
  fieldsOf,
  memoryFile,
  openCtx,
  put,
  readAudit,
  sha,
  splitMemory,
  sandboxPerTest,
} from '../test-support';

const body = (topic: string) =>
  `\nPrefer ${topic} for this project because the team agreed on it in review.\n\n**Why:** consistency.\n\n**How to apply:** use ${topic} in new code.\n`;
const INDEX = [
  '# Memory index',
  '',
  '- [Tabs](feedback_tabs.md) — indentation',
  '- [Pnpm](feedback_pnpm.md) — package manager',
  '- [Vitest](feedback_vitest.md) — test runner',
  '',
  'Notes kept by hand below the list.',
  '',
].join('\n');

const sb = sandboxPerTest({ beforeEach, afterEach });

describe('Claude Code memory folder', () => {
  it('demote removes the index line and moves to quarantine/; restore puts it back at the same position', () => {
    for (const t of ['tabs', 'pnpm', 'vitest']) {
      put(
        sb.root,
        `feedback_${t}.md`,
        memoryFile(
          [
            ['name', t],
            ['description', `use ${t}`],
            ['type', 'feedback'],
            ['originSessionId', 'abc-123'],
          ],
          body(t),
        ),
      );
    }
    put(sb.root, 'MEMORY.md', INDEX);
    const original = fs.readFileSync(path.join(sb.root, 'feedback_pnpm.md'));
    // Age is never reset (docs/trust-model.md): the first rewrite writes the mtime shown as created.
    const mtime = new Date('2026-03-04T05:06:07Z');
    fs.utimesSync(path.join(sb.root, 'feedback_pnpm.md'), mtime, mtime);
    const created = '2026-03-04T05:06:07Z';
    const ctx = openCtx(sb);
    expect(ctx.sources[0]!.kind).toBe('claude-code');

    const d = transition(ctx, {
      ref: 'feedback_pnpm.md',
      action: 'demote',
      reason: 'we moved to npm',
      actor: 'user:web',
      opId: 'cc-demote',
    });
    expect(d).toMatchObject({
      ok: true,
      from: 'inferred',
      to: 'quarantined',
      path: path.join(sb.root, 'quarantine', 'feedback_pnpm.md'),
    });
    expect(fs.existsSync(path.join(sb.root, 'feedback_pnpm.md'))).toBe(false);
    const q = fs.readFileSync(path.join(sb.root, 'quarantine', 'feedback_pnpm.md'));
    expect(fieldsOf(q)).toEqual({
      ...fieldsOf(original),
      'created-at': created,
      'trust-level': 'quarantined',
      'last-verified': TODAY,
      'quarantined-at': NOW,
      'quarantined-by': MACHINE,
      'quarantine-reason': 'we moved to npm',
    });
    expect(splitMemory(q).body.equals(splitMemory(original).body)).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(
      INDEX.replace('- [Pnpm](feedback_pnpm.md) — package manager\n', ''),
    );
    expect(
      ctx.handle.sqlite
        .prepare("SELECT rel_path, location, tier FROM entries WHERE filename = 'feedback_pnpm.md'")
        .all(),
    ).toEqual([{ rel_path: 'quarantine/feedback_pnpm.md', location: 'quarantine', tier: 'quarantined' }]);

    // A rescan re-detects the layout: the folder's own quarantine/ must not turn it into a trust-model root.
    scan(ctx);
    expect(ctx.sources[0]!.kind).toBe('claude-code');
    expect(ctx.handle.sqlite.prepare('SELECT rel_path, location FROM entries ORDER BY rel_path').all()).toEqual([
      { rel_path: 'feedback_tabs.md', location: 'memories' },
      { rel_path: 'feedback_vitest.md', location: 'memories' },
      { rel_path: 'quarantine/feedback_pnpm.md', location: 'quarantine' },
    ]);

    const r = transition(ctx, { ref: 'feedback_pnpm.md', action: 'restore', actor: 'user:web', opId: 'cc-restore' });
    expect(r).toMatchObject({
      ok: true,
      from: 'quarantined',
      to: 'verified',
      path: path.join(sb.root, 'feedback_pnpm.md'),
    });
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(INDEX);
    const back = fs.readFileSync(path.join(sb.root, 'feedback_pnpm.md'));
    expect(fieldsOf(back)).toEqual({
      ...fieldsOf(original),
      'created-at': created,
      'trust-level': 'verified',
      'last-verified': TODAY,
    });
    expect(splitMemory(back).body.equals(splitMemory(original).body)).toBe(true);
    expect(fs.readdirSync(path.join(sb.root, 'quarantine'))).toEqual([]);

    const events = readAudit(sb.root);
    expect(events.map((e) => [e.id, e.action, e.from, e.to, e.memory])).toEqual([
      ['cc-demote', 'demote', 'inferred', 'quarantined', 'feedback_pnpm.md'],
      ['cc-restore', 'restore', 'quarantined', 'verified', 'feedback_pnpm.md'],
    ]);
    expect(events[0]!.before_sha256).toBe(sha(original));
    expect(events[1]!.after_sha256).toBe(sha(back));
    expect(
      ctx.handle.sqlite
        .prepare("SELECT rel_path, location, tier, indexed FROM entries WHERE filename = 'feedback_pnpm.md'")
        .all(),
    ).toEqual([{ rel_path: 'feedback_pnpm.md', location: 'memories', tier: 'verified', indexed: 1 }]);
  });

  it('two neighbours demoted, then restored in the same order: every line back where it was', () => {
    for (const t of ['tabs', 'pnpm', 'vitest']) {
      put(
        sb.root,
        `feedback_${t}.md`,
        memoryFile(
          [
            ['name', t],
            ['description', `use ${t}`],
            ['type', 'feedback'],
          ],
          body(t),
        ),
      );
    }
    put(sb.root, 'MEMORY.md', INDEX);
    const ctx = openCtx(sb);
    for (const f of ['feedback_tabs.md', 'feedback_pnpm.md'])
      expect(transition(ctx, { ref: f, action: 'demote', reason: 'x', actor: 'user:web' }).ok).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(INDEX.replace(/- \[(Tabs|Pnpm)\].*\n/g, ''));
    for (const f of ['feedback_tabs.md', 'feedback_pnpm.md'])
      expect(transition(ctx, { ref: f, action: 'restore', actor: 'user:web' }).ok).toBe(true);
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toBe(INDEX);
  });

  it('a line added to MEMORY.md while two memories are out stays; both come back between their old neighbours', () => {
    for (const t of ['tabs', 'pnpm', 'vitest']) {
      put(
        sb.root,
        `feedback_${t}.md`,
        memoryFile(
          [
            ['name', t],
            ['description', `use ${t}`],
            ['type', 'feedback'],
          ],
          body(t),
        ),
      );
    }
    put(sb.root, 'MEMORY.md', INDEX);
    const ctx = openCtx(sb);
    for (const f of ['feedback_pnpm.md', 'feedback_tabs.md'])
      expect(transition(ctx, { ref: f, action: 'demote', reason: 'x', actor: 'user:web' }).ok).toBe(true);
    // The assistant writes a new memory and its index line meanwhile.
    const added = '- [Eslint](feedback_eslint.md) — linter';
    const idx = path.join(sb.root, 'MEMORY.md');
    fs.writeFileSync(idx, fs.readFileSync(idx, 'utf8').replace('- [Vitest]', `${added}\n- [Vitest]`));
    for (const f of ['feedback_pnpm.md', 'feedback_tabs.md'])
      expect(transition(ctx, { ref: f, action: 'restore', actor: 'user:web' }).ok).toBe(true);
    expect(fs.readFileSync(idx, 'utf8')).toBe(INDEX.replace('- [Vitest]', `${added}\n- [Vitest]`));
  });

  it('a generated folder: all indexed memories demoted in one random order and restored in another leave MEMORY.md byte-identical', () => {
    const folder = generateClaudeCodeFolder({ n: 12, seed: 'cc-roundtrip', now: new Date(NOW) });
    writeCorpus(sb.root, folder);
    const indexPath = path.join(sb.root, 'MEMORY.md');
    const index = fs.readFileSync(indexPath);
    const ctx = openCtx(sb);
    const names = folder.files.map((f) => f.relPath).filter((f) => f !== 'MEMORY.md' && !folder.unindexed.includes(f));
    expect(names.length).toBeGreaterThan(5);
    const rnd = mulberry32(seedToInt('cc-roundtrip'));
    for (const f of shuffle(rnd, [...names])) {
      const d = transition(ctx, { ref: f, action: 'demote', reason: 'round trip', actor: 'user:cli' });
      expect(d.ok, `${f}: ${'message' in d ? d.message : ''}`).toBe(true);
      expect(fs.readFileSync(indexPath, 'utf8')).not.toContain(`](${f})`);
    }
    for (const f of shuffle(rnd, [...names])) {
      const r = transition(ctx, { ref: f, action: 'restore', actor: 'user:cli' });
      expect(r.ok, `${f}: ${'message' in r ? r.message : ''}`).toBe(true);
    }
    expect(fs.readFileSync(indexPath, 'utf8')).toBe(index.toString('utf8'));
    expect(readAudit(sb.root)).toHaveLength(names.length * 2);
  });
});
