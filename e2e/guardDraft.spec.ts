import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { assignRole, priceModel, useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';
import { openRefundDesk } from './refundDesk.ts';

// The model's draft for refund-window: first one that reads an argument refund_order lacks
// (sent back once with the problem named), then a rule that holds.
const bad = {
  text: JSON.stringify({
    id: 'late-refunds',
    tool: 'refund_order',
    decision: 'forbid',
    when: 'args.days > 30',
    fallback: 'message',
    message: 'Too late.',
    examples: [],
  }),
};
const good = {
  text: JSON.stringify({
    id: 'no-big-refunds',
    tool: 'refund_order',
    decision: 'forbid',
    when: 'has(args.amount) && args.amount > 500.0',
    fallback: 'message',
    message: 'Refunds over $500 need a supervisor.',
    examples: [
      { args: { order_id: 'o1', amount: 20 }, expect: 'allow', why: 'a small refund' },
      { args: { order_id: 'o1', amount: 900 }, expect: 'forbid', why: 'over the cap' },
    ],
  }),
};

test('a model drafts a guard rule, checked before it is offered, tried in the playground and accepted', async ({
  workbench,
  page,
}) => {
  const server = await startOpenAIServer({ script: [bad, good] });
  try {
    await openRefundDesk(page);
    await expect(workbench.editor).toBeVisible();
    await useEndpoint(page, server.url);
    await assignRole(page, 'Generator');
    await priceModel(page, '1', '2');
    await workbench.openFile('policies.yaml');
    await page.getByRole('button', { name: 'Draft a guard rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Draft a guard rule' });
    await dialog.getByLabel('Policy').selectOption('refund-window');
    await expect(dialog.getByLabel('Estimate')).toContainText(
      'To draft a rule for refund-window with sim-model: about 1 call (up to 2 with repairs)',
    );
    await dialog.getByRole('button', { name: 'Draft', exact: true }).click();

    const rule = dialog.getByRole('region', { name: 'Draft rule' });
    await expect(rule).toContainText('when: has(args.amount) && args.amount > 500.0');
    await expect(rule).toContainText('(after one repair)');
    await expect(rule.getByLabel('Spent')).toContainText('Spent 2 calls');
    const own = rule.getByRole('table', { name: 'The model’s examples' });
    await expect(own.getByRole('row')).toHaveCount(3);
    const made = rule.getByRole('table', { name: 'Calls PolicyLab made from the tool’s schema' });
    await expect(made).toContainText('"amount":500.5');
    await expect(made).toContainText('forbid');

    await rule.getByRole('button', { name: 'Try in the playground' }).click();
    const playground = page.getByRole('complementary', { name: 'Rule playground' });
    await expect(playground.getByRole('note', { name: 'Draft rule on trial' })).toContainText(
      'no-big-refunds',
    );
    await playground
      .getByLabel('Earlier calls (JSON list, optional)')
      .fill('[{"tool": "get_user", "args": {"user_id": "u1"}}]');
    await playground.getByLabel('Example call').selectOption({ index: 1 });
    const decision = playground.getByRole('status', { name: 'Decision' });
    await expect(decision).toContainText('Refused by no-big-refunds');
    await playground.getByLabel('Example call').selectOption({ index: 0 });
    await expect(decision).toContainText('Allowed');
    await expect(workbench.editor).not.toContainText('no-big-refunds');

    // The draft waits while it is tried; back in the dialog it is accepted whole.
    await page.getByRole('button', { name: 'Draft a guard rule' }).click();
    // The picker names the policy of the draft it shows.
    await expect(dialog.getByRole('combobox', { name: 'Policy' })).toHaveValue('refund-window');
    await dialog.getByRole('button', { name: 'Accept into rules.yaml' }).click();
    await expect(workbench.editor).toContainText('- id: no-big-refunds');
    await expect(workbench.problems()).toBeVisible();
    await expect(workbench.problems()).not.toContainText('rules.yaml:');
    // Accepted as one step: one undo takes the whole rule out again.
    await workbench.editor.click();
    await page.keyboard.press('Control+Z');
    await expect(workbench.editor).not.toContainText('no-big-refunds');
    await expect(workbench.editor).toContainText('- id: refund-late');
  } finally {
    await server.close();
  }
});
