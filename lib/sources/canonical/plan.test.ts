import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyEdits, invertEdits, plan, replaceLines, EditConflict } from './plan';
import { read } from './read';
import { applyToDisk, readerFor, snapshot, tmpDir, write, FLAT_PENDING } from './test-fixtures';
import type { CanonicalAction, MemoryRecord } from './types';

const NOW = new Date('2026-11-23T12:00:00Z');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}, 120_000);

function store(files: Record<string, string | Buffer>): string {
  const d = tmpDir('canon-plan-');
  dirs.push(d);
  for (const [rel, text] of Object.entries(files)) write(d, rel, text);
  return d;
}

function rec(root: string, key: string): MemoryRecord {
  const r = read(root, { now: NOW, checkout: null }).records.find((x) => x.key === key);
  if (!r) throw new Error(`no ${key}`);
  return r;
}

function run(root: string, key: string, action: CanonicalAction, extra: Partial<Parameters<typeof plan>[3]> = {}) {
  const res = plan(rec(root, key), action, NOW, { read: readerFor(root), head: 'abc1234', ...extra });
  if (!res.ok) throw new Error(res.reason);
  applyToDisk(root, res.plan.edits);
  return res.plan;
}

const SHARD =
  '---\nkey: @scope/pkg@1.2\ncategory: libraries\nclaim: a: b, "quoted"\nverified-at: 1111111\nlast-touched: 2026-01-01\nodd line without colon\n---\n\n- Role: made up.\n';

describe('plan, sharded', () => {
  it('reaffirm rewrites the two named lines and nothing else', () => {
    const root = store({ 'libraries/pkg.md': SHARD });
    const p = run(root, '@scope/pkg@1.2', 'reaffirm');
    expect(p.edits.map((e) => e.kind)).toEqual(['replace-lines', 'replace-lines']);
    expect(fs.readFileSync(path.join(root, 'libraries/pkg.md'), 'utf8')).toBe(
      SHARD.replace('verified-at: 1111111', 'verified-at: abc1234').replace(
        'last-touched: 2026-01-01',
        'last-touched: 2026-11-23',
      ),
    );
  });

  it('demote adds two frontmatter lines and moves the file; restore gives back the same bytes', () => {
    const crlf = SHARD.replace(/\n/g, '\r\n');
    const root = store({ 'libraries/pkg.md': crlf, 'README.md': '# readme\n' });
    const before = snapshot(root);
    run(root, '@scope/pkg@1.2', 'demote', { reason: 'pinned version was yanked' });
    expect(fs.existsSync(path.join(root, 'libraries/pkg.md'))).toBe(false);
    const moved = fs.readFileSync(path.join(root, 'quarantine/libraries/pkg.md'), 'utf8');
    expect(moved).toBe(
      crlf.replace(
        'odd line without colon\r\n---',
        'odd line without colon\r\nquarantined-at: 2026-11-23\r\nquarantine-reason: pinned version was yanked\r\n---',
      ),
    );
    expect(rec(root, '@scope/pkg@1.2')).toMatchObject({ tier: 'quarantined', actions: ['restore'] });
    run(root, '@scope/pkg@1.2', 'restore');
    expect(snapshot(root)).toEqual(before);
  });

  it('backlog close writes status and superseded-at; archive is refused for backlog', () => {
    const root = store({ 'backlog/a.md': '---\nkey: do-it-0a0a\nstatus: open\n---\n- Intent: do it\n' });
    expect(plan(rec(root, 'do-it-0a0a'), 'archive', NOW, { read: readerFor(root) })).toEqual({
      ok: false,
      reason: 'a backlog entry closes as picked-up or dropped (close)',
    });
    expect(plan(rec(root, 'do-it-0a0a'), 'close', NOW, { read: readerFor(root) })).toEqual({
      ok: false,
      reason: 'close needs a status: picked-up or dropped',
    });
    run(root, 'do-it-0a0a', 'close', { status: 'dropped' });
    expect(fs.readFileSync(path.join(root, 'backlog/a.md'), 'utf8')).toBe(
      '---\nkey: do-it-0a0a\nstatus: dropped\nsuperseded-at: 2026-11-23\n---\n- Intent: do it\n',
    );
    expect(rec(root, 'do-it-0a0a').tier).toBe('archived');
  });

  it('refuses a stale read and a demote onto an existing quarantine file', () => {
    const root = store({
      'landmines/a.md': '---\nkey: k1\n---\n- x\n',
      'quarantine/landmines/b.md': '---\nkey: k2\n---\n',
    });
    const r = rec(root, 'k1');
    write(root, 'landmines/a.md', '---\nkey: other\n---\n- x\n');
    expect(plan(r, 'archive', NOW, { read: readerFor(root) })).toEqual({
      ok: false,
      reason: 'landmines/a.md no longer holds k1; read the store again',
    });
    write(root, 'landmines/a.md', '---\nkey: k1\n---\n- x\n');
    write(root, 'quarantine/landmines/a.md', '---\nkey: k3\n---\n');
    expect(plan(rec(root, 'k1'), 'demote', NOW, { read: readerFor(root), reason: 'x' })).toEqual({
      ok: false,
      reason: 'quarantine/landmines/a.md already exists',
    });
    expect(plan(rec(root, 'k1'), 'demote', NOW, { read: readerFor(root), reason: '  ' })).toEqual({
      ok: false,
      reason: 'demote needs a reason',
    });
  });
});

