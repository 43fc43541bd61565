/**
 * Versions kept by the hooks (docs/versions.md, "When"), in process: SessionStart's files kept
 * once however often it runs, the stamp's blind append kept once when a hook runs twice, and
 * a credential value never stored.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepSeen } from './hook-keep';
import { chunksOf, decodeChunk } from './pack';
import { REDACTED } from './redact';
import { VersionStore } from './version-store';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-hook-keep-'));
  vi.stubEnv('MEMTRUST_VERSIONS', 'on');
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const owner = { emails: ['owner@example.com'], homeUser: 'owner' };
const now = new Date('2026-11-22T12:00:00Z');
const file = (rel: string, text: string, credential?: boolean) => ({
  root: '/r',
  id: `s:${path.posix.basename(rel)}`,
  relPath: rel,
  bytes: Buffer.from(text),
  credential,
});

describe('versions kept by the hooks', () => {
  it('SessionStart keeps each file once; a stamp run twice appends once; no credential is stored', () => {
    const db = path.join(tmp, 'index.sqlite');
    const store = () => new VersionStore(path.join(tmp, 'versions'));
    keepSeen(db, [file('a.md', 'alpha\n', false), file('b.md', 'beta\n', false)], owner, now, { blind: false });
    keepSeen(db, [file('a.md', 'alpha\n', false), file('b.md', 'beta, edited\n', false)], owner, now, { blind: false });
    expect(
      store()
        .readIndex('/r')
        .map((l) => l.rel),
    ).toEqual(['a.md', 'b.md', 'b.md']);
    const secret = '---\nname: db\n---\nThe staging database password is Xq9v!Lr2#pTz8wKm for the app user.\n';
    keepSeen(db, [file('c.md', secret)], owner, now, { blind: true });
    keepSeen(db, [file('c.md', secret)], owner, now, { blind: true });
    const c = store()
      .readIndex('/r')
      .filter((l) => l.rel === 'c.md');
    expect(c).toHaveLength(1);
    expect(c[0]!.sha).toBe(crypto.createHash('sha256').update(secret).digest('hex'));
    expect(c[0]!.redacted).toBeGreaterThan(0);
    expect(store().bytesOf(c[0]!)!.toString()).toContain(REDACTED);
    const s = store();
    const disk = s
      .packNames()
      .flatMap((p) => [...chunksOf(fs.readFileSync(s.packFile(p)))].map((x) => decodeChunk(x.payload)!.body.toString()))
      .join('\n');
    expect(disk).toContain('beta, edited');
    expect(disk).not.toContain('Xq9v!Lr2#pTz8wKm');
  });

  it('keeps nothing with versions off or an index in memory', () => {
    keepSeen(':memory:', [file('a.md', 'alpha\n', false)], owner, now, { blind: true });
    vi.stubEnv('MEMTRUST_VERSIONS', 'off');
    keepSeen(path.join(tmp, 'index.sqlite'), [file('a.md', 'alpha\n', false)], owner, now, { blind: true });
    expect(fs.existsSync(path.join(tmp, 'versions'))).toBe(false);
  });
});
