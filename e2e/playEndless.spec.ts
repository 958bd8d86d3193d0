import type { TestServer } from '../src/test/servers/http.ts';
import { ENDLESS_STREAM } from '../src/test/hostile/providers.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';
import { longest, resetLongest } from './longTasks.ts';

// A trace snapshots the whole DOM in the page's thread at each step: it would be measured too.
test.use({ trace: 'off' });

/*
 * A provider that never stops answering: 1 KB every 5 ms, forever. Play shows the words as they
 * come without freezing, and the answer is cut with a clear ending.
 */
test.describe('play against an endless stream', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startOpenAIServer({
      script: () => ENDLESS_STREAM,
    });
  });
  test.afterAll(async () => {
    await server.close();
  });

  test('the page stays responsive and the answer is cut at the cap, said plainly', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    await useEndpoint(page, server.url);
    const pane = workbench.pane('simulate');
    await pane.getByRole('tab', { name: 'Play' }).click();
    const setup = pane.getByRole('form', { name: 'Play settings' });
    await setup.getByLabel('Scenario').selectOption('cancel-within-24-hours');
    await setup.getByRole('button', { name: 'Start playing' }).click();
    const play = pane.getByRole('region', { name: 'Play' });
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');

    // The longest task the main thread runs while the answer streams (its CPU time).
    await resetLongest(page);
    const box = play.getByLabel('Your message to the agent');
    await box.fill('Hi, please cancel my booking.');
    await box.press('Enter');

    await expect(play.getByTestId('streaming')).toContainText('endless words');
    // The page answers while the stream floods in.
    expect(await page.evaluate(() => document.title.length >= 0)).toBe(true);
    await expect(play.getByLabel('Game status')).toHaveText('Game over', { timeout: 120_000 });
    const dialogue = play.getByRole('list', { name: 'Dialogue' });
    await expect(dialogue).toContainText('The answer was cut at 200,000 characters');
    await expect(play.getByTestId('streaming')).toHaveCount(0);
    const measured = await longest(page);
    test.info().annotations.push({ type: 'longest task (ms)', description: String(measured) });
    // Before the cap and the frame-paced drawing, the renderer froze and died within 15 s.
    expect(measured).toBeLessThan(2_000);
  });
});
