import http from 'node:http';
import { test, expect, shot } from './fixtures';
import { memory } from './memory-files';

function raw(
  port: number,
  opts: { method: string; host: string; origin?: string; path?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method,
        path: opts.path ?? '/',
        headers: { Host: opts.host, ...(opts.origin ? { Origin: opts.origin } : {}), 'Content-Type': 'text/plain' },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      },
    );
    req.on('error', reject);
    req.end(opts.method === 'POST' ? 'x' : undefined);
  });
}

test.describe('hostile input', () => {
  test.use({
    rootFiles: {
      'memories/feedback_payloads.md': memory(
        {
          name: 'Payload memory',
          description: 'renders inert',
          type: 'feedback',
          'trust-level': 'verified',
          'last-verified': '2026-11-20',
          'created-at': '2026-11-01T00:00:00Z',
          'source-machine': 'x',
        },
        '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n[click me](javascript:window.__pwned=3)\n\n**Why:** tests. **How to apply:** never run it.',
      ),
    },
  });

  test('a memory with script, onerror and javascript: payloads renders inert', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto('/tiers/verified');
    await page.getByRole('link', { name: 'Payload memory' }).click();
    await expect(page.getByRole('heading', { name: 'Payload memory' })).toBeVisible();
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.locator('main img[onerror]').count()).toBe(0);
    const link = page.getByRole('link', { name: 'click me' });
    if (await link.count()) {
      expect(await link.getAttribute('href')).not.toMatch(/javascript:/i);
      await link.click().catch(() => {});
    }
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    const headers = (await page.request.get('/')).headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.screenshot({ path: shot('payload-inert'), fullPage: true });
  });

  test('foreign Host and cross-origin POST are refused before the app runs', async ({ server }) => {
    expect((await raw(server.port, { method: 'GET', host: 'evil.test' })).status).toBe(421);
    expect((await raw(server.port, { method: 'GET', host: `evil.test:${server.port}` })).status).toBe(421);
    expect((await raw(server.port, { method: 'GET', host: `127.0.0.1:${server.port}` })).status).toBe(200);
    expect(
      (await raw(server.port, { method: 'POST', host: `127.0.0.1:${server.port}`, origin: 'http://evil.test' })).status,
    ).toBe(403);
    expect((await raw(server.port, { method: 'POST', host: `127.0.0.1:${server.port}`, origin: 'null' })).status).toBe(
      403,
    );
    expect((await raw(server.port, { method: 'POST', host: `127.0.0.1:${server.port}` })).status).toBe(403);
  });
});
