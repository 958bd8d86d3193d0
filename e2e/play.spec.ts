import type { Page } from '@playwright/test';
import type { RecordedRequest, TestServer } from '../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { useEndpoint } from './endpoints.ts';
import type { Workbench } from './fixtures.ts';
import { expect, test } from './fixtures.ts';

const messagesOf = (request: RecordedRequest) =>
  (request.body as OpenAIRequestBody | undefined)?.messages ?? [];

/**
 * The other side, scripted. As the agent (offered tools) it first opens a booking without
 * looking the traveller up, then answers in words. As the customer it asks about someone
 * else's booking, then says goodbye.
 */
function otherSide(request: RecordedRequest) {
  const body = request.body as OpenAIRequestBody | undefined;
  const messages = messagesOf(request);
  if (body?.tools && body.tools.length > 0) {
    if (messages.at(-1)?.role === 'tool')
      return {
        text: 'I could not open it. Which user id is the booking under?',
        // Slow enough to watch the words come in.
        chunkDelayMs: 150,
      };
    if (!messages.some((m) => m.role === 'tool'))
      return { toolCalls: [{ name: 'get_reservation', arguments: { reservation_id: 'AW9JV6' } }] };
    return { text: 'Thank you for flying with us.' };
  }
  if (messages.filter((m) => m.role === 'assistant').length === 0)
    return { text: 'Hi, I am olivia_bennett_7494. What is on booking GCXKX5?' };
  return { text: 'Thanks, bye. ###STOP###' };
}

/** Opens the airline example with its models on `url`, at Play's set-up. */
async function openPlay(workbench: Workbench, page: Page, url: string) {
  await workbench.openExample('airline');
  await useEndpoint(page, url);
  const pane = workbench.pane('simulate');
  await pane.getByRole('tab', { name: 'Play' }).click();
  return { pane, setup: pane.getByRole('form', { name: 'Play settings' }) };
}

