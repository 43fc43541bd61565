import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { memory } from './memory-files';

const body =
  'Tests must hit a real database.\n\n**Why:** mocks hid a broken migration.\n\n**How to apply:** use the docker database.';
const files: Record<string, string> = {
  'MEMORY.md':
    '- [Real DB](feedback_real_db.md) — tests hit a real database\n- [Role](user_role.md) — backend engineer\n',
  'feedback_real_db.md': memory({ name: 'Real DB', description: 'tests hit a real database', type: 'feedback' }, body),
  'user_role.md': memory(
    { name: 'Role', description: 'backend engineer', type: 'user' },
    'The user is a backend engineer focused on observability.',
  ),
  'project_unlisted.md': memory({ name: 'Unlisted', description: 'not in the index', type: 'project' }, body),
};

test.describe('a Claude Code memory folder', () => {
  test.use({ rootFiles: files });

  test('is read as a root: files without trust-level are backfill candidates, unlisted ones are not loaded', async ({
    page,
    server,
  }) => {
    await page.goto('/');
    await expect(page.getByText(/Claude Code memory folder · MEMORY.md 2 lines/)).toBeVisible();
    await page.goto('/tiers/inferred');
    await expect(page.getByRole('link', { name: 'Unlisted' })).toBeVisible();
    await expect(page.getByText('not named in MEMORY.md: not loaded')).toHaveCount(1);
    // Demoting removes the index line; the file moves into quarantine/ inside the folder.
    await page.getByRole('link', { name: 'Real DB' }).click();
    await page.getByRole('button', { name: 'Demote' }).click();
    await page.getByLabel('Why demote this memory?').fill('outdated');
    await page.getByRole('button', { name: 'Confirm demote' }).click();
    await expect(page.getByRole('status')).toContainText('→ quarantined');
    expect(fs.existsSync(path.join(server.root, 'quarantine/feedback_real_db.md'))).toBe(true);
    expect(fs.readFileSync(path.join(server.root, 'MEMORY.md'), 'utf8')).toBe(
      '- [Role](user_role.md) — backend engineer\n',
    );
  });
});
