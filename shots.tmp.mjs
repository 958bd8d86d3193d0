import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const scheme of ['light', 'dark']) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
  await page.goto('http://127.0.0.1:5191/?example=airline');
  await page.waitForTimeout(1500);
  await page.keyboard.press('Alt+4');
  const replay = page.getByRole('region', { name: 'Replay', exact: true });
  await replay.getByTestId('replay-import').setInputFiles('e2e/fixtures/airline-run.json');
  await page.waitForTimeout(800);
  await replay.getByTestId('replay-import').setInputFiles('e2e/fixtures/airline-run-b.json');
  await page.waitForTimeout(800);
  await page.keyboard.press('Alt+3');
  const sim = page.locator('section[data-pane="simulate"]');
  await sim.getByRole('tab', { name: 'Compare' }).click();
  await page.waitForTimeout(800);
  await sim.screenshot({ path: `/tmp/shots17/compare-${scheme}.png` });
  await sim.getByRole('button', { name: 'Show the changes' }).click();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `/tmp/shots17/diff-${scheme}.png` });
  await page.close();
}
await browser.close();
