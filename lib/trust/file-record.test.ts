import { describe, expect, it } from 'vitest';
import { fileRecordState } from './file-record';
import { lifecycle } from './lifecycle';
import type { MemoryFacts } from './facts';

const NOW = new Date('2026-11-23T12:00:00Z');
const facts = (f: Partial<MemoryFacts>): MemoryFacts => ({
  filename: 'user_x.md',
  location: 'memories',
  mtime: new Date('2026-10-01T00:00:00Z'),
  ...f,
});
const state = (f: Partial<MemoryFacts>) =>
  fileRecordState({
    location: f.location ?? 'memories',
    trustLevel: f.trustLevel,
    conflict: !!f.conflict,
    lifecycle: lifecycle(facts(f), NOW),
  });

describe('fileRecordState', () => {
  it('native is the folder and the trust-level as written', () => {
    expect(state({ trustLevel: 'inferred' }).native).toBe('memories/inferred');
    expect(state({ trustLevel: 'Verified ', lastVerified: '2026-11-20' }).native).toBe('memories/Verified');
    expect(state({}).native).toBe('memories/none');
    expect(state({ location: 'quarantine', trustLevel: 'quarantined' }).native).toBe('quarantine/quarantined');
  });

  it('a verified memory past 90 days, or never re-affirmed, is stale with the reason', () => {
    expect(state({ trustLevel: 'verified', lastVerified: '2026-11-01' })).toMatchObject({ flags: [] });
    expect(state({ trustLevel: 'verified', lastVerified: '2026-08-01' })).toEqual({
      native: 'memories/verified',
      flags: ['stale'],
      flagReasons: { stale: 'last verified 114 days ago (stale after 90)' },
    });
    expect(state({ trustLevel: 'verified' })).toMatchObject({
      flags: ['stale'],
      flagReasons: { stale: 'verified but never re-affirmed (no last-verified)' },
    });
    // Inferred and quarantined memories have no verification clock: never stale.
    expect(state({ trustLevel: 'inferred', createdAt: '2020-01-01' }).flags).toEqual([]);
  });

  it('a conflict is flagged with its reason', () => {
    expect(state({ trustLevel: 'inferred', conflict: true })).toMatchObject({
      flags: ['conflict'],
      flagReasons: { conflict: 'the same file name is in memories/ and in quarantine/' },
    });
  });
});
