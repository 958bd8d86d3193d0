import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { runOnEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';
import { openRefundDesk, refundDeskScript } from './refundDesk.ts';

// Hostile files and links in the page (issue 20).

test('a policy’s text in a hover draws no image and fetches nothing; a mistyped bundle path opens nothing', async ({
  page,
  workbench,
}) => {
  const leaks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('evil.invalid')) leaks.push(request.url());
  });
  await openRefundDesk(page);
  await expect(workbench.editor).toBeVisible();
  await workbench.openFile('policies.yaml');
  await workbench.select('Verify the customer');
  await page.keyboard.insertText(
    'Verify ![pixel](http://evil.invalid/pixel.png) [login](http://evil.invalid/login) the customer',
  );
  await workbench.openFile('rules.yaml');
  await expect(workbench.editor).toContainText('refund-after-identity');
  const word = workbench.editor
    .locator('.view-line span span')
    .filter({ hasText: /^verify-identity$/ })
    .first();
  await expect(word).toBeVisible();
  const box = await word.boundingBox();
  if (!box) throw new Error('the word is not on screen');
  // Monaco shows a hover after the pointer moves over a word and rests there.
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  const hover = page.locator('.monaco-hover-content').filter({ hasText: 'verify-identity' });
  await expect(hover).toContainText('![pixel](http://evil.invalid/pixel.png)');
  await expect(hover.locator('img, a[href*="evil"]')).toHaveCount(0);
  expect(leaks).toEqual([]);

  // A bundle path that is not there: the page says so and opens what it had, making nothing.
  const before = await page.getByRole('banner').getByText('Refund desk').textContent();
  await page.goto('/?bundle=/e2e/shraed.policylab.json');
  await expect(page.getByRole('alert').filter({ hasText: 'shraed.policylab.json' })).toContainText(
    'There is no bundle at this address',
  );
  await expect(page.getByRole('banner')).toContainText(before ?? 'Refund desk');
  await page.getByRole('banner').getByRole('button', { name: 'Projects' }).click();
  await expect(page.getByRole('dialog', { name: 'Projects' })).not.toContainText(
    'Untitled project',
  );
});

test('a provider’s impossible token counts are estimated and marked, never NaN or negative', async ({
  page,
  workbench,
}) => {
  // The agent's provider reports negative prompt tokens; the customer's reports none at all.
  const desk = await startOpenAIServer({
    script: (request) => {
      const reply = refundDeskScript(request);
      const agent = Boolean((request.body as OpenAIRequestBody).tools);
      return agent
        ? { ...reply, usage: { prompt_tokens: -800_000, completion_tokens: 5, total_tokens: 0 } }
        : { ...reply, noUsage: true };
    },
  });
  try {
    await openRefundDesk(page);
    const report = await runOnEndpoint(workbench.pane('simulate'), desk.url, { Trials: '1' });
    await expect(report).toContainText('Finished · 5 of 5 dialogues', { timeout: 120_000 });
    const header = await report.locator('header').innerText();
    // Every answer's counts were impossible or missing: every call that answered is estimated
    // (the scenario whose provider fails answered nothing to count).
    const [, calls, failed] =
      /(\d+) model calls \((\d+) failed, counted all the same\) · ≈\d+ tokens · ≈\$\d+\.\d{4}/.exec(
        header,
      ) ?? [];
    expect(failed, header).toBe('1');
    await expect(report.getByTestId('usage-estimated')).toHaveText(
      `(the provider's token counts of ${Number(calls) - 1} calls could not be true or were missing: estimated from characters)`,
    );
    const spending = report.getByRole('table', { name: 'Spending per role' });
    await expect(spending).toContainText('≈');
    const shown = `${header}\n${await spending.innerText()}`;
    expect(shown).not.toMatch(/NaN|Infinity|-\d|\$-/);
  } finally {
    await desk.close();
  }
});
