/**
 * Memories of the file layouts carry the record fields every layout carries
 * (CONTRACT §9; docs/records.md, "File layouts"): `native` and `flags` with their
 * reasons, in `list --json` and `show --json`, through the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFile, put, removeSandbox, runCli, sandbox, type Sandbox } from '../service/test-support';

let sb: Sandbox;
const json = (args: string[]) => {
  const r = runCli([...args, '--json'], sb.env);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const fields = (extra: Array<[string, string]>): Array<[string, string]> => [
  ['name', 'a memory'],
  ['description', 'for the record fields'],
  ['type', 'user'],
  ['created-at', '2026-01-05T09:00:00Z'],
  ...extra,
];

beforeAll(() => {
  sb = sandbox('memtrust-file-records-');
  // Verified and last re-affirmed in June: past the 90 days at the sandbox's now.
  put(
    sb.root,
    'memories/user_old_rule.md',
    memoryFile(
      fields([
        ['trust-level', 'verified'],
        ['last-verified', '2026-06-01T00:00:00Z'],
      ]),
      '\nUse tabs.\n',
    ),
  );
  put(sb.root, 'memories/user_plain.md', memoryFile(fields([]), '\nNo trust fields at all.\n'));
  // The same name in memories/ and quarantine/: a conflict.
  put(sb.root, 'memories/user_twice.md', memoryFile(fields([['trust-level', 'inferred']]), '\nOne copy.\n'));
  put(sb.root, 'quarantine/user_twice.md', memoryFile(fields([['trust-level', 'quarantined']]), '\nThe other copy.\n'));
});
afterAll(() => removeSandbox(sb));

describe('file layouts as records', () => {
  it('list --json gives every memory its native state and flags', () => {
    const items = json(['list']).items as Array<Record<string, unknown>>;
    const byFile = new Map(items.map((i) => [i.file, i]));
    expect(byFile.get('memories/user_old_rule.md')).toMatchObject({
      layout: 'trust-root',
      native: 'memories/verified',
      tier: 'verified',
      flags: ['stale'],
      flagReasons: { stale: expect.stringMatching(/^last verified \d+ days ago \(stale after 90\)$/) },
    });
    expect(byFile.get('memories/user_plain.md')).toMatchObject({ native: 'memories/none', flags: [] });
    expect(byFile.get('memories/user_twice.md')).toMatchObject({ native: 'memories/inferred', flags: ['conflict'] });
    expect(byFile.get('quarantine/user_twice.md')).toMatchObject({
      native: 'quarantine/quarantined',
      flags: ['conflict'],
      flagReasons: { conflict: 'the same file name is in memories/ and in quarantine/' },
    });
  });

  it('show --json carries the same fields', () => {
    expect(json(['show', 'user_old_rule.md'])).toMatchObject({
      layout: 'trust-root',
      key: 'user_old_rule.md',
      native: 'memories/verified',
      flags: ['stale'],
    });
    expect(json(['show', 'user_plain.md'])).toMatchObject({ native: 'memories/none', flags: [], flagReasons: {} });
  });
});
