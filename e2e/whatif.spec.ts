import { expect, test } from './fixtures.ts';
import { openAirlineRun } from './replayPane.ts';

test('Replay says, as a what-if, which logged call today’s guard rules would refuse', async ({
  workbench,
  page,
}) => {
  const replay = await openAirlineRun(workbench, page);

  // Today, read-needs-verified-owner also keeps business-class bookings from being opened:
  // cancel-one-leg-only's get_reservation of RT8B4N (business), allowed in the run, is hit.
  await workbench.openFile('rules.yaml');
  // (No bracket is typed: the editor would close it.)
  await workbench.select('r.id == args.reservation_id && !history');
  await page.keyboard.insertText(
    'r.id == args.reservation_id && r.cabin == "business" || r.id == args.reservation_id && !history',
  );

  await replay.pick('cancel-one-leg-only#1');
  const whatIf = replay.current.getByRole('note', { name: 'What-if under today’s rules' });
  await replay.press('Home', 'c', 'c');
  await expect(replay.current).toContainText('get_reservation');
  await expect(whatIf).toContainText(
    'Today’s rules would refuse this call by read-needs-verified-owner (no-third-party-data)',
  );
  await expect(whatIf).toContainText('the dialogue went as logged');
  // What happened stays as logged: the call was allowed and ran.
  await expect(replay.current.locator('.replay-guard')).toHaveText('Allowed');
  await expect(replay.current).toContainText('Result');

  // The dialogue's other calls are decided the same today.
  await replay.press('C');
  await expect(replay.current).toContainText('get_user_details');
  await expect(whatIf).toHaveText('What-if Today’s rules decide the same.');
  await replay.press('c', 'c');
  await expect(replay.current).toContainText('cancel_reservation');
  await expect(whatIf).toHaveText('What-if Today’s rules decide the same.');
});
