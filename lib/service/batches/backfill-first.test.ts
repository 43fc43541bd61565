/** After a root's first backfill, files without trust-level back-fill inferred (docs/hooks.md). */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { removeSandbox, runCli, sandbox, type Sandbox } from '../test-support';

let sb: Sandbox;
const user = (name: string) =>
  `---\nname: ${name}\ndescription: a note from the owner\ntype: user\n---\nThe owner prefers short answers with the command first.\n`;

beforeEach(() => {
  sb = sandbox('memtrust-backfill-first-');
  fs.mkdirSync(path.join(sb.root, 'memories'));
});
afterEach(() => removeSandbox(sb));

it('the first backfill uses the type defaults and leaves a marker in the root; later unstamped files are inferred', () => {
  fs.writeFileSync(path.join(sb.root, 'memories', 'user_one.md'), user('one'));
  fs.writeFileSync(path.join(sb.root, 'memories', 'user_two.md'), user('two'));
  runCli(['scan'], sb.env);
  const first = runCli(['backfill', '--apply'], sb.env);
  expect(first.status).toBe(0);
  // Both files of the first run are verified: the marker written after the first one does not change the second.
  for (const f of ['user_one.md', 'user_two.md'])
    expect(fs.readFileSync(path.join(sb.root, 'memories', f), 'utf8')).toContain('trust-level: verified');
  const marker = JSON.parse(fs.readFileSync(path.join(sb.root, '.memtrust', 'backfill.json'), 'utf8'));
  expect(marker).toMatchObject({ v: 1, firstBackfillAt: '2026-11-22T12:00:00.000Z' });

  fs.writeFileSync(path.join(sb.root, 'memories', 'user_three.md'), user('three'));
  runCli(['scan'], sb.env);
  const dry = runCli(['backfill', '--json'], sb.env);
  // The dry run is a batch plan (docs/batches.md): each file, where it goes, and why.
  const plan = JSON.parse(dry.stdout).plan as { files: { file: string; to: string; note: string }[] };
  expect(plan.files).toEqual([
    expect.objectContaining({
      file: 'memories/user_three.md',
      to: 'inferred',
      note: expect.stringContaining('new since the first backfill'),
    }),
  ]);
  // Even with the database gone, the root remembers.
  fs.rmSync(sb.db);
  runCli(['scan'], sb.env);
  expect(runCli(['backfill', '--apply', '--tier', 'user_three.md=verified'], sb.env).status).toBe(0);
  const three = fs.readFileSync(path.join(sb.root, 'memories', 'user_three.md'), 'utf8');
  expect(three).toContain('trust-level: inferred');
  expect(three).not.toContain('last-verified');
});
