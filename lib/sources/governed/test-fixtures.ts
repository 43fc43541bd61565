/**
 * Builds a codeclone engineering-memory store for tests and the bench, written from
 * the published schema (version 1.7: the tables memtrust reads, with their columns,
 * defaults and indexes; see docs/governed-layout.md, "Fixture"). Needs no codeclone.
 *
 *   npx tsx lib/sources/governed/test-fixtures.ts DIR [--records N] [--live]
 *
 * Every status × confidence × origin, every evidence kind and link relation, stale
 * reasons, a supersedes chain and a contradicting pair. The values are made up.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CONFIDENCES, EVIDENCE_KINDS, LINK_RELATIONS, ORIGINS, STATUSES, STORE_REL, TESTED_SCHEMA } from './types';

const DDL = [
  `CREATE TABLE memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE memory_schema_migrations (version TEXT PRIMARY KEY, applied_at_utc TEXT NOT NULL)`,
  `CREATE TABLE memory_projects (
     id TEXT PRIMARY KEY, root TEXT NOT NULL, git_remote TEXT, git_branch TEXT, git_head TEXT,
     python_tag TEXT, created_at_utc TEXT NOT NULL, updated_at_utc TEXT NOT NULL)`,
  `CREATE TABLE memory_records (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL, identity_key TEXT NOT NULL, type TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'active', confidence TEXT NOT NULL DEFAULT 'supported',
     origin TEXT NOT NULL DEFAULT 'system', ingest_source TEXT NOT NULL, statement TEXT NOT NULL,
     summary TEXT, payload_json TEXT, created_at_utc TEXT NOT NULL, updated_at_utc TEXT NOT NULL,
     last_verified_at_utc TEXT, expires_at_utc TEXT, created_by TEXT NOT NULL, verified_by TEXT,
     approved_by TEXT, approved_at_utc TEXT, report_digest TEXT, code_fingerprint TEXT,
     stale_reason TEXT, created_on_branch TEXT, created_at_commit TEXT, verified_on_branch TEXT,
     verified_at_commit TEXT, schema_version TEXT NOT NULL,
     FOREIGN KEY (project_id) REFERENCES memory_projects (id))`,
  `CREATE TABLE memory_subjects (
     id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, subject_kind TEXT NOT NULL, subject_key TEXT NOT NULL,
     relation TEXT NOT NULL DEFAULT 'about',
     FOREIGN KEY (memory_id) REFERENCES memory_records (id) ON DELETE CASCADE)`,
  `CREATE TABLE memory_evidence (
     id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, evidence_kind TEXT NOT NULL, ref TEXT NOT NULL,
     locator TEXT, quote TEXT, digest TEXT, created_at_utc TEXT NOT NULL,
     FOREIGN KEY (memory_id) REFERENCES memory_records (id) ON DELETE CASCADE)`,
  `CREATE TABLE memory_links (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL, from_memory_id TEXT NOT NULL, to_memory_id TEXT NOT NULL,
     relation TEXT NOT NULL, created_by TEXT NOT NULL DEFAULT 'system', created_at_utc TEXT NOT NULL,
     FOREIGN KEY (project_id) REFERENCES memory_projects (id),
     FOREIGN KEY (from_memory_id) REFERENCES memory_records (id) ON DELETE CASCADE,
     FOREIGN KEY (to_memory_id) REFERENCES memory_records (id) ON DELETE CASCADE)`,
  `CREATE TABLE memory_ingestion_runs (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL, mode TEXT NOT NULL, started_at_utc TEXT NOT NULL,
     finished_at_utc TEXT, status TEXT NOT NULL DEFAULT 'running', analysis_fingerprint TEXT,
     report_digest TEXT, branch TEXT, "commit" TEXT, records_created INTEGER NOT NULL DEFAULT 0,
     records_updated INTEGER NOT NULL DEFAULT 0, records_marked_stale INTEGER NOT NULL DEFAULT 0,
     candidates_created INTEGER NOT NULL DEFAULT 0, contradictions_found INTEGER NOT NULL DEFAULT 0,
     message TEXT, FOREIGN KEY (project_id) REFERENCES memory_projects (id))`,
  `CREATE TABLE memory_revisions (
     id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, revision_number INTEGER NOT NULL,
     previous_statement TEXT, new_statement TEXT NOT NULL, previous_payload TEXT, new_payload TEXT,
     reason TEXT, changed_by TEXT NOT NULL, changed_at_utc TEXT NOT NULL, branch TEXT, "commit" TEXT,
     FOREIGN KEY (memory_id) REFERENCES memory_records (id) ON DELETE CASCADE)`,
  `CREATE UNIQUE INDEX idx_records_identity ON memory_records (project_id, identity_key)`,
  `CREATE INDEX idx_records_status ON memory_records (status)`,
  `CREATE INDEX idx_records_origin ON memory_records (origin)`,
  `CREATE INDEX idx_evidence_memory ON memory_evidence (memory_id)`,
  `CREATE INDEX idx_subjects_memory ON memory_subjects (memory_id)`,
  `CREATE INDEX idx_links_from ON memory_links (from_memory_id)`,
  `CREATE INDEX idx_links_to ON memory_links (to_memory_id)`,
  `CREATE VIRTUAL TABLE memory_records_fts USING fts5(
     memory_id UNINDEXED, project_id UNINDEXED, record_type UNINDEXED, ingest_source UNINDEXED,
     status UNINDEXED, search_text, tokenize='unicode61 remove_diacritics 2')`,
];

const TYPES = ['module_role', 'contract_note', 'test_anchor', 'risk_note', 'architecture_decision', 'human_note'];
const PROJECT_ID = 'proj-fixture0001';
const T0 = Date.parse('2026-06-01T10:00:00Z');

/** Deterministic codeclone-style id: `mem-` + 32 hex digits. */
export function fixtureId(name: string, prefix = 'mem'): string {
  return `${prefix}-${crypto.createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
}

function at(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

export interface FixtureRecord {
  name: string;
  status: string;
  confidence: string;
  origin: string;
  approvedBy?: string | null;
  staleReason?: string | null;
  statement?: string;
}

/** The named records the tests check one by one (beside the full matrix). */
export const NAMED: FixtureRecord[] = [
  { name: 'approved', status: 'active', confidence: 'supported', origin: 'agent', approvedBy: 'maintainer' },
  { name: 'verified-system', status: 'active', confidence: 'verified', origin: 'system' },
  { name: 'active-inferred', status: 'active', confidence: 'inferred', origin: 'agent' },
  { name: 'draft', status: 'draft', confidence: 'inferred', origin: 'agent' },
  {
    name: 'stale-approved',
    status: 'stale',
    confidence: 'supported',
    origin: 'human',
    approvedBy: 'maintainer',
    staleReason: 'scope files changed: src/billing/ledger.py',
  },
  {
    name: 'stale-plain',
    status: 'stale',
    confidence: 'supported',
    origin: 'system',
    staleReason: 'refresh drift: code fingerprint 4f1e…',
  },
  { name: 'stale-noreason', status: 'stale', confidence: 'inferred', origin: 'system', staleReason: null },
  { name: 'historical', status: 'historical', confidence: 'verified', origin: 'system' },
  {
    name: 'rejected',
    status: 'rejected',
    confidence: 'inferred',
    origin: 'agent',
    staleReason: 'duplicate of an approved note',
  },
  { name: 'archived', status: 'archived', confidence: 'supported', origin: 'human', approvedBy: 'maintainer' },
  { name: 'chain-v1', status: 'superseded', confidence: 'supported', origin: 'system' },
  { name: 'chain-v2', status: 'superseded', confidence: 'supported', origin: 'system' },
  { name: 'chain-v3', status: 'active', confidence: 'supported', origin: 'system' },
  { name: 'claim-a', status: 'active', confidence: 'verified', origin: 'system' },
  { name: 'claim-b', status: 'draft', confidence: 'inferred', origin: 'agent' },
];

/** Links between named records: [from, to, relation]. */
export const NAMED_LINKS: [string, string, string][] = [
  ['chain-v2', 'chain-v1', 'supersedes'],
  ['chain-v3', 'chain-v2', 'supersedes'],
  ['claim-a', 'claim-b', 'contradicts'],
];

export interface FixtureOptions {
  /** Extra generated records for volume (the bench), default 0. */
  records?: number;
  /** Value of memory_meta.schema_version, default the version tested. */
  schemaVersion?: string;
  /**
   * `live`: return the writing connection still open, its commits left in the -wal
   * (as while codeclone runs). `closed` (default): close it, SQLite folds the -wal in.
   */
  wal?: 'live' | 'closed';
}

export interface Fixture {
  project: string;
  store: string;
  /** Record id per named record and per matrix cell `m-<status>-<confidence>-<origin>`. */
  ids: Record<string, string>;
  count: number;
  /** Open only with `wal: 'live'`; the caller closes it. */
  writer: Database.Database | null;
}

export function matrixName(status: string, confidence: string, origin: string): string {
  return `m-${status}-${confidence}-${origin}`;
}

export function buildGovernedFixture(project: string, opts: FixtureOptions = {}): Fixture {
  const store = path.join(project, STORE_REL);
  fs.mkdirSync(path.dirname(store), { recursive: true });
  const db = new Database(store);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  for (const s of DDL) db.exec(s);
  const meta = db.prepare('INSERT INTO memory_meta (key, value) VALUES (?, ?)');
  const version = opts.schemaVersion ?? TESTED_SCHEMA;
  db.transaction(() => {
    meta.run('schema_version', version);
    meta.run('created_at_utc', at(0));
    meta.run('updated_at_utc', at(0));
    meta.run('codeclone_version', '0.0.0-fixture');
    db.prepare('INSERT INTO memory_schema_migrations VALUES (?, ?)').run(version, at(0));
    db.prepare(
      'INSERT INTO memory_projects (id, root, git_branch, git_head, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(PROJECT_ID, project, 'main', '0123456789abcdef0123456789abcdef01234567', at(0), at(0));
  })();
  if (opts.wal === 'live') db.pragma('wal_autocheckpoint = 0');

  const insRecord =
    db.prepare(`INSERT INTO memory_records (id, project_id, identity_key, type, status, confidence, origin,
    ingest_source, statement, summary, created_at_utc, updated_at_utc, last_verified_at_utc, created_by, verified_by,
    approved_by, approved_at_utc, stale_reason, created_on_branch, schema_version)
    VALUES (@id, @project, @identity, @type, @status, @confidence, @origin, @ingest, @statement, @summary, @created, @updated,
    @verified, @createdBy, @verifiedBy, @approvedBy, @approvedAt, @staleReason, 'main', @version)`);
  const insEvidence = db.prepare('INSERT INTO memory_evidence VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insLink = db.prepare('INSERT INTO memory_links VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insSubject = db.prepare('INSERT INTO memory_subjects VALUES (?, ?, ?, ?, ?)');
  const insFts = db.prepare('INSERT INTO memory_records_fts VALUES (?, ?, ?, ?, ?, ?)');

  const ids: Record<string, string> = {};
  let n = 0;
  let ev = 0;
  const add = (r: FixtureRecord, withFts: boolean) => {
    const id = fixtureId(r.name);
    ids[r.name] = id;
    const i = n++;
    const statement =
      r.statement ?? `Fixture note ${r.name}: module src/pkg${i % 40}/mod${i}.py keeps its public surface stable.`;
    const approvedBy = r.approvedBy ?? null;
    insRecord.run({
      id,
      project: PROJECT_ID,
      identity: `fixture:${r.name}`,
      type: TYPES[i % TYPES.length],
      status: r.status,
      confidence: r.confidence,
      origin: r.origin,
      ingest: r.origin === 'system' ? 'analysis' : r.origin,
      statement,
      summary: i % 3 === 0 ? null : `summary ${i}`,
      created: at(i),
      updated: at(i + 1),
      verified: r.confidence === 'verified' ? at(i + 2) : null,
      createdBy: r.origin === 'human' ? 'maintainer' : r.origin,
      verifiedBy: r.confidence === 'verified' ? 'analysis' : null,
      approvedBy,
      approvedAt: approvedBy ? at(i + 3) : null,
      staleReason: r.staleReason ?? null,
      version,
    });
    // One or two evidence rows per record, cycling through every kind.
    for (let k = 0; k < 1 + (i % 2); k++) {
      const kind = EVIDENCE_KINDS[ev++ % EVIDENCE_KINDS.length]!;
      insEvidence.run(
        fixtureId(`${r.name}#ev${k}`, 'ev'),
        id,
        kind,
        `src/pkg${i % 40}/mod${i}.py`,
        `L${10 + k}-L${20 + k}`,
        k ? null : 'def public_api(): ...',
        `sha256:${fixtureId(`${r.name}${k}`, 'd').slice(2)}`,
        at(i),
      );
    }
    insSubject.run(fixtureId(`${r.name}#subj`, 'subj'), id, 'path', `src/pkg${i % 40}/mod${i}.py`, 'about');
    if (withFts) insFts.run(id, PROJECT_ID, TYPES[i % TYPES.length], 'analysis', r.status, statement);
    return id;
  };
  const link = (from: string, to: string, relation: string, i: number) =>
    insLink.run(fixtureId(`${from}>${relation}>${to}`, 'link'), PROJECT_ID, from, to, relation, 'system', at(i));

  db.transaction(() => {
    for (const r of NAMED) add(r, true);
    for (const s of STATUSES)
      for (const c of CONFIDENCES)
        for (const o of ORIGINS)
          add(
            {
              name: matrixName(s, c, o),
              status: s,
              confidence: c,
              origin: o,
              staleReason: s === 'stale' ? `drift in ${c}/${o}` : null,
            },
            true,
          );
    for (const [i, [f, t, rel]] of NAMED_LINKS.entries()) link(ids[f]!, ids[t]!, rel, i);
    // Every other relation once, between matrix records (none of them contradicts or supersedes).
    const m = (k: number) => ids[matrixName(STATUSES[k % 7]!, CONFIDENCES[k % 3]!, ORIGINS[(k >> 1) % 3]!)]!;
    for (const [k, rel] of LINK_RELATIONS.filter((r) => r !== 'contradicts' && r !== 'supersedes').entries())
      link(m(k), m(k + 5), rel, 100 + k);
  })();

  const bulk = opts.records ?? 0;
  const CHUNK = 5000;
  for (let start = 0; start < bulk; start += CHUNK) {
    db.transaction(() => {
      for (let j = start; j < Math.min(bulk, start + CHUNK); j++) {
        const status = STATUSES[j % 7]!;
        const id = add(
          {
            name: `bulk-${j}`,
            status,
            confidence: CONFIDENCES[j % 3]!,
            origin: ORIGINS[(j >> 2) % 3]!,
            approvedBy: j % 5 === 0 ? 'maintainer' : null,
            staleReason: status === 'stale' ? 'refresh drift' : null,
          },
          false,
        );
        if (j % 10 === 9) link(id, ids[`bulk-${j - 1}`]!, j % 20 === 19 ? 'contradicts' : 'related_to', j);
        if (j % 50 === 49) link(id, ids[`bulk-${j - 7}`]!, 'supersedes', j);
      }
    })();
  }

  if (opts.wal === 'live') return { project, store, ids, count: n, writer: db };
  db.close();
  return { project, store, ids, count: n, writer: null };
}

if (require.main === module && /governed[/]test-fixtures\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) {
    process.stderr.write('usage: npx tsx lib/sources/governed/test-fixtures.ts DIR [--records N] [--live]\n');
    process.exit(64);
  }
  const ri = args.indexOf('--records');
  const f = buildGovernedFixture(path.resolve(dir), {
    records: ri >= 0 ? Number(args[ri + 1]) : 0,
    wal: args.includes('--live') ? 'live' : 'closed',
  });
  process.stdout.write(`${f.store}: ${f.count} records\n`);
  if (f.writer) {
    process.stdout.write('holding the store open (as codeclone would); Ctrl-C to stop\n');
    setInterval(() => undefined, 1 << 30);
  }
}

/**
 * The fixture of lib/sources/adapter-contract.test.ts: a project folder `dir` with the
 * full store (every status, confidence and origin; evidence, links), the writer closed.
 */
export function writeContractFixture(dir: string): void {
  buildGovernedFixture(dir);
}
