import type { Page } from '@playwright/test';
import type { TestServer } from '../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 180_000 });

/** The saved run's log, read straight from IndexedDB. */
function storedLog(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ type: string; reason?: string; dialogue?: string }[]>((resolve, reject) => {
        const open = indexedDB.open('policylab-runs');
        open.onerror = () => {
          reject(new Error('no run database'));
        };
        open.onsuccess = () => {
          const request = open.result.transaction('events').objectStore('events').getAll();
          request.onsuccess = () => {
            resolve((request.result as { event: { type: string } }[]).map((row) => row.event));
          };
        };
      }),
  );
}

test.describe('a simulation run', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startOpenAIServer();
  });
  test.afterAll(async () => {
    await server.close();
  });

  test('runs the airline scenarios twice each against an endpoint; the report matches the log', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    const pane = workbench.pane('simulate');
    await pane.getByRole('button', { name: 'Run scenarios' }).click();
    await expect(pane.getByRole('alert')).toContainText('Choose models first');

    await useEndpoint(page, server.url);
    const form = pane.getByRole('form', { name: 'Run settings' });
    await form.getByLabel('Trials').fill('2');
    await form.getByLabel('At once').fill('4');
    await form.getByLabel('Max turns').fill('2');
    await form.getByRole('button', { name: 'Run scenarios' }).click();

    const report = pane.getByRole('region', { name: 'Run report' });
    await expect(report).toContainText('Finished · 44 of 44 dialogues', { timeout: 120_000 });
    await expect(pane.getByRole('list').filter({ hasText: '22 scenarios × 2' })).toBeVisible();

    // Every number on screen comes from the saved log: count the dialogues' endings there.
    const log = await storedLog(page);
    const ended = log.filter((e) => e.type === 'dialogue-ended');
    expect(ended).toHaveLength(44);
    expect(log.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    const errors = ended.filter(
      (e) => e.reason !== 'user-done' && e.reason !== 'max-turns' && e.reason !== 'guard-end',
    );
    await expect(report.getByTestId('errors')).toContainText(String(errors.length));
    const rows = report.getByRole('table', { name: 'Dialogues' }).getByRole('row');
    await expect(rows).toHaveCount(45);
    const passed = await rows
      .filter({ has: page.locator('.verdict[data-verdict="pass"]') })
      .count();
    const failed = await rows
      .filter({ has: page.locator('.verdict[data-verdict="fail"]') })
      .count();
    expect(passed + failed + errors.length).toBe(44);
    await expect(report.getByTestId('pass-rate')).toContainText(
      `${passed} passed, ${failed} failed`,
    );
    // Scenarios whose expectations hold even for an idle agent are pointed out.
    const idle = log.filter(
      (e) => e.type === 'scenario' && (e as { baseline?: { passes: boolean } }).baseline?.passes,
    ).length;
    if (idle > 0)
      await expect(report.getByTestId('idle-warning')).toContainText(`${idle} scenario`);
    else await expect(report.getByTestId('idle-warning')).toHaveCount(0);

    // The run survives a reload, from the saved log.
    await page.reload();
    await pane
      .getByRole('region', { name: 'Saved runs' })
      .getByRole('button', { name: /^22 scenarios × 2/ })
      .click();
    await expect(pane.getByRole('region', { name: 'Run report' })).toContainText(
      'Finished · 44 of 44 dialogues',
    );
    await expect(pane.getByTestId('pass-rate')).toContainText(`${passed} passed, ${failed} failed`);
  });

  test('a run cut off by a reload is resumed: judged dialogues stay, the rest run', async ({
    workbench,
    page,
  }) => {
    const slow = await startOpenAIServer({
      script: () => ({ text: 'Let me look into that for you.', delayMs: 150 }),
    });
    try {
      await workbench.openExample('airline');
      await useEndpoint(page, slow.url);
      const pane = workbench.pane('simulate');
      const form = pane.getByRole('form', { name: 'Run settings' });
      await form.getByLabel('Max turns').fill('2');
      await form.getByRole('button', { name: 'Run scenarios' }).click();
      const report = pane.getByRole('region', { name: 'Run report' });
      await expect(report).toContainText(/Running · ([3-9]|1\d) of 22 dialogues/, {
        timeout: 60_000,
      });

      await page.reload();
      await pane
        .getByRole('region', { name: 'Saved runs' })
        .getByRole('button', { name: /^22 scenarios × 1/ })
        .click();
      await expect(report).toContainText('Interrupted');
      const kept = (await storedLog(page)).filter((e) => e.type === 'checks').length;
      expect(kept).toBeGreaterThanOrEqual(3);

      await report.getByRole('button', { name: 'Resume' }).click();
      await expect(report).toContainText('Finished · 22 of 22 dialogues', { timeout: 60_000 });
      const log = await storedLog(page);
      expect(log.filter((e) => e.type === 'run-resumed')).toHaveLength(1);
      const judged = log.filter((e) => e.type === 'checks').map((e) => e.dialogue);
      expect(new Set(judged).size).toBe(22);
      expect(judged).toHaveLength(22);
      await expect(report.getByRole('table', { name: 'Dialogues' }).getByRole('row')).toHaveCount(
        23,
      );
    } finally {
      await slow.close();
    }
  });

  test('scenarios written by the generator model for sampled policies run with the rest', async ({
    workbench,
    page,
  }) => {
    const scenario = {
      persona: 'A traveller who booked last week.',
      goal: 'Find out what the baggage allowance is.',
      knows: ['their user id'],
      unknown: [],
      rows: {},
      expected: {
        database: [],
        required_actions: [],
        forbidden_actions: [],
        must_say: [],
        must_not_say: [],
      },
    };
    // The generator writes a good scenario for every combination but the first it is asked
    // about, where every answer (repairs included) is broken.
    let doomed: string | undefined;
    const writer = await startOpenAIServer({
      script: (request) => {
        const body = request.body as OpenAIRequestBody;
        if (body.response_format === undefined) return undefined;
        const prompt = JSON.stringify(body.messages?.slice(0, 2));
        doomed ??= prompt;
        return { text: prompt === doomed ? 'Sure! Here is a scenario.' : JSON.stringify(scenario) };
      },
    });
    try {
      await workbench.openExample('airline');
      await useEndpoint(page, writer.url);
      await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
      await page.getByLabel('Engine for Generator').selectOption({ label: 'Custom' });
      await page.keyboard.press('Escape');
      const pane = workbench.pane('simulate');
      const form = pane.getByRole('form', { name: 'Run settings' });
      await form.getByLabel('Max turns').fill('1');
      await form.getByLabel('Generate').fill('3');
      await expect(form.getByLabel('Levels')).toHaveValue('4-8');
      await form.getByRole('button', { name: 'Run scenarios' }).click();
      const report = pane.getByRole('region', { name: 'Run report' });
      await expect(report).toContainText('22 scenarios + 3 to generate × 1');
      await expect(report).toContainText('Finished · 24 of 24 dialogues', { timeout: 60_000 });
      const log = await storedLog(page);
      const generated = log.filter(
        (e) => e.type === 'scenario' && (e as { source?: string }).source === 'generated',
      );
      expect(generated).toHaveLength(2);
      // The combination with no valid scenario is in the log and in the report, with why.
      expect(log.filter((e) => e.type === 'scenario-failed')).toHaveLength(1);
      const failures = report.getByTestId('generation-failures');
      await expect(failures).toContainText('1 of 3 sampled combinations got no valid scenario');
      await failures.getByText('got no valid scenario').click();
      await expect(failures.getByRole('listitem')).toContainText('2 tries');
      await expect(report.getByRole('table', { name: 'Dialogues' })).toContainText('gen-2#1');
    } finally {
      await writer.close();
    }
  });
});
