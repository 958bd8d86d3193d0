import type { Locator, Page } from '@playwright/test';

/** Points the agent and the simulated user at an OpenAI-protocol endpoint, through the dialog. */
export async function useEndpoint(page: Page, url: string) {
  await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('tab', { name: 'Endpoints' }).click();
  await dialog.getByRole('button', { name: '+ Other' }).click();
  const card = dialog.getByRole('listitem', { name: 'Custom' });
  await card.getByLabel('Base URL').fill(url);
  await card.getByLabel('Model').fill('sim-model');
  await dialog.getByRole('tab', { name: 'Roles' }).click();
  await dialog.getByLabel('Engine for Agent under test').selectOption({ label: 'Custom' });
  await dialog.getByLabel('Engine for Simulated user').selectOption({ label: 'Custom' });
  await page.keyboard.press('Escape');
}

/** Gives the endpoint's model a price in the Models dialog, in dollars per million tokens. */
export async function priceModel(page: Page, input: string, output: string, model = 'sim-model') {
  await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('tab', { name: 'Prices' }).click();
  await dialog.getByLabel('Model name to price').fill(model);
  await dialog.getByRole('button', { name: 'Add a price' }).click();
  await dialog.getByLabel(`Input price of ${model}`).fill(input);
  await dialog.getByLabel(`Output price of ${model}`).fill(output);
  await page.keyboard.press('Escape');
}

/** Gives a role the custom endpoint in the Models dialog (its Roles tab). */
export async function assignRole(page: Page, role: 'Judge' | 'Generator') {
  await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
  await page.getByRole('dialog', { name: 'Models' }).getByRole('tab', { name: 'Roles' }).click();
  await page.getByLabel(`Engine for ${role}`).selectOption({ label: 'Custom' });
  await page.keyboard.press('Escape');
}

/**
 * Runs the open project's scenarios from the simulate `pane` on the endpoint at `url` (priced, so
 * a dollar budget can count), with the run settings given by their labels; answers the report.
 */
export async function runOnEndpoint(
  pane: Locator,
  url: string,
  settings: Readonly<Record<string, string>> = {},
) {
  await useEndpoint(pane.page(), url);
  await priceModel(pane.page(), '0.5', '1.5');
  const form = pane.getByRole('form', { name: 'Run settings' });
  for (const [label, value] of Object.entries(settings)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Run scenarios' }).click();
  return pane.getByRole('region', { name: 'Run report' });
}
