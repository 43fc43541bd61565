/**
 * A small Claude Code memory folder for the adapter contract (lib/sources/adapter-contract.test.ts)
 * and the same-index test (lib/service/index/same-index.test.ts), in the shapes real folders
 * have (docs/layouts.md): a MEMORY.md index, `metadata:`-nested and flat frontmatter, a file
 * without frontmatter (the one read problem planted), a quarantine and an archive. Every
 * value is made up.
 */
import fs from 'node:fs';
import path from 'node:path';

export const contractProblems = 1;

export const CLAUDE_CODE_FILES: Record<string, string> = {
  'MEMORY.md':
    '- [Tabs](feedback_tabs.md) — indentation\n- [Release](project_release.md) — release day\n- [Notes](notes.md) — loose notes\n',
  'feedback_tabs.md':
    '---\nname: Tabs\ndescription: indentation\nmetadata:\n  type: feedback\n  originSessionId: 7f3c2a10-0000-4000-8000-000000000001\n---\nIndent with two spaces, never tabs.\n',
  'project_release.md':
    '---\nname: Release\ndescription: release day\ntype: project\ntrust-level: inferred\ncreated-at: 2026-11-01T09:00:00Z\n---\nReleases are cut on Thursdays.\n',
  'notes.md': 'Loose notes without frontmatter.\n',
  'quarantine/reference_old.md':
    '---\nname: Old host\ndescription: a host that moved\ntype: reference\ntrust-level: quarantined\nquarantined-at: 2026-11-20T09:00:00Z\n---\nThe build host is build-old.example.test.\n',
  'archive/2026-10/user_role.md':
    '---\nname: Role\ndescription: terse answers\ntype: user\n---\nThe user prefers terse answers.\n',
};

export function writeContractFixture(dir: string): void {
  for (const [rel, text] of Object.entries(CLAUDE_CODE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}