describe('plan, flat', () => {
  it('archive of a question adds resolved-at inside its block, in the file\u2019s line endings', () => {
    const crlf = FLAT_PENDING.replace(/\n/g, '\r\n');
    const root = store({ 'pending-questions.md': crlf });
    run(root, 'Q-002', 'archive');
    expect(fs.readFileSync(path.join(root, 'pending-questions.md'), 'utf8')).toBe(
      crlf.replace('- last-touched: 2026-11-01\r\n', '- last-touched: 2026-11-01\r\n- resolved-at: 2026-11-23\r\n'),
    );
    expect(rec(root, 'Q-002').tier).toBe('archived');
  });

  it('reaffirm keeps the bullet names as written', () => {
    const text =
      '# L\n\n## @scope/pkg@1.2\n\n- Role: r\n- Verified-at: 1111111\n- Last-touched: 2026-01-01\n\n## next\n- x: y\n';
    const root = store({ 'libraries.md': text });
    run(root, '@scope/pkg@1.2', 'reaffirm');
    expect(fs.readFileSync(path.join(root, 'libraries.md'), 'utf8')).toBe(
      text
        .replace('Verified-at: 1111111', 'Verified-at: abc1234')
        .replace('Last-touched: 2026-01-01', 'Last-touched: 2026-11-23'),
    );
  });

  it('demote moves the block to quarantine/<category>.md; restore puts it back where it stood', () => {
    const root = store({ 'pending-questions.md': FLAT_PENDING });
    const before = snapshot(root);
    const p = run(root, 'Q-002', 'demote', { reason: 'answered elsewhere' });
    expect(p.memo).toEqual({
      from: 'pending-questions.md',
      to: 'quarantine/pending-questions.md',
      line: 13,
      beforeKey: 'Q-005',
    });
    const q = fs.readFileSync(path.join(root, 'quarantine/pending-questions.md'), 'utf8');
    expect(q).toBe(
      '## Q-002 \u2014 Is the cap ratified?\n\n- Question: is it?\n- Raised-on: 2026-07-10\n- last-touched: 2026-11-01\n- quarantined-at: 2026-11-23\n- quarantine-reason: answered elsewhere\n\n---\n\n',
    );
    expect(fs.readFileSync(path.join(root, 'pending-questions.md'), 'utf8')).not.toContain('Q-002');
    expect(fs.statSync(path.join(root, 'quarantine')).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(root, 'quarantine/pending-questions'))).toBe(false); // flat stays flat
    expect(rec(root, 'Q-002')).toMatchObject({ tier: 'quarantined', shape: 'flat' });
    run(root, 'Q-002', 'restore', {
      restoreAt: { line: p.memo.line as number, beforeKey: p.memo.beforeKey as string },
    });
    expect(snapshot(root)).toEqual(before);
  });

  it('inbox candidates and suspect entries refuse writes with the reason', () => {
    const root = store({ 'landmarks.md': '## a:1\n- x\n', '_pending.md': '## CANDIDATE: k\n- y: z\n' });
    const cand = read(root, { now: NOW, checkout: null }).records.find((x) => x.place === 'inbox')!;
    expect(plan(cand, 'demote', NOW, { read: readerFor(root), reason: 'r' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/read-only/),
    });
  });
});

