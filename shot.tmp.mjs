import { chromium } from 'playwright';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const scheme of ['light', 'dark']) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
  await page.goto('http://localhost:5191/');
  await page.waitForTimeout(1500);
  await page.keyboard.press('Alt+5');
  await page.getByRole('region', { name: 'Share', exact: true }).getByTestId('share-import').setInputFiles('/tmp/retail.zip');
  const report = page.getByRole('dialog');
  await report.waitFor({ timeout: 30000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots18/import-${scheme}.png` });
  await report.getByRole('button', { name: 'Done' }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots18/after-${scheme}.png` });
  await page.close();
}
await browser.close();
