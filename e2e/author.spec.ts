import { expect, test } from './fixtures.ts';

const POLICY = 'verify-identity-before-account-actions';

test('a broken reference shows as a marker and a problem, and completion fixes it', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('rules.yaml');
  await expect(workbench.problems()).toContainText('No problems in this project.');
  await expect(workbench.pane('graph')).toContainText('58 policies · 44 relations');

  await workbench.goToEndOf(`policy: ${POLICY}`);
  await page.keyboard.type('x');
  const problem = workbench
    .problems()
    .getByRole('button', { name: new RegExp(`Unknown policy "${POLICY}x"`) });
  await expect(problem).toBeVisible();
  await expect(problem).toContainText(`Did you mean "${POLICY}"?`);
  await expect(problem).toContainText('rules.yaml:12:17');
  // A long line wraps, and its squiggle is drawn once per visual line.
  await expect(workbench.editor.locator('.squiggly-error').first()).toBeVisible();
  await expect(page.getByRole('tab', { name: /rules\.yaml/ })).toContainText('1');

  // Clicking the problem shows its place; then the user retypes the id with completion.
  await workbench.openFile('agent.md');
  await problem.click();
  await expect(page.getByRole('tab', { name: /rules\.yaml/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(workbench.editor.locator('.active-line-number')).toHaveText('12');
  await workbench.select(`${POLICY}x`);
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+Space');
  const suggestions = page.locator('.suggest-widget');
  await expect(suggestions).toBeVisible();
  await page.keyboard.type('verify-identity-before-acc');
  await expect(suggestions.locator('.monaco-list-row').first()).toContainText(POLICY);
  await page.keyboard.press('Enter');

  await expect(workbench.problems()).toContainText('No problems in this project.');
  await expect(workbench.editor.locator('.squiggly-error')).toHaveCount(0);
});

test('renaming a policy id changes every reference, and the work survives a reload', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('rules.yaml');
  expect(await workbench.countMatches(POLICY)).toMatch(/of \d+/);

  await workbench.openFile('policies.yaml');
  await workbench.goToEndOf(`id: ${POLICY}`);
  await page.keyboard.press('F2');
  const input = page.locator('.rename-box input');
  await expect(input).toHaveValue(POLICY);
  await input.fill('verify-traveller-first');
  await input.press('Enter');

  // The rename is worked out off the page's thread and applied when it arrives: wait for it.
  for (const file of ['policies.yaml', 'rules.yaml', 'scenarios.yaml']) {
    await workbench.openFile(file);
    await expect.poll(() => workbench.countMatches(POLICY), { message: file }).toBe('No results');
    expect(await workbench.countMatches('verify-traveller-first'), file).toMatch(/of \d+/);
  }
  await expect(workbench.problems()).toContainText('No problems in this project.');
  await expect(page.getByRole('status', { name: 'Save status' })).toHaveText(
    'Saved on this device',
  );

  await page.reload();
  await expect(workbench.editor).toBeVisible();
  await expect(
    page.getByRole('button', { name: /Project: SkyWay Airlines support/ }),
  ).toBeVisible();
  await workbench.openFile('scenarios.yaml');
  expect(await workbench.countMatches('verify-traveller-first')).toMatch(/of \d+/);
  expect(await workbench.countMatches(POLICY)).toBe('No results');
});

test('the rule playground says which rule decides a tool call and why', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('rules.yaml');
  await page.getByRole('button', { name: 'Try a tool call' }).click();
  const playground = page.getByRole('complementary', { name: 'Rule playground' });
  await playground.getByLabel('Tool').selectOption('cancel_reservation');
  await playground.getByLabel('Arguments (JSON)').fill('{"reservation_id": "AW9JV6"}');
  const decision = playground.getByRole('status', { name: 'Decision' });
  await expect(decision).toContainText('Refused by cancel-needs-verified-user');
  await expect(decision).toContainText('look the traveller up with get_user_details');

  // Someone else's reservation: refused by the next rule, and the dialogue would end.
  await playground
    .getByLabel('Earlier calls (JSON list, optional)')
    .fill('[{"tool": "get_user_details", "args": {"user_id": "liam_walsh_3729"}}]');
  await expect(decision).toContainText('Refused by cancel-owner-only');
  await expect(decision).toContainText('Then: the dialogue ends.');
  await expect(decision.getByRole('list', { name: 'Rules tried' })).toContainText(
    'cancel-needs-verified-user: no match',
  );

  await playground.getByLabel('Arguments (JSON)').fill('{"reservation_id": ');
  await expect(playground.getByRole('alert')).toContainText('The arguments are not valid JSON');

  // The rule's name leads to the rule.
  await playground.getByLabel('Arguments (JSON)').fill('{"reservation_id": "AW9JV6"}');
  await decision.getByRole('button', { name: 'cancel-owner-only' }).first().click();
  await expect(workbench.editor.locator('.active-line-number')).toHaveText('230');
});

