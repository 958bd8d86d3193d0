import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { LOG_VERSION } from '../src/core/sim/events.ts';
import type { TestServer } from '../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { assignRole, priceModel, runOnEndpoint, useEndpoint } from './endpoints.ts';
import { KNOWN_OUTCOMES, openRefundDesk, refundDeskScript } from './refundDesk.ts';
import { expect, test } from './fixtures.ts';

/** A log saved by PolicyLab before logs had a version: 2 passes, 2 failures, 4 errors. */
const V1_LOG = JSON.parse(readFileSync('src/core/sim/testdata/log-v1.json', 'utf8')) as unknown[];

/**
 * Puts a run with `log` straight into the page's run store, under the project of the run saved
 * there already, as an older (or newer) PolicyLab would have left it.
 */
function storeRun(page: Page, title: string, log: readonly unknown[]) {
  return page.evaluate(
    ({ title, log }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('policylab-runs');
        open.onerror = () => {
          reject(new Error('no run database'));
        };
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction('runs').objectStore('runs').getAll();
          read.onsuccess = () => {
            const [existing] = read.result as { projectId: string }[];
            if (!existing) {
              reject(new Error('no run to take the project from'));
              return;
            }
            const id = `run-${title}`;
            const tx = db.transaction(['runs', 'events'], 'readwrite');
            tx.objectStore('runs').put({
              id,
              projectId: existing.projectId,
              createdAt: '2020-01-01T00:00:00.000Z',
              title,
            });
            log.forEach((event, seq) => tx.objectStore('events').put({ run: id, seq, event }));
            tx.oncomplete = () => {
              resolve();
            };
            tx.onerror = () => {
              reject(new Error('could not store the run'));
            };
          };
        };
      }),
    { title, log },
  );
}

