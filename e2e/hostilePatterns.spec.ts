import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CEL_STEP_BUDGET } from '../src/core/celMeter.ts';
import { ENDLESS_CONDITION } from '../src/test/hostile/patternInputs.ts';
import type { RecordedRequest, ServerReply, TestServer } from '../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { runOnEndpoint, useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';
import { refundDeskScript } from './refundDesk.ts';
import { longest, resetLongest } from './longTasks.ts';

// A trace snapshots the whole DOM in the page's thread at each step: it would be measured too.
test.use({ trace: 'off' });

// Patterns that backtrack, and a condition of 10^10 steps, must not hold the page: each part
// measures the longest main-thread task while the hostile input is answered. The condition is
// stopped by the CEL step budget (core/celMeter.ts) wherever it runs: the playground and Play
// on the page's thread, runs in the worker. That Stop and the time limit terminate a worker
// that never answers is proven with a worker that cannot answer (simulationClient.test.ts,
// src/cli/runStuck.test.ts).

/**
 * The longest task allowed while hostile input is answered, in the page thread's CPU time
 * (longTasks.ts): drawing the answer takes up to 130 ms of it here, the budgeted guard a few
 * tens. Unstopped, a backtracking match or 10^10 steps would take hours.
 */
const FREE_MS = 250;
/** Stop's answer, in wall time: 300 ms of grace for a worker that cannot hear it, and drawing. */
const STOP_MS = 3_000;

/** 40 a's and a "!": 2^40 ways for `(a+)+$` to fail on a backtracking engine. */
const HOSTILE = `${'a'.repeat(40)}!`;
const PATTERN = '^(a+)+$';

/** The refund desk with a guard on get_user that matches a pattern, and a must_not_say check. */
function hostileDesk(endless: boolean): string {
  const bundle = JSON.parse(readFileSync('e2e/fixtures/refund-desk.policylab.json', 'utf8')) as {
    files: Record<string, string>;
  };
  const rules = bundle.files['rules.yaml'] ?? '';
  const guard = [
    '  get_user:',
    '    rules:',
    '      - id: user-id-shape',
    '        policy: verify-identity',
    '        decision: forbid',
    `        when: 'args.user_id.matches("${PATTERN}")'`,
    '        message: That is not a user id.',
    ...(endless
      ? [
          '      - id: never-ends',
          '        policy: verify-identity',
          '        decision: forbid',
          `        when: '${ENDLESS_CONDITION}'`,
          '        message: Never reached.',
        ]
      : []),
  ].join('\n');
  const check = [
    '  - id: no-runaway-a',
    '    policy: verify-identity',
    '    kind: must_not_say',
    "    pattern: '(a+)+$'",
  ].join('\n');
  // Replaced by functions: a "$'" in a pattern is not a replacement pattern.
  bundle.files['rules.yaml'] = rules
    .replace('guards:\n', () => `guards:\n${guard}\n`)
    .replace('checks:\n', () => `checks:\n${check}\n`);
  return JSON.stringify(bundle);
}

async function openDesk(page: Page, endless: boolean) {
  const path = `/e2e/hostile-desk-${endless ? 'endless' : 'patterns'}.policylab.json`;
  const body = hostileDesk(endless);
  await page.route(
    (url) => url.pathname === path,
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body }),
  );
  await page.goto(`/?bundle=${path}`);
}

/** The refund desk's models, but the agent looks the customer up by a hostile user id. */
function hostileAgent(request: RecordedRequest): ServerReply {
  const reply = refundDeskScript(request);
  const body = request.body as OpenAIRequestBody;
  if (body.tools && 'toolCalls' in reply && reply.toolCalls?.[0]?.name === 'get_user')
    return { toolCalls: [{ name: 'get_user', arguments: { user_id: HOSTILE } }] };
  return reply;
}