test('policies are extracted from agent.md and added to policies.yaml on request', async ({
  workbench,
  page,
}) => {
  await workbench.open();
  await workbench.editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(
    '# Desk\n\n## Refunds\nThe desk is small. You must verify the guest first.\n\n- Refund only delivered orders within 30 days.\n- Never refund to a different card.\n',
  );
  await page.getByRole('button', { name: 'Extract policies' }).click();
  const dialog = page.getByRole('dialog', { name: 'Extract policies' });
  // The paragraph's rule is found, its description is not.
  await expect(dialog.getByRole('checkbox')).toHaveCount(3);
  await expect(dialog.getByText('You must verify the guest first.')).toBeVisible();
  await dialog.getByRole('checkbox').nth(0).uncheck();
  await dialog.getByRole('checkbox').nth(2).uncheck();
  await dialog.getByRole('button', { name: 'Add 1 policy to policies.yaml' }).click();
  await expect(page.getByRole('tab', { name: /policies\.yaml/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  expect(await workbench.countMatches('id: refund-delivered-orders-within-30-days')).toBe('1 of 1');
  expect(await workbench.countMatches('different card')).toBe('No results');
  // The edit keeps the file's own comment at the top.
  expect(await workbench.countMatches('# Atomic policies the agent must follow.')).toBe('1 of 1');
});

test('projects: start from an example, duplicate, delete and undo', async ({ workbench, page }) => {
  await workbench.open();
  await page.getByRole('button', { name: 'Projects' }).click();
  const dialog = page.getByRole('dialog', { name: 'Projects' });
  await dialog
    .getByRole('article')
    .filter({ hasText: 'Northwind Outfitters orders' })
    .getByRole('button', { name: 'Open a copy' })
    .click();
  await expect(
    page.getByRole('button', { name: /Project: Northwind Outfitters orders/ }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Projects' }).click();
  const list = dialog.getByRole('list', { name: 'Projects on this device' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await list.getByRole('button', { name: 'Duplicate Northwind Outfitters orders' }).click();
  await expect(
    page.getByRole('button', { name: /Project: Northwind Outfitters orders \(copy\)/ }),
  ).toBeVisible();

  // Rename from the list: Escape cancels and leaves the dialog open; Enter saves.
  await page.getByRole('button', { name: 'Projects' }).click();
  await list
    .getByRole('button', { name: 'Rename Northwind Outfitters orders', exact: true })
    .click();
  const rename = dialog.getByRole('textbox', { name: 'New name for Northwind Outfitters orders' });
  await rename.fill('Typo');
  await rename.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(
    list.getByRole('button', { name: /^Northwind Outfitters orders changed/ }),
  ).toBeVisible();
  await list
    .getByRole('button', { name: 'Rename Northwind Outfitters orders', exact: true })
    .click();
  await rename.fill('Northwind returns desk');
  await rename.press('Enter');
  await expect(list.getByRole('button', { name: /^Northwind returns desk changed/ })).toBeVisible();

  await list.getByRole('button', { name: 'Delete Untitled project' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Deleted “Untitled project”.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Projects' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(3);
});

test('the editor’s right-click menu stands on its own background, light and dark', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  for (const theme of ['Light theme', 'Dark theme'] as const) {
    await workbench.themeChoice(theme).click();
    await page.locator('.monaco-editor .view-lines').first().click({ button: 'right' });
    // The menu lives in a shadow root beside the editor: it must still get the theme's colours.
    const menu = page.locator('.monaco-menu');
    await expect(menu.getByText('Copy', { exact: true })).toBeVisible();
    const background = await menu.evaluate(
      (el) => el.parentElement && getComputedStyle(el.parentElement).backgroundColor,
    );
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  }
});