/** The saved run's log, read straight from IndexedDB. */
function storedLog(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ type: string; reason?: string; dialogue?: string; detail?: string }[]>(
        (resolve, reject) => {
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
        },
      ),
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

  test('runs a project whose outcomes are known: the report says exactly them, and old logs still open', async ({
    workbench,
    page,
  }) => {
    const desk = await startOpenAIServer({ script: refundDeskScript });
    try {
      await openRefundDesk(page);
      const pane = workbench.pane('simulate');
      await pane.getByRole('button', { name: 'Run scenarios' }).click();
      await expect(pane.getByRole('alert')).toContainText('Choose models first');

      // A dollar budget cannot be kept for a model without a price: said, not ignored.
      await useEndpoint(page, desk.url);
      const form = pane.getByRole('form', { name: 'Run settings' });
      await form.getByLabel('Trials').fill('2');
      // The form says so before the run.
      await expect(form.getByTestId('budget-notice')).toContainText(
        '“sim-model” has no price: the $1 budget cannot count its calls.',
      );
      await form.getByRole('button', { name: 'Run scenarios' }).click();
      await expect(pane.getByRole('alert')).toContainText(
        'A dollar budget needs the price of every model it pays for, and "sim-model" has none.',
      );
      await priceModel(page, '0.5', '1.5');
      await expect(form.getByTestId('budget-notice')).toHaveCount(0);
      // A judge model gives its opinion per policy, shown apart as opinion.
      await assignRole(page, 'Judge');
      await form.getByRole('button', { name: 'Run scenarios' }).click();

      const report = pane.getByRole('region', { name: 'Run report' });
      const { passes, fails, errors, unattributed, suspect } = KNOWN_OUTCOMES;
      await expect(report).toContainText('Finished · 10 of 10 dialogues', { timeout: 120_000 });
      await expect(report.getByTestId('pass-rate')).toContainText(
        `${passes * 2} passed, ${fails * 2} failed`,
      );
      await expect(report.getByTestId('pass-rate')).toContainText('33%');
      // member-refund's customer made up a member number: kept out of the rate until reviewed.
      await expect(report.getByTestId('suspect-count')).toContainText(String(suspect * 2));
      // The judge's opinion: refund-window violated in both late-refund dialogues, judged in the
      // six settled dialogues, agreeing with the checks wherever both looked at refund-window.
      await expect(report.getByTestId('judge-card')).toContainText(
        '2 violations in 6 dialogues judged; agrees with the checks 6 of 6 times. A model’s opinion, not a verdict.',
      );
      const window = report
        .getByRole('table', { name: 'Policies' })
        .getByRole('row')
        .filter({ hasText: 'refund-window' });
      await expect(window.getByTestId('judge-opinion')).toContainText(
        'violated in 2 of 6 (opinion)',
      );
      // late-refund's refund was refused by the guard: an attempt, shown as tried and refused.
      await expect(window.getByTestId('attempts')).toHaveText('2 attempts refused');
      await expect(window).toContainText('tried, refused · guard');
      // polite-refund's failure names no policy: listed apart, charged to none.
      await expect(report.getByTestId('unattributed')).toContainText(
        `${unattributed * 2} failures in ${unattributed * 2} dialogues name no policy`,
      );
      // Nothing deterministic examines verify-identity in these dialogues: not checked, no pass.
      const policies = report.getByRole('table', { name: 'Policies' });
      const identity = policies.getByRole('row').filter({ hasText: 'verify-identity' });
      await expect(identity).toContainText('not checked');
      await expect(identity).not.toContainText('%');
      await expect(identity.getByTestId('not-checked')).toContainText('not checked in 6 dialogues');
      await expect(report.getByTestId('errors')).toContainText(`${errors * 2} provider error`);
      // Every call is counted, the failed ones too: lost-order's agent call fails once a trial.
      await expect(report).toContainText('(2 failed, counted all the same)');
      const dialogues = report.getByRole('table', { name: 'Dialogues' });
      for (const [verdict, scenarios] of [
        ['pass', ['fresh-refund']],
        ['fail', ['late-refund', 'polite-refund']],
        ['error', ['lost-order']],
        ['suspect', ['member-refund']],
      ] as const) {
        const rows = dialogues
          .getByRole('row')
          .filter({ has: page.locator(`.verdict[data-verdict="${verdict}"]`) });
        await expect(rows).toHaveCount(2 * scenarios.length);
        for (const scenario of scenarios)
          await expect(rows.filter({ hasText: scenario })).toHaveCount(2);
      }
      await expect(dialogues.getByRole('row').filter({ hasText: 'late-refund#1' })).toContainText(
        '· tried, refused',
      );
      // The ending names whose provider failed.
      await expect(dialogues.getByRole('row').filter({ hasText: 'lost-order#1' })).toContainText(
        'provider error (the agent’s)',
      );
      // A person reviews one suspect dialogue: it counts, and the rate takes it in.
      const suspectRow = dialogues.getByRole('row').filter({ hasText: 'member-refund#1' });
      await expect(suspectRow.getByTestId('suspect')).toContainText('"ZX81"');
      await suspectRow.getByRole('button', { name: 'Count it' }).click();
      await expect(suspectRow.getByTestId('suspect')).toContainText('Reviewed: counts as judged');
      await expect(report.getByTestId('pass-rate')).toContainText(
        `${passes * 2 + 1} passed, ${fails * 2} failed`,
      );
      await expect(report.getByTestId('suspect-count')).toContainText('1');
      const log = await storedLog(page);
      expect(log[0]).toMatchObject({ type: 'run-started', version: LOG_VERSION });
      expect(log.at(-1)).toMatchObject({ type: 'review', decision: 'counts' });

      // A run saved before logs had a version opens through its migration; a log from a newer
      // PolicyLab is refused with a message, and the run on screen stays.
      await storeRun(page, 'Saved before log versions', V1_LOG);
      const [first, ...rest] = V1_LOG as Record<string, unknown>[];
      await storeRun(page, 'From a newer PolicyLab', [
        { ...first, version: LOG_VERSION + 1 },
        ...rest,
      ]);
      await page.reload();
      const saved = pane.getByRole('region', { name: 'Saved runs' });
      await saved.getByRole('button', { name: /^Saved before log versions/ }).click();
      await expect(report.getByTestId('pass-rate')).toContainText('2 passed, 2 failed');
      await expect(report.getByTestId('errors')).toContainText('2 scenario cannot run');
      await expect(report.getByTestId('errors')).toContainText('2 provider error');
      await saved.getByRole('button', { name: /^From a newer PolicyLab/ }).click();
      await expect(pane.getByRole('alert')).toContainText(
        `This run was saved by a newer PolicyLab (log format ${LOG_VERSION + 1}`,
      );
      await expect(report.getByTestId('pass-rate')).toContainText('2 passed, 2 failed');
    } finally {
      await desk.close();
    }
  });

  test('a judge that may decide decides only the policy no check covers, labelled as a model’s', async ({
    workbench,
    page,
  }) => {
    const desk = await startOpenAIServer({ script: refundDeskScript });
    try {
      // A policy no guard, precondition, check or expectation covers, on a tool every dialogue calls.
      await openRefundDesk(page, (files) => ({
        ...files,
        'policies.yaml': (files['policies.yaml'] ?? '').replace(
          'relations:\n',
          `  - id: greet-by-name
    text: Greet the customer by name once they are identified.
    category: tone
    challenge: 1
    tools: [get_user]
relations:
`,
        ),
      }));
      const pane = workbench.pane('simulate');
      await useEndpoint(page, desk.url);
      await priceModel(page, '0.5', '1.5');
      await assignRole(page, 'Judge');
      const form = pane.getByRole('form', { name: 'Run settings' });
      await form.getByLabel('Judge decides uncovered policies').check();
      await form.getByRole('button', { name: 'Run scenarios' }).click();
      const report = pane.getByRole('region', { name: 'Run report' });
      await expect(report).toContainText('Finished · 5 of 5 dialogues', { timeout: 120_000 });
      await expect(report.getByTestId('judge-card')).toContainText(
        'It decides 1 policy no check covers (greet-by-name): decided by a model.',
      );
      const policies = report.getByRole('table', { name: 'Policies' });
      const greet = policies.getByRole('row').filter({ hasText: 'greet-by-name' });
      await expect(greet.getByTestId('decided-by-model')).toHaveText(
        'decided by a model (the judge): no check covers it',
      );
      // The judge found it kept in the four settled dialogues: a rate, not "not checked".
      await expect(greet).toContainText('100%');
      // verify-identity has a guard rule: the judge never decides it.
      const identity = policies.getByRole('row').filter({ hasText: 'verify-identity' });
      await expect(identity.getByTestId('decided-by-model')).toHaveCount(0);
    } finally {
      await desk.close();
    }
  });

  test('the tool calls an agent may make in a row are the user’s to set: at the limit a dialogue ends', async ({
    workbench,
    page,
  }) => {
    // An agent that never answers: it looks the customer up again and again.
    const looping = await startOpenAIServer({
      script: (request) =>
        (request.body as OpenAIRequestBody).tools
          ? { toolCalls: [{ name: 'get_user', arguments: { user_id: 'u1' } }] }
          : { text: 'I would like a refund for order o1.' },
    });
    try {
      await openRefundDesk(page);
      const pane = workbench.pane('simulate');
      const report = await runOnEndpoint(pane, looping.url, { 'Tool calls in a row': '3' });
      await expect(report).toContainText('Finished · 5 of 5 dialogues', { timeout: 120_000 });
      const endings = report.getByRole('table', { name: 'Endings by cause' });
      await expect(endings.getByRole('row').filter({ hasText: 'turn limit' })).toContainText('5');
      // Three calls in each of the five dialogues, then the limit: not 30, the default.
      const agent = report
        .getByRole('table', { name: 'Spending per role' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'agent' }) });
      await expect(agent.getByRole('cell').nth(1)).toHaveText('15');
      const ended = (await storedLog(page)).filter((e) => e.type === 'dialogue-ended');
      expect(ended.map((e) => e.detail)).toEqual(
        Array(5).fill('The agent called tools 3 times in a row without answering.'),
      );
    } finally {
      await looping.close();
    }
  });

  test('a run cut off by a reload is resumed: judged dialogues stay, the rest run', async ({
    workbench,
    page,
  }) => {
    // Slow until the reload, so the run is cut midway; then quick, so the resumed rest is short.
    let delayMs = 150;
    const slow = await startOpenAIServer({
      script: () => ({ text: 'Let me look into that for you.', delayMs }),
    });
    try {
      await workbench.openExample('airline');
      const pane = workbench.pane('simulate');
      const report = await runOnEndpoint(pane, slow.url, { 'Max turns': '2' });
      await expect(report).toContainText(/Running · ([3-9]|1\d) of 22 dialogues/, {
        timeout: 120_000,
      });

      await page.reload();
      delayMs = 0;
      await pane
        .getByRole('region', { name: 'Saved runs' })
        .getByRole('button', { name: /^22 scenarios × 1/ })
        .click();
      await expect(report).toContainText('Interrupted');
      const kept = (await storedLog(page)).filter((e) => e.type === 'checks').length;
      expect(kept).toBeGreaterThanOrEqual(3);

      await report.getByRole('button', { name: 'Resume' }).click();
      await expect(report).toContainText('Finished · 22 of 22 dialogues', { timeout: 120_000 });
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
    // about (two are asked at once, so which one varies), where every answer is broken.
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
      await priceModel(page, '0.5', '1.5');
      await assignRole(page, 'Generator');
      const pane = workbench.pane('simulate');
      const form = pane.getByRole('form', { name: 'Run settings' });
      await form.getByLabel('Max turns').fill('1');
      await form.getByLabel('Generate').fill('3');
      await expect(form.getByLabel('Levels')).toHaveValue('4-8');
      await form.getByRole('button', { name: 'Run scenarios' }).click();
      const report = pane.getByRole('region', { name: 'Run report' });
      await expect(report).toContainText('22 scenarios + 3 to generate × 1');
      await expect(report).toContainText('Finished · 24 of 24 dialogues', { timeout: 120_000 });
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
      // Which sample is asked first (and doomed) depends on timing: the two written ones run.
      for (const e of generated) {
        const id = (e as { scenario?: { id?: string } }).scenario?.id ?? '';
        expect(id).toMatch(/^gen-[123]$/);
        await expect(report.getByRole('table', { name: 'Dialogues' })).toContainText(`${id}#1`);
      }
    } finally {
      await writer.close();
    }
  });
});
