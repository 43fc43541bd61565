/**
 * Journals written by the previous version (`v: 1` intents, no aside step) still
 * recover after an upgrade (docs/crash-safety.md, "Journal"): the states that
 * version could leave behind when killed — temp copy written; new copy linked with
 * the source still in place; source removed — are rolled back or forward by the
 * next CLI run exactly as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MACHINE,
  NOW,
  journalFiles,
  memoryFile,
  placements,
  put,
  readAudit,
  removeSandbox,
  runCli,
  sandbox,
  sha,
  tmpFiles,
  type Sandbox,
} from '../test-support';

const NAME = 'feedback_deploy_order.md';
const FIELDS: [string, string][] = [
  ['name', 'Deploy order'],
  ['description', 'staging first'],
  ['type', 'feedback'],
  ['created-at', '2026-10-01T00:00:00Z'],
];
const BODY = '\nDeploys go through the staging cluster first.\n\n**Why:** a bad migration once.\n';
const BEFORE = memoryFile([...FIELDS, ['trust-level', 'inferred']], BODY);
const AFTER = memoryFile(
  [...FIELDS, ['trust-level', 'quarantined'], ['quarantine-reason', 'wrong'], ['quarantined-at', '2026-11-22']],
  BODY,
);
const OP = 'op-v1';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox('memtrust-v1-');
  put(sb.root, `memories/${NAME}`, BEFORE);
});
afterEach(() => removeSandbox(sb));

/** The intent exactly as the previous version wrote it. */
function writeV1Intent() {
  const intent = {
    v: 1,
    op: OP,
    machine: MACHINE,
    src: `memories/${NAME}`,
    dst: `quarantine/${NAME}`,
    tmp: `quarantine/.${NAME}.${OP}.tmp`,
    beforeSha: sha(BEFORE),
    afterSha: sha(AFTER),
    event: {
      v: 1,
      id: OP,
      at: NOW.replace('.000', ''),
      machine: MACHINE,
      actor: 'user:cli',
      action: 'demote',
      memory: NAME,
      from: 'inferred',
      to: 'quarantined',
      reason: 'wrong',
      findings: [],
      before_sha256: sha(BEFORE),
      after_sha256: sha(AFTER),
      recovered: false,
    },
  };
  put(sb.root, `.memtrust/journal/${MACHINE}-${OP}.json`, JSON.stringify(intent));
}

function recovered(expectAt: string, bytes: Buffer, events: number) {
  const r = runCli(['list', '--json'], sb.env);
  expect(r.status, r.stderr).toBe(0);
  expect(placements(sb.root).get(NAME)).toEqual([expectAt]);
  expect(fs.readFileSync(path.join(sb.root, expectAt)).equals(bytes)).toBe(true);
  expect(readAudit(sb.root).filter((e) => e.id === OP)).toHaveLength(events);
  expect(journalFiles(sb.root)).toEqual([]);
  expect(tmpFiles(sb.root)).toEqual([]);
  return r;
}

describe("a previous version's unfinished demote recovers after the upgrade", () => {
  it('killed after writing its temp copy: rolled back', () => {
    writeV1Intent();
    put(sb.root, `quarantine/.${NAME}.${OP}.tmp`, AFTER);
    const r = recovered(`memories/${NAME}`, BEFORE, 0);
    expect(r.stderr).toMatch(/undone; the file is as it was/);
  });

  it('killed after linking the new copy, source still in place: rolled forward, recorded as recovered', () => {
    writeV1Intent();
    const tmp = put(sb.root, `quarantine/.${NAME}.${OP}.tmp`, AFTER);
    fs.linkSync(tmp, path.join(sb.root, 'quarantine', NAME));
    const r = recovered(`quarantine/${NAME}`, AFTER, 1);
    expect(r.stderr).toMatch(/completed after an interruption/);
    expect(readAudit(sb.root)[0]).toMatchObject({ id: OP, recovered: true });
  });

  it('killed after removing the source: rolled forward', () => {
    writeV1Intent();
    put(sb.root, `quarantine/${NAME}`, AFTER);
    fs.rmSync(path.join(sb.root, 'memories', NAME));
    recovered(`quarantine/${NAME}`, AFTER, 1);
  });

  it('the source edited since: left untouched and reported as a conflict', () => {
    writeV1Intent();
    put(sb.root, `quarantine/${NAME}`, AFTER);
    const edited = Buffer.concat([BEFORE, Buffer.from('\nedited later\n')]);
    put(sb.root, `memories/${NAME}`, edited);
    const r = runCli(['list', '--json'], sb.env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/both kept, resolve by hand/);
    expect(fs.readFileSync(path.join(sb.root, 'memories', NAME)).equals(edited)).toBe(true);
    expect(journalFiles(sb.root)).toHaveLength(1);
  });
});
