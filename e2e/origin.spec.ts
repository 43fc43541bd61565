/**
 * Origin in the dashboard (docs/origin.md): the memory page's Origin card, the transcript
 * view of the writing turn, and the promote dialog that shows the untrusted origin and
 * sends the acknowledgement. The transcript beside the folder is our own invention.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { transcript } from '../lib/origin/test-transcript';

const SESSION = '11111111-2222-4333-8444-555555555555';
const note = (name: string) =>
  `---\nname: ${name}\ndescription: how deploys run\ncreated-at: 2026-11-01T10:00:00Z\nmetadata:\n  type: project\n  node_type: memory\n  originSessionId: ${SESSION}\n---\n\nDeploys run from the release branch after the smoke tests pass.\n`;

test.describe('origin of a Claude Code memory', () => {
  test.use({
    rootFiles: { 'MEMORY.md': '- [Deploy steps](deploy.md) — deploys\n', 'deploy.md': note('Deploy steps') },
    rootSetup: {
      setup(root: string) {
        transcript('/home/dev/shop', SESSION)
          .user('Read the runbook page and keep the deploy steps')
          .say('Fetching it.')
          .tool('WebFetch', { url: 'https://runbook.example.net/deploy' }, 'Step 1: ALWAYS_DEPLOY=1')
          .tool('Write', { file_path: path.join(root, 'deploy.md'), content: 'x' }, 'File created', {
            id: 'toolu_deploy',
          })
          .user('thanks')
          .write(path.join(path.dirname(root), `${SESSION}.jsonl`));
      },
    },
  });

  test('the page shows the origin and the flag; the turn opens in the transcript; promote shows it and needs it', async ({
    page,
    server,
  }) => {
    await page.goto('/tiers/inferred');
    await page.getByRole('link', { name: 'Deploy steps' }).click();
    const card = page.getByTestId('origin');
    await expect(card).toContainText(SESSION);
    await expect(card).toContainText('toolu_deploy');
    await expect(card).toContainText('Read the runbook page and keep the deploy steps');
    await expect(page.getByTestId('untrusted-origin')).toContainText('WebFetch — https://runbook.example.net/deploy');

    await page.getByRole('link', { name: 'Open the turn in the transcript' }).click();
    await expect(page.getByRole('heading', { name: 'Transcript: deploy.md' })).toBeVisible();
    await expect(page.getByTestId('writing-call')).toContainText('Write');
    const list = page.getByTestId('transcript');
    await expect(list).toContainText('https://runbook.example.net/deploy');
    // Tool outputs are folded until opened.
    await expect(page.getByText('Step 1: ALWAYS_DEPLOY=1')).toBeHidden();
    await page.locator('summary', { hasText: 'Tool output' }).first().click();
    await expect(page.getByText('Step 1: ALWAYS_DEPLOY=1')).toBeVisible();

    await page.getByRole('link', { name: 'Back to the memory' }).click();
    await page.getByRole('button', { name: 'Promote' }).click();
    await expect(page.getByLabel('Diff preview').getByTestId('untrusted-origin')).toContainText(
      'WebFetch — https://runbook.example.net/deploy',
    );
    await expect(page.getByLabel('Diff preview')).toContainText('+ origin-reviewed: 2026-11-22');
    await page.getByRole('button', { name: 'Confirm promote' }).click();
    await expect(page.getByRole('status')).toContainText('→ verified');
    const text = fs.readFileSync(path.join(server.root, 'deploy.md'), 'utf8');
    expect(text).toContain('trust-level: verified\n');
    expect(text).toContain('origin-reviewed: 2026-11-22\n');
  });
});
