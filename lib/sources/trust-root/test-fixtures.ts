/**
 * A small trust-model root for the adapter contract (lib/sources/adapter-contract.test.ts)
 * and the same-index test (lib/service/index/same-index.test.ts): every folder, every tier,
 * one memory the trust rules let be promoted, and one whose frontmatter YAML cannot parse
 * (the one read problem planted). Every value is made up.
 */
import fs from 'node:fs';
import path from 'node:path';

export const contractProblems = 1;

const md = (fields: [string, string][], body: string) =>
  `---\n${fields.map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n${body}`;

export const TRUST_ROOT_FILES: Record<string, string> = {
  'memories/feedback_merge.md': md(
    [
      ['name', 'Merge rule'],
      ['description', 'wait for green'],
      ['type', 'feedback'],
      ['trust-level', 'verified'],
      ['created-at', '2026-09-01T09:00:00Z'],
      ['last-verified', '2026-11-01T09:00:00Z'],
    ],
    'Never merge on red: wait for the whole pipeline to pass.\n',
  ),
  'memories/project_release.md': md(
    [
      ['name', 'Release day'],
      ['description', 'releases on Thursdays'],
      ['type', 'project'],
      ['trust-level', 'inferred'],
      ['created-at', '2026-11-01T09:00:00Z'],
    ],
    'Releases are cut on Thursdays after the integration suite passes.\n',
  ),
  'memories/user_broken.md':
    '---\nname: Broken\ndescription: [unclosed\ntype: user\n---\nThe YAML above does not parse.\n',
  'quarantine/reference_host.md': md(
    [
      ['name', 'Old host'],
      ['description', 'a host that moved'],
      ['type', 'reference'],
      ['trust-level', 'quarantined'],
      ['created-at', '2026-10-01T09:00:00Z'],
      ['quarantined-at', '2026-11-20T09:00:00Z'],
      ['quarantine-reason', 'the host moved'],
    ],
    'The build host is build-old.example.test.\n',
  ),
  'archive/2026-10/user_role.md': md(
    [
      ['name', 'Role'],
      ['description', 'terse answers'],
      ['type', 'user'],
      ['trust-level', 'inferred'],
      ['created-at', '2026-08-01T09:00:00Z'],
    ],
    'The user prefers terse answers with commands.\n',
  ),
};

export function writeContractFixture(dir: string): void {
  for (const [rel, text] of Object.entries(TRUST_ROOT_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}