test.describe('hostile patterns', () => {
  let server: TestServer;
  test.beforeAll(async () => {
    server = await startOpenAIServer({ script: hostileAgent });
  });
  test.afterAll(async () => {
    await server.close();
  });
  test('a backtracking pattern in the rule playground is decided at once', async ({
    workbench,
    page,
  }) => {
    await openDesk(page, false);
    await workbench.openFile('rules.yaml');
    await page.getByRole('button', { name: 'Try a tool call' }).click();
    const playground = page.getByRole('complementary', { name: 'Rule playground' });
    await playground.getByLabel('Tool').selectOption('get_user');
    const decision = playground.getByRole('status', { name: 'Decision' });
    // A plain id first, so the hostile one is measured alone (not the first rendering).
    await playground.getByLabel('Arguments (JSON)').fill('{"user_id": "u1"}');
    await expect(decision).toContainText('Allowed');
    await playground.getByLabel('Arguments (JSON)').fill('{"user_id": "aaaaa"}');
    await expect(decision).toContainText('Refused by user-id-shape');
    await resetLongest(page);
    await playground.getByLabel('Arguments (JSON)').fill(JSON.stringify({ user_id: HOSTILE }));
    await expect(decision).toContainText('Allowed');
    expect(await longest(page)).toBeLessThan(FREE_MS);
  });

  test('a 10^10-step guard is refused with the budget’s message in the playground, the page free', async ({
    workbench,
    page,
  }) => {
    await openDesk(page, true);
    await workbench.openFile('rules.yaml');
    await page.getByRole('button', { name: 'Try a tool call' }).click();
    const playground = page.getByRole('complementary', { name: 'Rule playground' });
    await playground.getByLabel('Tool').selectOption('get_user');
    const decision = playground.getByRole('status', { name: 'Decision' });
    await playground.getByLabel('Arguments (JSON)').fill('{"user_id": "aaaaa"}');
    await expect(decision).toContainText('Refused by user-id-shape');
    await resetLongest(page);
    await playground.getByLabel('Arguments (JSON)').fill('{"user_id": "u1"}');
    await expect(decision).toContainText(
      `stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps`,
    );
    expect(await longest(page)).toBeLessThan(FREE_MS);
  });

  test('a run whose guard would compute 10^10 steps goes on, Stop ends it at once, the page free all along', async ({
    workbench,
    page,
  }) => {
    await openDesk(page, true);
    const pane = workbench.pane('simulate');
    // Enough dialogues that the run is still going when Stop is pressed.
    const report = await runOnEndpoint(pane, server.url, { Trials: '20' });
    // Every hostile get_user call meets the endless rule and is refused: dialogues end.
    await expect(report).toContainText(/Running · [1-9]\d* of 100 dialogues/);
    // From here, not the run's start (planning it is the page's work, not the guard's).
    await resetLongest(page);
    // Measured in the page: from the click on Stop to the report saying the run stopped.
    const stopMs = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let clicked = 0;
          document.addEventListener(
            'click',
            () => {
              clicked = performance.now();
            },
            { capture: true, once: true },
          );
          const observer = new MutationObserver(() => {
            const header = document.querySelector('[aria-label="Run report"] .run-header');
            if (clicked && header?.textContent.includes('Stopped ·')) {
              observer.disconnect();
              resolve(performance.now() - clicked);
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        }),
    );
    await pane.getByRole('button', { name: 'Stop', exact: true }).click();
    expect(await stopMs).toBeLessThan(STOP_MS);
    await expect(report).toContainText('Stopped ·');
    expect(await longest(page)).toBeLessThan(FREE_MS);
  });

  test('in Play, the model agent’s call meets the 10^10-step guard: refused with the budget’s message, the page free', async ({
    workbench,
    page,
  }) => {
    await openDesk(page, true);
    await useEndpoint(page, server.url);
    const pane = workbench.pane('simulate');
    await pane.getByRole('tab', { name: 'Play' }).click();
    const setup = pane.getByRole('form', { name: 'Play settings' });
    await setup.getByRole('radio', { name: /^The customer/ }).check();
    await setup.getByRole('button', { name: 'Start playing' }).click();
    const play = pane.getByRole('region', { name: 'Play' });
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');
    const box = play.getByLabel('Your message to the agent');
    await box.fill('I want a refund for order o1.');
    await resetLongest(page);
    await box.press('Enter');
    const dialogue = play.getByRole('list', { name: 'Dialogue' });
    await expect(dialogue).toContainText('refused by never-ends');
    await expect(dialogue).toContainText(
      `stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps`,
    );
    await expect(play.getByLabel('Game status')).toHaveText(/Your turn|Game over/);
    expect(await longest(page)).toBeLessThan(FREE_MS);
  });

  test('a backtracking must_not_say check on the agent’s words in Play is judged at once', async ({
    workbench,
    page,
  }) => {
    await openDesk(page, false);
    await useEndpoint(page, server.url);
    const pane = workbench.pane('simulate');
    await pane.getByRole('tab', { name: 'Play' }).click();
    const setup = pane.getByRole('form', { name: 'Play settings' });
    await setup.getByRole('radio', { name: /^The agent/ }).check();
    await setup.getByLabel('What the customer wants').fill('A refund for order o1.');
    await setup.getByRole('button', { name: 'Start playing' }).click();
    const play = pane.getByRole('region', { name: 'Play' });
    await expect(play.getByLabel('Game status')).toHaveText('Your turn');
    const answer = play.getByLabel('Your answer to the customer');
    await answer.fill(HOSTILE);
    await resetLongest(page);
    await answer.press('Enter');
    await expect(play.getByRole('list', { name: 'Dialogue' })).toContainText(HOSTILE);
    await expect(play.getByLabel('Game status')).toHaveText(/Your turn|Game over/);
    expect(await longest(page)).toBeLessThan(FREE_MS);
  });
});
