import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, ACTORS, type AuditEvent } from '../audit/event';
import { type Corpus, type CorpusFile, DEFAULT_OWNER_EMAIL, generateCorpus, writeCorpus } from './index';
import { ageDays, dateAgeDays, parseMemory } from './test-helpers';

const now = new Date('2026-11-22T12:00:00Z');
const FILENAME = /^(user|feedback|project|reference)_[a-z0-9_]+\.md$/;
const TYPES = ['user', 'feedback', 'project', 'reference'];

/** Labels a file from its bytes and location only (independent of the generator's plan). */
function classify(f: CorpusFile): string[] {
  const p = parseMemory(f.content);
  const { fm } = p;
  const text = f.content.toString('utf8');
  const dir = f.relPath.split('/').slice(0, -1).join('/');
  const out: string[] = [];
  const tier = fm['trust-level'];
  if (dir === 'memories' && tier === 'verified') {
    if (!fm['last-verified']) out.push('verified-no-lv');
    else out.push(dateAgeDays(fm['last-verified'], now) > 90 ? 'verified-stale' : 'verified-fresh');
  }
  if (dir === 'memories' && tier === 'inferred')
    out.push(ageDays(fm['created-at']!, now) < 7 ? 'inferred-observing' : 'inferred-due');
  if (dir === 'memories' && tier === undefined && p.closed) out.push('no-trust');
  if (dir === 'quarantine') {
    const age = Math.floor(ageDays(fm['quarantined-at']!, now));
    out.push(age <= 30 ? 'quarantined-passive' : age <= 90 ? 'quarantined-audit' : 'quarantined-archive');
  }
  if (dir.startsWith('archive/')) {
    expect(dir).toBe(`archive/${fm['quarantined-at']!.slice(0, 7)}`);
    out.push('archived');
  }
  if (/\bghp_[A-Za-z0-9]{36}\b/.test(text)) out.push('secret-github');
  if (/\bAKIA[0-9A-Z]{16}\b/.test(text)) out.push('secret-aws');
  if (dir === 'memories' && /\b10\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/.test(text)) out.push('secret-ip');
  for (const m of text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [])
    out.push(m === DEFAULT_OWNER_EMAIL ? 'owner-email' : 'secret-email');
  if (/ignore all previous instructions/i.test(text)) out.push('injection');
  if (!p.closed) out.push('struct-error');
  if (p.closed && fm.type && !TYPES.includes(fm.type)) out.push('format-error');
  if ((fm.type === 'feedback' || fm.type === 'project') && p.closed && !/Why:/.test(p.body)) out.push('warn-no-why');
  if (p.crlf) out.push('crlf');
  if (p.bom) out.push('bom');
  if (/^\d{4}-\d{2}-\d{2}$/.test(fm['created-at'] ?? '')) out.push('created-date-only');
  return out;
}

function tally(c: Corpus): Record<string, number> {
  const t: Record<string, number> = {};
  for (const f of c.files) for (const l of classify(f)) t[l] = (t[l] ?? 0) + 1;
  return t;
}

const events = (c: Corpus): AuditEvent[] =>
  c.auditLines.flatMap((a) => a.lines.map((l) => JSON.parse(l) as AuditEvent));

