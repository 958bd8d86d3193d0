import type { Page } from '@playwright/test';

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