describe('applyEdits', () => {
  it('refuses when the replaced lines are not what the plan expected', () => {
    const e = {
      kind: 'replace-lines' as const,
      file: 'f',
      line: 1,
      count: 1,
      expect: Buffer.from('a\n'),
      bytes: Buffer.from('b\n'),
    };
    expect(replaceLines(Buffer.from('a\nc\n'), e).toString()).toBe('b\nc\n');
    expect(() => replaceLines(Buffer.from('x\nc\n'), e)).toThrow(EditConflict);
    expect(() => applyEdits(() => null, [{ kind: 'move', from: 'a', to: 'b' }])).toThrow(EditConflict);
  });
});

// ---- properties: every byte outside the named lines is kept ----

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const prose = fc.constantFrom(
  'plain text',
  'a: b: c',
  '@scope/pkg@1.2',
  '"quoted: value"',
  "it's",
  '# not a comment',
  'caf\u00e9 \u2014 na\u00efve',
  '   ',
  '',
  '```',
  '- nested: bullet',
  '> quote',
);
const eol = fc.constantFrom('\n', '\r\n');

/** A flat category file with unique keys, random bullets, prose, separators and endings. */
const flatFile = fc
  .record({
    fm: fc.boolean(),
    eol,
    finalNewline: fc.boolean(),
    blocks: fc.uniqueArray(
      fc.record({
        key: word,
        title: fc.option(fc.constantFrom('Is it so?', 'a note'), { nil: undefined }),
        lines: fc.array(
          fc.oneof(
            fc
              .tuple(fc.constantFrom('source', 'Verified-at', 'last-touched', 'status', 'caveat', 'Role'), prose)
              .map(([n, v]) => `- ${n}: ${v || 'x'}`),
            prose.map((t) => (t === '```' ? 'text' : t)),
          ),
          { maxLength: 6 },
        ),
        sep: fc.boolean(),
      }),
      { minLength: 1, maxLength: 5, selector: (b) => b.key },
    ),
  })
  .map(({ fm, eol, finalNewline, blocks }) => {
    const lines: string[] = [];
    if (fm) lines.push('---', 'owners: [x]', 'key: slug', '---', '');
    lines.push('# Title', '', 'Intro.', '');
    for (const b of blocks) {
      lines.push(`## ${b.key}${b.title ? ` \u2014 ${b.title}` : ''}`, '', ...b.lines);
      if (b.sep) lines.push('', '---', '');
    }
    const text = lines.join(eol);
    return { text: finalNewline ? text + eol : text, keys: blocks.map((b) => b.key) };
  });

const shardFile = fc
  .record({
    eol,
    key: fc.constantFrom('@scope/pkg@1.2', 'src/a.ts:10', 'a key: with colon', 'plain-key'),
    extra: fc.array(
      fc.tuple(word, prose).map(([n, v]) => `${n}: ${v}`),
      { maxLength: 5 },
    ),
    body: fc.array(prose, { maxLength: 5 }),
    has: fc.record({ va: fc.boolean(), lt: fc.boolean() }),
  })
  .map(({ eol, key, extra, body, has }) => {
    const fm = [
      '---',
      `key: ${key}`,
      ...extra.filter(
        (l) =>
          !/^(key|verified-at|last-touched|quarantined-at|quarantine-reason|superseded-at|resolved-at|status|source): /.test(
            l,
          ),
      ),
    ];
    if (has.va) fm.push('verified-at: 1111111');
    if (has.lt) fm.push('last-touched: 2026-01-01');
    fm.push('---');
    return { text: [...fm, '', ...body].join(eol) + eol, key };
  });