describe('generateCorpus', () => {
  it('is deterministic for (n, seed, now) and changes with the seed', () => {
    const a = generateCorpus({ n: 300, seed: 42, now });
    const b = generateCorpus({ n: 300, seed: 42, now });
    expect(a.files.map((f) => f.relPath)).toEqual(b.files.map((f) => f.relPath));
    a.files.forEach((f, i) => {
      expect(f.content.equals(b.files[i]!.content)).toBe(true);
      expect(f.mtime.getTime()).toBe(b.files[i]!.mtime.getTime());
    });
    expect(a.auditLines).toEqual(b.auditLines);
    const c = generateCorpus({ n: 300, seed: 43, now });
    expect(Buffer.concat(c.files.map((f) => f.content)).equals(Buffer.concat(a.files.map((f) => f.content)))).toBe(
      false,
    );
    expect(generateCorpus({ n: 5, seed: 'demo', now }).files).toEqual(
      generateCorpus({ n: 5, seed: 'demo', now }).files,
    );
  });

  it.each([0, 1, 5, 18, 19, 20, 33, 60, 2000])('returns exactly n = %i files with unique, well-formed names', (n) => {
    const c = generateCorpus({ n, seed: 7, now });
    expect(c.files).toHaveLength(n);
    const names = c.files.map((f) => path.posix.basename(f.relPath));
    expect(new Set(names).size).toBe(n);
    for (const name of names) expect(name).toMatch(FILENAME);
    for (const f of c.files) {
      expect(f.relPath).toMatch(/^(memories|quarantine|archive\/\d{4}-\d{2})\/[^/]+$/);
      expect(f.mtime.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(f.mtime.getTime() % 1000).toBe(0);
    }
  });

  it('covers every category at the demo size n = 60', () => {
    const t = tally(generateCorpus({ n: 60, seed: 1, now }));
    for (const label of [
      'verified-fresh',
      'verified-stale',
      'verified-no-lv',
      'inferred-observing',
      'inferred-due',
      'no-trust',
      'quarantined-passive',
      'quarantined-audit',
      'quarantined-archive',
      'archived',
      'secret-github',
      'secret-aws',
      'secret-ip',
      'secret-email',
      'owner-email',
      'injection',
      'struct-error',
      'format-error',
      'warn-no-why',
      'crlf',
      'bom',
      'created-date-only',
    ]) {
      expect(t[label], label).toBeGreaterThanOrEqual(1);
    }
    expect(t.bom).toBe(1);
  });

  it('keeps special cases rare at large n', () => {
    const n = 10_000;
    const t = tally(generateCorpus({ n, seed: 3, now }));
    const special = [
      'secret-github',
      'secret-aws',
      'secret-ip',
      'secret-email',
      'injection',
      'struct-error',
      'format-error',
    ];
    const sum = special.reduce((s, k) => s + (t[k] ?? 0), 0);
    expect(sum / n).toBeGreaterThan(0.01);
    expect(sum / n).toBeLessThan(0.03);
    expect((t['verified-fresh'] ?? 0) / n).toBeGreaterThan(0.35);
    for (const k of ['quarantined-passive', 'quarantined-audit', 'quarantined-archive', 'archived'])
      expect(t[k]).toBeGreaterThan(n * 0.02);
  });

  it('writes audit events consistent with the files', () => {
    const c = generateCorpus({ n: 400, seed: 11, now });
    const evs = events(c);
    expect(new Set(evs.map((e) => e.id)).size).toBe(evs.length);
    for (const a of c.auditLines) {
      const parsed = a.lines.map((l) => JSON.parse(l) as AuditEvent);
      const machine = a.relPath.match(/^\.memtrust\/audit\/([\w.-]+)\.jsonl$/)![1];
      parsed.forEach((e, i) => {
        expect(Object.keys(e)).toEqual([
          'v',
          'id',
          'at',
          'machine',
          'actor',
          'action',
          'memory',
          'from',
          'to',
          'reason',
          'findings',
          'before_sha256',
          'after_sha256',
          'recovered',
        ]);
        expect(e.v).toBe(1);
        expect(e.machine).toBe(machine);
        expect(e.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(e.at)).toBeLessThanOrEqual(now.getTime());
        expect(AUDIT_ACTIONS).toContain(e.action);
        expect(ACTORS).toContain(e.actor);
        expect(e.recovered).toBe(false);
        if (i > 0) expect(e.at >= parsed[i - 1]!.at).toBe(true);
      });
    }
    const byMemory = new Map<string, AuditEvent[]>();
    for (const e of [...evs].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0))) {
      byMemory.set(e.memory, [...(byMemory.get(e.memory) ?? []), e]);
    }
    for (const f of c.files) {
      const name = path.posix.basename(f.relPath);
      const { fm } = parseMemory(f.content);
      const history = byMemory.get(name) ?? [];
      if (history.length === 0) continue; // hand-written / pre-memtrust files
      expect(history[0]!.action).toBe('create');
      const last = history[history.length - 1]!;
      expect(last.after_sha256).toBe(createHash('sha256').update(f.content).digest('hex'));
      if (f.relPath.startsWith('archive/')) expect(last.action).toBe('archive');
      else expect(last.to).toBe(fm['trust-level']);
      if (f.relPath.startsWith('quarantine/') || f.relPath.startsWith('archive/')) {
        const demote = history.filter((e) => e.action === 'demote').pop()!;
        expect(demote.at).toBe(fm['quarantined-at']);
        expect(demote.machine).toBe(fm['quarantined-by']);
        expect(demote.reason).toBe(fm['quarantine-reason']);
        if (demote.actor === 'validator') expect(demote.findings[0]).toMatchObject({ check: 'secret' });
      }
      if (fm['trust-level'] === 'inferred') expect(history.map((e) => e.action)).toEqual(['create']);
      for (let i = 1; i < history.length; i++) expect(history[i]!.from).toBe(history[i - 1]!.to);
    }
    // every planned quarantined/archived/inferred file has a history
    const withHistory = c.files.filter((f) => byMemory.has(path.posix.basename(f.relPath)));
    expect(withHistory.length).toBeGreaterThan(c.files.length * 0.6);
  });
});

describe('writeCorpus', () => {
  it('writes bytes, mtimes and audit lines', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-demo-'));
    try {
      const c = generateCorpus({ n: 60, seed: 5, now });
      const stats = writeCorpus(dir, c);
      expect(stats.files).toBe(60);
      for (const f of c.files) {
        const abs = path.join(dir, f.relPath);
        expect(fs.readFileSync(abs).equals(f.content)).toBe(true);
        expect(Math.round(fs.statSync(abs).mtimeMs)).toBe(f.mtime.getTime());
      }
      for (const a of c.auditLines) {
        const text = fs.readFileSync(path.join(dir, a.relPath), 'utf8');
        expect(text.endsWith('\n')).toBe(true);
        expect(text.trimEnd().split('\n')).toEqual(a.lines);
      }
      expect(fs.readdirSync(path.join(dir, 'memories')).length).toBeGreaterThan(30);
      expect(fs.existsSync(path.join(dir, 'quarantine'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
