/** Settings shows whether memtrust's Claude Code hooks are installed, and what to paste (docs/hooks.md). */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT, startServer, tempDir } from './server';
import { shot } from './fixtures';
import { memory } from './memory-files';

test('the settings page shows each hook as missing, then installed after `hook install --apply`', async ({ page }) => {
  const dir = tempDir();
  const root = path.join(dir, 'root');
  fs.mkdirSync(path.join(root, 'memories'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'memories', 'user_role.md'),
    memory(
      { name: 'Role', description: 'backend engineer', type: 'user' },
      'The user is a backend engineer focused on observability.',
    ),
  );
  const home = path.join(dir, 'home');
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ model: 'opus' }));
  const server = await startServer({ root, dir, env: { HOME: home } });
  try {
    await page.goto(`${server.baseURL}/settings`);
    const section = page.getByRole('region', { name: 'Claude Code hooks' });
    await expect(section).toContainText(path.join(home, '.claude', 'settings.json'));
    for (const event of ['SessionStart', 'PreToolUse', 'PostToolUse']) {
      await expect(section.locator(`[data-hook="${event}"]`)).toContainText('not installed');
    }
    const cli = path.join(PROJECT, 'lib', 'cli', 'memtrust.cjs');
    await section.getByText('Entries to paste by hand').click();
    await expect(section.getByTestId('hook-entries')).toContainText(`${cli} hook pre-write`);
    await expect(section).toContainText(`${cli} hook install --apply`);

    const r = spawnSync(process.execPath, [cli, 'hook', 'install', '--apply'], {
      env: { ...server.env, HOME: home },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    await page.reload();
    for (const event of ['SessionStart', 'PreToolUse', 'PostToolUse']) {
      await expect(section.locator(`[data-hook="${event}"]`)).toContainText('installed');
      await expect(section.locator(`[data-hook="${event}"]`)).not.toContainText('not installed');
    }
    await page.screenshot({ path: shot('settings-hooks'), fullPage: true });
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