test.describe('play', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startOpenAIServer({ script: otherSide });
  });
  test.afterAll(async () => {
    await server.close();
  });

  test('a person plays the customer; the guard and the checks judge the agent live', async ({
    workbench,
    page,
  }) => {
    const { pane, setup } = await openPlay(workbench, page, server.url);
    await expect(setup.getByRole('radio', { name: /^The customer/ })).toBeChecked();
    await setup.getByLabel('Scenario').selectOption('cancel-within-24-hours');
    await setup.getByRole('button', { name: 'Start playing' }).click();

    const play = pane.getByRole('region', { name: 'Play' });
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');
    const brief = play.getByLabel('Your brief');
    await expect(brief).toContainText('You want');
    await expect(brief).toContainText('daniela_ruiz_5120');
    const box = play.getByLabel('Your message to the agent');
    await box.fill('Hi, what is on booking AW9JV6?');
    await box.press('Enter');

    const dialogue = play.getByRole('list', { name: 'Dialogue' });
    await expect(dialogue).toContainText('Hi, what is on booking AW9JV6?');
    // The agent's answer is shown as it streams in, then takes its place in the dialogue.
    await expect(play.getByTestId('streaming')).toContainText('I could');
    await expect(play.getByTestId('streaming')).toHaveCount(0);
    await expect(dialogue).toContainText('get_reservation({"reservation_id":"AW9JV6"})');
    await expect(dialogue).toContainText('refused by read-needs-verified-user');
    await expect(dialogue).toContainText('Which user id is the booking under?');
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');

    // Judged as the dialogue stands: the refused call is a breach now; the greeting may come yet.
    const findings = play.getByRole('complementary', { name: 'Findings so far' });
    await expect(findings.locator('li[data-state="broken"]')).toContainText(
      'verify-identity-before-account-actions',
    );
    await expect(findings.locator('li[data-state="open"]')).toContainText('introduce-as-skyway');

    await box.fill('Never mind, bye.');
    await play.getByRole('button', { name: 'End the conversation' }).click();
    await expect(play.getByLabel('Game status')).toHaveText('Game over');
    await expect(dialogue).toContainText('The customer ended the conversation.');
    const judged = play.getByRole('complementary', { name: 'Findings' });
    await expect(judged.getByRole('heading')).toHaveText('Judged');
    const broken = judged.locator('li[data-state="broken"]');
    await expect(broken.filter({ hasText: 'introduce-as-skyway' })).toHaveCount(1);
    // Twice: the refused call, and the scenario's required get_user_details, which
    // scenarios.yaml charges to that policy.
    await expect(broken.filter({ hasText: 'verify-identity-before-account-actions' })).toHaveCount(
      2,
    );

    // The game replays turn by turn, in the Replay pane, at its first message.
    await play.getByRole('button', { name: 'Replay this game' }).click();
    const replay = page.getByRole('region', { name: 'Replay', exact: true });
    await expect(replay.getByRole('heading', { name: /cancel-within-24-hours#1/ })).toBeVisible();
    await expect(replay.getByTestId('replay-step')).toHaveText(/^Step 1 of \d+$/);
    await expect(
      replay.getByRole('list', { name: 'Conversation' }).getByText('Never mind, bye.'),
    ).toBeVisible();

    // The game is kept with the runs, and reads as a one-dialogue run (Simulate is a tab away).
    await page.keyboard.press('Alt+3');
    await pane.getByRole('tab', { name: 'Runs' }).click();
    await pane
      .getByRole('region', { name: 'Saved runs' })
      .getByRole('button', {
        name: /^Play · you as the customer · cancel-within-24-hours · sim-model/,
      })
      .click();
    const report = pane.getByRole('region', { name: 'Run report' });
    await expect(report).toContainText('Finished · 1 of 1 dialogues');
    await expect(report.getByTestId('played')).toContainText('a person was the customer');
  });

  test('a person plays the agent: tool calls pass the guard rules, a bad call loses nothing', async ({
    workbench,
    page,
  }) => {
    const { pane, setup } = await openPlay(workbench, page, server.url);
    await setup.getByRole('radio', { name: /^The agent/ }).check();
    await setup.getByLabel('What the customer wants').fill('See what is on a booking.');
    await setup.getByRole('button', { name: 'Start playing' }).click();

    const play = pane.getByRole('region', { name: 'Play' });
    const dialogue = play.getByRole('list', { name: 'Dialogue' });
    await expect(dialogue).toContainText('What is on booking GCXKX5?');
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');

    const turn = play.getByRole('form', { name: 'Your turn' });
    await turn.getByLabel('Your answer to the customer').fill('Let me look.');
    await turn.getByRole('button', { name: 'Add a tool call' }).click();
    await turn.getByLabel('Tool of call 1').selectOption('get_user_details');
    await turn.getByLabel('Arguments of call 1 (JSON)').fill('{"user_id": "olivia_bennett_7494"}');
    await turn.getByRole('button', { name: 'Add a tool call' }).click();
    await turn.getByLabel('Tool of call 2').selectOption('get_reservation');
    await turn.getByLabel('Arguments of call 2 (JSON)').fill('{"reservation_id": ');
    await turn.getByRole('button', { name: 'Send with 2 tool calls' }).click();

    // The broken call is refused before anything happens, and what was written stays.
    await expect(turn.getByRole('alert')).toContainText('get_reservation');
    await expect(turn.getByLabel('Your answer to the customer')).toHaveValue('Let me look.');
    await turn.getByLabel('Arguments of call 2 (JSON)').fill('{"reservation_id": "GCXKX5"}');
    await turn.getByRole('button', { name: 'Send with 2 tool calls' }).click();

    await expect(dialogue).toContainText('get_user_details({"user_id":"olivia_bennett_7494"})');
    await expect(dialogue).toContainText(
      'refused by read-needs-verified-owner (no-third-party-data)',
    );
    // Two calls in one turn break one-tool-call-at-a-time too, which a check now sees.
    const brokenSoFar = play
      .getByRole('complementary', { name: 'Findings so far' })
      .locator('li[data-state="broken"]');
    await expect(brokenSoFar).toHaveCount(2);
    await expect(brokenSoFar.filter({ hasText: 'no-third-party-data' })).toHaveCount(1);
    await expect(brokenSoFar.filter({ hasText: 'one-tool-call-at-a-time' })).toHaveCount(1);

    const answer = play.getByLabel('Your answer to the customer');
    await answer.fill('Sorry, that booking is not on your profile.');
    await answer.press('Enter');
    await expect(play.getByLabel('Game status')).toHaveText('Game over');
    await expect(dialogue).toContainText('Thanks, bye.');
    await play.getByRole('button', { name: 'New game' }).click();
    await expect(pane.getByRole('form', { name: 'Play settings' })).toBeVisible();
  });
});
