import { TICKET_FILES } from '../src/core/testing/ticketDesk.ts';
import { expect, test } from './fixtures.ts';

const BUNDLE_PATH = '/e2e/ticket-desk.policylab.json';

test('a project that fixes its clock: Simulate says so, and the rule playground decides at that time', async ({
  workbench,
  page,
}) => {
  const bundle = JSON.stringify({ format: 'policylab/1', name: 'Tickets', files: TICKET_FILES });
  await page.route(
    (url) => url.pathname === BUNDLE_PATH,
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: bundle }),
  );
  await page.goto(`/?bundle=${BUNDLE_PATH}`);

  const form = workbench.pane('simulate').getByRole('form', { name: 'Run settings' });
  await expect(form).toContainText('Runs see now as 2024-05-15T15:00:00-05:00');

  await workbench.openFile('rules.yaml');
  await page.getByRole('button', { name: 'Try a tool call' }).click();
  const playground = page.getByRole('complementary', { name: 'Rule playground' });
  await expect(playground).toContainText(
    'Conditions see now as 2024-05-15T15:00:00-05:00, the time this project fixes.',
  );
  await playground.getByLabel('Tool').selectOption('cancel_order');
  await playground.getByLabel('Arguments (JSON)').fill('{"order_id": "o1"}');
  // 15:00 EST is before the show starts at 21:00Z, so the show-started rule does not refuse.
  const decision = playground.getByRole('status', { name: 'Decision' });
  await expect(decision).toContainText('show-started: no match');
});