/** Lines of `a` not in `b`, as a multiset difference (to show which lines changed). */
function changedLines(a: string, b: string): string[] {
  const left = a.split(/(?<=\n)/);
  const pool = b.split(/(?<=\n)/);
  const out: string[] = [];
  for (const l of left) {
    const i = pool.indexOf(l);
    if (i === -1) out.push(l);
    else pool.splice(i, 1);
  }
  return out;
}

describe('properties', () => {
  it('undo: the inverted edits of any plan give back every file byte for byte', () => {
    fc.assert(
      fc.property(
        flatFile,
        shardFile,
        fc.nat(),
        fc.constantFrom<CanonicalAction>('reaffirm', 'archive', 'demote', 'close'),
        (flat, shard, pick, action) => {
          const root = store({ 'landmarks.md': flat.text, 'backlog.md': flat.text, 'conventions/e.md': shard.text });
          const records = read(root, { now: NOW, checkout: null }).records.filter((x) => x.actions.includes(action));
          if (!records.length) return;
          const r = records[pick % records.length]!;
          const res = plan(r, action, NOW, {
            read: readerFor(root),
            head: 'abc1234',
            reason: 'r',
            status: 'picked-up',
          });
          if (!res.ok) return;
          const before = snapshot(root);
          applyToDisk(root, res.plan.edits);
          expect(snapshot(root)).not.toEqual(before);
          applyToDisk(root, invertEdits(res.plan.edits));
          if (
            fs.existsSync(path.join(root, 'quarantine')) &&
            fs.readdirSync(path.join(root, 'quarantine'), { recursive: true }).every((n) => !String(n).endsWith('.md'))
          ) {
            fs.rmSync(path.join(root, 'quarantine'), { recursive: true });
          }
          expect(snapshot(root)).toEqual(before);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 60) },
    );
  });

  it('flat in-place actions change only field lines of their own block', () => {
    fc.assert(
      fc.property(
        flatFile,
        fc.nat(),
        fc.constantFrom<CanonicalAction>('reaffirm', 'archive'),
        ({ text }, pick, action) => {
          const root = store({ 'landmarks.md': text });
          const records = read(root, { now: NOW, checkout: null }).records;
          const r = records[pick % records.length]!;
          const bytes = Buffer.from(text);
          const res = plan(r, action, NOW, { read: readerFor(root), head: 'abc1234' });
          if (!res.ok) return; // e.g. a random block closed itself with a superseded-at bullet
          const after = applyEdits(readerFor(root), res.plan.edits).get('landmarks.md')!;
          const lines = bytes.toString('latin1').split(/(?<=\n)/);
          const start = lines.slice(0, r.location.line - 1).join('');
          const end = lines.slice(r.location.endLine).join('');
          const a = after.toString('latin1');
          expect(a.startsWith(start)).toBe(true);
          expect(a.endsWith(end)).toBe(true);
          // Inside the block: removed lines are named field bullets (or the unterminated last line).
          for (const gone of changedLines(text, after.toString('utf8'))) {
            expect(
              /^- (Verified-at|verified-at|last-touched|superseded-at|resolved-at): /i.test(gone) ||
                !gone.endsWith('\n'),
            ).toBe(true);
          }
          // Every other entry reads back with the same key and fields.
          applyToDisk(root, res.plan.edits);
          const again = read(root, { now: NOW, checkout: null }).records;
          const view = (x: MemoryRecord) => [x.key, x.fields.map((f) => `${f.name}=${f.value}`)];
          expect(again.filter((x) => x.location.line !== r.location.line).map(view)).toEqual(
            records.filter((x) => x !== r).map(view),
          );
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 60) },
    );
  });

  it('flat demote then restore gives back the same bytes (a missing final newline may be added)', () => {
    fc.assert(
      fc.property(flatFile, fc.nat(), ({ text }, pick) => {
        const root = store({ 'landmarks.md': text });
        const r = read(root, { now: NOW, checkout: null }).records.filter((x) => x.actions.includes('demote'));
        if (!r.length) return;
        const target = r[pick % r.length]!;
        const others = read(root, { now: NOW, checkout: null })
          .records.filter((x) => x !== target)
          .map((x) => x.key);
        const d = plan(target, 'demote', NOW, { read: readerFor(root), reason: 'why: because' });
        if (!d.ok) throw new Error(d.reason);
        applyToDisk(root, d.plan.edits);
        const mid = read(root, { now: NOW, checkout: null }).records;
        expect(mid.filter((x) => x.place === 'store').map((x) => x.key)).toEqual(
          others.filter((k) => mid.some((m) => m.key === k && m.place === 'store')),
        );
        const q = mid.find((x) => x.key === target.key && x.place === 'quarantine')!;
        expect(q).toBeTruthy();
        const back = plan(q, 'restore', NOW, {
          read: readerFor(root),
          restoreAt: { line: d.plan.memo.line as number, beforeKey: d.plan.memo.beforeKey as string },
        });
        if (!back.ok) throw new Error(back.reason);
        applyToDisk(root, back.plan.edits);
        const now = fs.readFileSync(path.join(root, 'landmarks.md'), 'utf8');
        const lastBlock = target.location.endLine === text.split(/(?<=\n)/).length;
        if (text.endsWith('\n') || !lastBlock) expect(now).toBe(text);
        else expect([text, text + (text.includes('\r\n') ? '\r\n' : '\n')]).toContain(now);
        expect(fs.existsSync(path.join(root, 'quarantine/landmarks.md'))).toBe(false);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 60) },
    );
  });

  it('sharded actions change only the named frontmatter lines; demote+restore is byte-identical', () => {
    fc.assert(
      fc.property(
        shardFile,
        fc.constantFrom<CanonicalAction>('reaffirm', 'archive', 'demote'),
        ({ text, key }, action) => {
          const root = store({ 'landmarks/e.md': text });
          const r = read(root, { now: NOW, checkout: null }).records[0]!;
          expect(r.key).toBe(key);
          const res = plan(r, action, NOW, { read: readerFor(root), head: 'abc1234', reason: 'a: reason' });
          if (action === 'reaffirm' && key === 'src/a.ts:10') {
            // A path:line key is a target, and this read had no checkout to re-verify it against.
            expect(res).toMatchObject({ ok: false, reason: expect.stringMatching(/not re-verified/) });
            return;
          }
          if (!res.ok) throw new Error(res.reason);
          const out = applyEdits(readerFor(root), res.plan.edits);
          const file = action === 'demote' ? 'quarantine/landmarks/e.md' : 'landmarks/e.md';
          const after = out.get(file)!.toString('utf8');
          expect(changedLines(text, after).every((l) => /^(verified-at|last-touched|superseded-at): /.test(l))).toBe(
            true,
          );
          expect(
            changedLines(after, text).every((l) =>
              /^(verified-at|last-touched|superseded-at|quarantined-at|quarantine-reason): /.test(l),
            ),
          ).toBe(true);
          if (action === 'demote') {
            applyToDisk(root, res.plan.edits);
            const q = read(root, { now: NOW, checkout: null }).records[0]!;
            const back = plan(q, 'restore', NOW, { read: readerFor(root) });
            if (!back.ok) throw new Error(back.reason);
            applyToDisk(root, back.plan.edits);
            expect(fs.readFileSync(path.join(root, 'landmarks/e.md'), 'utf8')).toBe(text);
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 80) },
    );
  });
});
