/**
 * Consolidation stores for tests and the bench (docs/consolidation-layout.md). Fake data
 * only: made-up ids, paths and statements.
 *
 * `writeContractFixture(dir)` is the small store other suites share: judged at
 * CONSOLIDATION_FIXTURE_NOW it holds every status, confidence, type and sensitivity, a
 * needs-review contradiction pair, each write-rule breaker, an unknown key, CRLF lines
 * and one line that is not JSON. CONSOLIDATION_FIXTURE lists what a read must give.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The instant the contract fixture is judged at (MEMTRUST_NOW). */
export const CONSOLIDATION_FIXTURE_NOW = '2026-11-22T12:00:00Z';

/** A record line's object: the seed's keys, any of them overridable or removable (undefined). */
export type RecordObject = Record<string, unknown>;

export function rec(id: string, over: RecordObject = {}): RecordObject {
  const base: RecordObject = {
    id,
    type: 'semantic',
    statement: `Fact ${id}: the build uses the pinned toolchain in tools/versions.txt`,
    evidence: ['tools/versions.txt:3', 'cmd: make print-toolchain'],
    confidence: 'medium',
    sensitivity: 'internal',
    sourceStep: 'B.1',
    createdAt: '2026-11-01T09:00:00Z',
    expiresAt: null,
    status: 'active',
  };
  const out: RecordObject = { ...base, ...over };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

export interface StoreOptions {
  eol?: '\n' | '\r\n';
  bom?: boolean;
  /** Python's json.dumps spacing (`", "` and `": "`) instead of the compact one. */
  spaced?: boolean;
  /** Leave the last line without its terminator. */
  noFinalEol?: boolean;
}

/** Python's `json.dumps` default spacing: `", "` between items, `": "` after keys. */
export function spacedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(spacedJson).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${spacedJson(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

/** One line per item: an object is serialised, a string is written as it is. */
export function storeText(items: (RecordObject | string)[], opts: StoreOptions = {}): string {
  const eol = opts.eol ?? '\n';
  const line = (x: RecordObject | string) =>
    typeof x === 'string' ? x : opts.spaced ? spacedJson(x) : JSON.stringify(x);
  const body = items.map(line).join(eol) + (opts.noFinalEol ? '' : eol);
  return (opts.bom ? '\ufeff' : '') + body;
}

export function writeStore(
  dir: string,
  file: string,
  items: (RecordObject | string)[],
  opts: StoreOptions = {},
): string {
  fs.mkdirSync(dir, { recursive: true });
  const p = path.join(dir, file);
  fs.writeFileSync(p, storeText(items, opts));
  return p;
}

/** The ids of the contract fixture, by what they stand for. */
export const FIXTURE_IDS = {
  verified: 'mem_a1f03c9e',
  promotable: 'mem_b2e14d8a',
  young: 'mem_c3d25e7b',
  expiredStatus: 'mem_d4c36f6c',
  pastTtl: 'mem_e5b4705d',
  pairKeep: 'mem_f6a5814e',
  pairOther: 'mem_07f6923f',
  noEvidence: 'mem_18e7a430',
  noSourceStep: 'mem_29d8b521',
  secret: 'mem_3ac9c612',
  working: 'mem_4bdad703',
  crlfVerified: 'mem_5cebe8f4',
  crlfReview: 'mem_6dfcf9e5',
} as const;

const I = FIXTURE_IDS;

/** What reading the contract fixture at CONSOLIDATION_FIXTURE_NOW gives, per id. */
export const CONSOLIDATION_FIXTURE = {
  now: CONSOLIDATION_FIXTURE_NOW,
  files: ['agent.memory.jsonl', 'session.memory.jsonl'],
  /** The line that is not JSON (file, line): a read problem, kept as it is. */
  badLine: { file: 'agent.memory.jsonl', line: 8 },
  unknownKey: { id: I.verified, name: 'x-origin-session' },
  records: {
    [I.verified]: { tier: 'verified', flags: [], native: 'active/high' },
    [I.promotable]: { tier: 'inferred', flags: [], native: 'active/medium' },
    [I.young]: { tier: 'inferred', flags: [], native: 'active/low' },
    [I.expiredStatus]: { tier: 'archived', flags: ['expired'], native: 'expired/medium' },
    [I.pastTtl]: { tier: 'archived', flags: ['expired'], native: 'active/high' },
    [I.pairKeep]: { tier: 'quarantined', flags: ['conflict'], native: 'needs-review/medium' },
    [I.pairOther]: { tier: 'quarantined', flags: ['conflict'], native: 'needs-review/low' },
    [I.noEvidence]: { tier: 'inferred', flags: ['write-rule'], native: 'active/high' },
    [I.noSourceStep]: { tier: 'inferred', flags: ['write-rule'], native: 'active/medium' },
    [I.secret]: { tier: 'quarantined', flags: ['write-rule'], native: 'needs-review/medium' },
    [I.working]: { tier: 'archived', flags: ['write-rule', 'expired'], native: 'active/high' },
    [I.crlfVerified]: { tier: 'verified', flags: [], native: 'active/high' },
    [I.crlfReview]: { tier: 'quarantined', flags: [], native: 'needs-review/low' },
  } as Record<string, { tier: string; flags: string[]; native: string }>,
} as const;

/** The small shared store (see the file comment). Returns the files written. */
/** The contract fixture's planted problems: the line that is not JSON, and the CRLF file's note. */
export const contractProblems = 2;

export function writeContractFixture(dir: string): void {
  const note = `compared evidence: package.json engines says node 20 (${I.pairKeep}); .nvmrc says node 22 (${I.pairOther})`;
  writeStore(dir, 'agent.memory.jsonl', [
    // 1 verified, with a key the seed does not know
    rec(I.verified, {
      confidence: 'high',
      sensitivity: 'public',
      createdAt: '2026-10-01T09:00:00Z',
      'x-origin-session': 'sess-fake-0001',
    }),
    // 2 inferred, observation over: promote applies
    rec(I.promotable, {
      type: 'procedural',
      statement: 'Run make check before pushing; it runs lint and unit tests',
      evidence: ['Makefile:14', 'cmd: make check'],
    }),
    // 3 inferred and young: promote waits until 2026-11-27T08:30:00Z
    rec(I.young, {
      type: 'episodic',
      confidence: 'low',
      statement: 'The flaky e2e test passed after a rerun today',
      evidence: 'log: ci run 4411 (fake)',
      createdAt: '2026-11-20T08:30:00Z',
      sourceStep: 'A.2',
    }),
    // 4 expired by status
    rec(I.expiredStatus, {
      type: 'episodic',
      status: 'expired',
      statement: 'The session fixed a typo in docs/setup.md',
      createdAt: '2026-09-01T10:00:00Z',
    }),
    // 5 active but past its TTL (episodic, 14 days): archived + expired
    rec(I.pastTtl, {
      type: 'episodic',
      confidence: 'high',
      statement: 'Port 8080 was busy on the dev box during the session',
      createdAt: '2026-10-20T10:00:00Z',
    }),
    // 6 + 7 a contradiction pair
    rec(I.pairKeep, {
      status: 'needs-review',
      statement: 'The project runs on Node 20',
      evidence: ['package.json: engines.node >=20'],
      createdAt: '2026-11-10T12:00:00Z',
      conflictsWith: [I.pairOther],
      conflictNote: note,
    }),
    rec(I.pairOther, {
      status: 'needs-review',
      confidence: 'low',
      statement: 'The project runs on Node 22',
      evidence: ['.nvmrc: 22'],
      createdAt: '2026-11-11T12:00:00Z',
      conflictsWith: [I.pairKeep],
      conflictNote: note,
    }),
    // 8 not JSON: a line cut in the middle, kept as it is
    '{"id":"mem_deadbeef","type":"semantic","statement":"cut off in the midd',
    // 9–12 write-rule breakers
    rec(I.noEvidence, { confidence: 'high', evidence: [], statement: 'Deploys happen on Tuesdays' }),
    rec(I.noSourceStep, { sourceStep: null, statement: 'The API listens on 10.0.0.15:8443 in the fake homelab' }),
    rec(I.secret, {
      sensitivity: 'secret',
      status: 'needs-review',
      statement: 'The staging vault path is secret/fake-staging',
      reviewNote: 'sensitive: check before keeping',
    }),
    rec(I.working, {
      type: 'working',
      confidence: 'high',
      statement: 'Currently editing lib/parser.ts line 40',
      createdAt: '2026-11-22T11:00:00Z',
    }),
  ]);
  // A second file written by another tool: CRLF endings, Python's spacing.
  writeStore(
    dir,
    'session.memory.jsonl',
    [
      rec(I.crlfVerified, {
        type: 'procedural',
        confidence: 'high',
        statement: 'Release: tag, then run scripts/release.sh',
        evidence: ['scripts/release.sh', 'docs/release.md'],
        createdAt: '2025-12-01T00:00:00Z',
      }),
      rec(I.crlfReview, {
        status: 'needs-review',
        confidence: 'low',
        statement: 'Tests need TZ=UTC',
        evidence: ['vitest.config.mts'],
        reviewNote: 'only seen once',
      }),
    ],
    { eol: '\r\n', spaced: true },
  );
}

/**
 * A big store's text: `n` records of about `bytesPer` bytes each (padding in the
 * statement), ids `mem_big<i>`, a mix of types, statuses and confidences.
 */
export function bigStoreText(n: number, bytesPer = 220): string {
  const types = ['episodic', 'semantic', 'procedural'];
  const conf = ['low', 'medium', 'high'];
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = {
      id: `mem_big${i.toString(16).padStart(8, '0')}`,
      type: types[i % 3],
      statement: `Generated fact ${i}: module m${i % 97} owns table t${i % 31}`,
      evidence: [`src/m${i % 97}.ts:${i % 400}`],
      confidence: conf[i % 3],
      sensitivity: 'internal',
      sourceStep: 'B.1',
      createdAt: `2026-${String(1 + (i % 11)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
      expiresAt: null,
      status: i % 50 === 0 ? 'needs-review' : i % 17 === 0 ? 'expired' : 'active',
    };
    let line = JSON.stringify(o);
    if (line.length < bytesPer)
      line = line.replace('"statement":"', `"statement":"${'x'.repeat(bytesPer - line.length)} `);
    parts.push(line);
  }
  return `${parts.join('\n')}\n`;
}
