import { chromium } from '@playwright/test';
(async () => {
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const p = await b.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: 'dark' });
  await p.goto('http://127.0.0.1:36869/audit/charts'); await p.waitForTimeout(800);
  await p.screenshot({ path: '/tmp/mt5/charts-dark.png' });
  await p.goto('http://127.0.0.1:36869/audit?actor=validator'); await p.screenshot({ path: '/tmp/mt5/audit-dark.png' });
  await b.close();
})();
