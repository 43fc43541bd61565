/**
 * The copies beside the undo copies (docs/batches.md "Copies that held a removed credential";
 * CONTRACT §2.5): the MEMORY.md lines a demotion put aside and the copies of record batches
 * keep no credential value the user removed, and undo of such a record batch is refused with
 * the reason. A password in prose (not only a token's shape) counts. Made-up values only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerForTests } from '@/lib/sources/registry';
import { loadConfig } from '../../core/config';
import { createContext, type ServiceContext } from '../context';
import { scan } from '../index/scan-service';
import { transitionAsBatch as transition } from '../write/transition-batch';
import { applyRecordActions } from '../records/apply';
import { testLinesAdapter } from '../records/test-adapter';
import { batchesHome, readManifest } from './batch-store';
import { undoBatch } from './undo';
import { put, removeSandbox, sandbox, type Sandbox } from '../test-support';

const VALUE = 'Qv7-mirth-2048z';
let sb: Sandbox | null = null;
afterEach(() => {
  if (sb) removeSandbox(sb);
  sb = null;
});

function open(s: Sandbox): ServiceContext {
  const ctx = createContext(loadConfig({ env: s.env }), s.env);
  scan(ctx);
  return ctx;
}

/** Every file under `dir` whose bytes hold `needle`, but `skip`. */
function filesHolding(dir: string, needle: string, skip: (p: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile() && !skip(p) && fs.readFileSync(p).includes(Buffer.from(needle))) out.push(p);
  }
  return out;
}

const fm = (name: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: reference\n---\n`;

describe('MEMORY.md lines put aside', () => {
  it('a line holding a password the memory no longer holds leaves the stash and the layout; a clean line stays', () => {
    sb = sandbox('memtrust-purge-stash-');
    put(sb.root, 'reference_nas.md', `${fm('NAS')}\nThe NAS admin password: ${VALUE} (rotate it yearly).\n`);
    put(sb.root, 'reference_tests.md', `${fm('Tests')}\nRun the tests before merging.\n`);
    put(
      sb.root,
      'MEMORY.md',
      `# Memory\n\n- [NAS](reference_nas.md) — admin password: ${VALUE}\n- [Tests](reference_tests.md) — run them first\n`,
    );
    const ctx = open(sb);
    for (const ref of ['reference_nas.md', 'reference_tests.md'])
      expect(transition(ctx, { ref, action: 'demote', reason: 'old', actor: 'user:cli' })).toMatchObject({ ok: true });
    const stash = path.join(sb.root, '.memtrust', 'index-lines.json');
    const layout = path.join(sb.root, '.memtrust', 'index-layout.json');
    expect(fs.readFileSync(stash, 'utf8')).toContain(VALUE);
    // Still in the memory: the line stays put aside, so a restore puts it back.
    scan(ctx);
    expect(fs.readFileSync(stash, 'utf8')).toContain(VALUE);
    // The password removed from the memory by hand: at the next scan no file memtrust owns holds it.
    const file = path.join(sb.root, 'quarantine', 'reference_nas.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(VALUE, '(in the vault)'));
    scan(ctx);
    expect(filesHolding(sb.tmp, VALUE)).toEqual([]);
    const kept = JSON.parse(fs.readFileSync(stash, 'utf8')) as Record<string, { line: string }>;
    expect(Object.keys(kept)).toEqual(['reference_tests.md']);
    expect(fs.readFileSync(layout, 'utf8')).toContain('reference_tests.md');
    // Restore writes a fresh line for it.
    expect(
      transition(ctx, { ref: 'reference_nas.md', action: 'restore', reason: 'fixed', actor: 'user:cli' }),
    ).toMatchObject({ ok: true });
    expect(fs.readFileSync(path.join(sb.root, 'MEMORY.md'), 'utf8')).toMatch(/\[NAS\]\(reference_nas\.md\)/);
  });
});

describe('record batches', () => {
  let unregister: () => void = () => {};
  beforeAll(() => {
    unregister = registerForTests(testLinesAdapter);
  });
  afterAll(() => unregister());

  it('copies holding a password removed from the store by hand are purged at the next scan; undo says why', () => {
    sb = sandbox('memtrust-purge-records-');
    const store = 'team.memory.jsonl';
    put(
      sb.root,
      store,
      `${[
        `{"id":"nas","status":"active","text":"NAS admin password: ${VALUE} for the backups."}`,
        '{"id":"owner","status":"active","text":"The on-call owner is the platform team."}',
        '{"id":"docs","status":"active","text":"Docs live in the wiki."}',
      ].join('\n')}\n`,
    );
    const ctx = open(sb);
    const nas = applyRecordActions(ctx, [{ id: 'nas', action: 'demote', reason: 'old' }], { actor: 'user:cli' });
    const docs = applyRecordActions(ctx, [{ id: 'docs', action: 'demote', reason: 'old' }], { actor: 'user:cli' });
    if (!nas.ok || !docs.ok) throw new Error('record demote failed');
    scan(ctx);
    expect(readManifest(sb.root, nas.batch)!.purged).toBeUndefined();
    expect(filesHolding(batchesHome(sb.root), VALUE).length).toBeGreaterThan(0);
    const file = path.join(sb.root, store);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(VALUE, '(in the vault)'));
    scan(ctx);
    expect(filesHolding(sb.tmp, VALUE)).toEqual([]);
    // The file before and after the batch: both held it (and so did the later batch's, over the same file).
    const purged = readManifest(sb.root, nas.batch)!.purged!;
    expect(purged.map((p) => [p.memory, p.why])).toEqual([
      [store, 'credential-removed'],
      [store, 'credential-removed'],
    ]);
    expect(readManifest(sb.root, docs.batch)!.purged).toHaveLength(2);
    const u = undoBatch(ctx, nas.batch, 'user:cli');
    expect(u).toMatchObject({ ok: false, code: 'purged' });
    expect(u.ok ? '' : u.message).toContain('held a credential that was removed from the memory; it was purged');
  });
});
