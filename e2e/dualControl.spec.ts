import { writeFileSync } from 'node:fs';
import { simulatePhone } from '../src/test/phoneDesk.ts';
import { expect, test } from './fixtures.ts';
import { ReplayPane } from './replayPane.ts';

test('dual control: the customer’s own tool calls and the user’s state shown on the customer’s side in Replay', async ({
  workbench,
  page,
}) => {
  const path = test.info().outputPath('phone-run.json');
  writeFileSync(path, JSON.stringify(await simulatePhone(true)));

  await workbench.openExample('store');
  const replay = new ReplayPane(page);
  await replay.importRun(path);
  await replay.pick('no-data#1');

  const setup = replay.dialogue.getByTestId('setup-call');
  await expect(setup).toContainText('Set up before the conversation');
  await expect(setup).toContainText('toggle_data');
  const userCall = replay.dialogue.getByTestId('user-call');
  await expect(userCall).toContainText('The customer’s own tool');
  await expect(userCall).toContainText('toggle_data');
  // On the customer's side of the conversation, never under a guard.
  await expect(
    replay.dialogue.locator('li[data-speaker="user"]').getByTestId('user-call'),
  ).toHaveCount(1);
  await expect(userCall).not.toContainText('guard');
  await expect(
    replay.dialogue.getByTestId('finding').filter({ hasText: 'expected.user_assertions[0]' }),
  ).toContainText('The user’s state: Holds at the end');
});
