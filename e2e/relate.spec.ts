import type { Page } from '@playwright/test';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { assignRole, priceModel, useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

const graphPane = (page: Page) => page.locator('section[data-pane="graph"]');

test('a model rates relations from the graph: the estimate, the calls it said, model relations written', async ({
  workbench,
  page,
}) => {
  let calls = 0;
  // Rates every pair it is asked about 7, reading the ids from the prompt's lines.
  const rater = await startOpenAIServer({
    script: (request) => {
      const body = request.body as OpenAIRequestBody;
      if (body.response_format === undefined) return undefined;
      calls++;
      const content = body.messages?.[0]?.content;
      const system = typeof content === 'string' ? content : '';
      const others = system.split('The other policies')[1] ?? '';
      const ratings = [...others.matchAll(/^([a-z0-9-]+): /gm)].map((m) => ({
        other: m[1],
        weight: 7,
        reason: 'often together',
      }));
      return { text: JSON.stringify({ ratings }) };
    },
  });
  try {
    await workbench.openExample('airline');
    await useEndpoint(page, rater.url);
    await priceModel(page, '0.5', '1.5');
    await assignRole(page, 'Judge');
    await graphPane(page).getByRole('button', { name: 'Rate relations with a model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rate relations' });
    await expect(dialog.getByLabel('Estimate')).toContainText(
      /To rate [\d,]+ pairs with sim-model: about \d+ calls/,
    );
    const estimated = Number(
      /about (\d+) calls/.exec((await dialog.getByLabel('Estimate').textContent()) ?? '')?.[1],
    );
    await dialog.getByRole('button', { name: 'Rate' }).click();
    await expect(dialog.getByLabel('Rating result')).toContainText('Wrote', { timeout: 60_000 });
    expect(calls).toBe(estimated);
    await expect(dialog.getByLabel('Estimate')).toContainText('Every pair is rated');
    await page.keyboard.press('Escape');
    // The graph holds model edges now: a policy's details list its relations as the model's.
    await graphPane(page)
      .locator('.react-flow__node[data-id="introduce-as-skyway"]')
      .dispatchEvent('click');
    const details = graphPane(page).getByTestId('details-panel');
    await expect(details.locator('.origin-badge.is-model').first()).toBeVisible();
    await workbench.openFile('policies.yaml');
    expect(await workbench.countMatches('origin: model')).toMatch(/of \d{2,}/);
  } finally {
    await rater.close();
  }
});
