import { expect, test } from './fixtures.ts';

test('reads the built-in user simulator prompt, overrides it in scenarios.yaml and goes back', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  const pane = workbench.pane('simulate');
  const panel = pane.getByTestId('prompts-panel');
  await expect(panel).toContainText('all built-in');
  await panel.getByText('Prompts the models are sent').click();

  const card = panel.getByRole('listitem', { name: 'User simulator' });
  await expect(card).toContainText('user-simulator v1');
  await expect(card.locator('.prompt-badge')).toHaveText('built-in');
  await expect(card.getByRole('term')).toHaveText([
    '{{persona}}',
    '{{goal}}',
    '{{knows}}',
    '{{unknown}}',
  ]);
  const text = card.getByLabel('User simulator prompt text');
  await expect(text).toContainText('You are playing a customer talking to a support agent.');
  await expect(text).toContainText('What you want: {{goal}}');
  await expect(panel.getByRole('listitem')).toHaveCount(9);
  // The short messages sent besides the templates are shown too, word for word.
  const fixed = panel.getByRole('region', { name: 'Fixed messages' });
  await expect(fixed).toContainText(
    '(The support chat has opened. Write your first message to the agent.)',
  );
  await expect(fixed).toContainText('Your last answer was invalid: <what was wrong>');

  await card.getByRole('button', { name: 'Override in scenarios.yaml' }).click();
  // The editor opens scenarios.yaml at the new entry, holding the built-in text to edit.
  await expect(page.getByRole('tab', { name: /^scenarios\.yaml/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(workbench.editor).toContainText('prompts:');
  await expect(workbench.editor).toContainText('user_simulator: |-');
  await expect(workbench.editor).toContainText('What you want: {{goal}}');
  await expect(card.locator('.prompt-badge')).toHaveText('from scenarios.yaml');
  await expect(panel).toContainText('1 from scenarios.yaml');
  await expect(workbench.problems()).toContainText('No problems in this project.');

  expect(await workbench.countMatches('user_simulator: |-')).toMatch(/^1 of 1$/);

  // With the cursor on a place of the override, the hover says what the run fills it with.
  expect(await workbench.countMatches('{{goal}}')).toMatch(/^1 of 1$/);
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  await expect(page.locator('.monaco-hover').filter({ hasText: 'Filled with' })).toContainText(
    'what the customer wants',
  );
  await page.keyboard.press('Escape');

  await card.getByRole('button', { name: 'Use built-in' }).click();
  await expect(card.locator('.prompt-badge')).toHaveText('built-in');
  await expect(card.getByRole('button', { name: 'Override in scenarios.yaml' })).toBeVisible();
  expect(await workbench.countMatches('user_simulator')).toBe('No results');
});
