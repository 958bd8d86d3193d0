import { writeFileSync } from 'node:fs';
import type { ChatEngine, SimScenario } from '../src/core/index.ts';
import { DEFAULT_PERSONA } from '../src/core/index.ts';
import { testScenario } from '../src/core/testing/scenarios.ts';
import { REFUND_PLAN, simulateRefunds } from '../src/test/refundDesk.ts';
import { modelReply } from '../src/test/scriptedModels.ts';
import { expect, test } from './fixtures.ts';
import { ReplayPane } from './replayPane.ts';

/** A judge that finds the first assertion held and the second not. */
const judge: ChatEngine = {
  chat: (request) => {
    const held = (request.messages[0]?.content ?? '').includes('refunds order o1');
    return Promise.resolve(
      modelReply(
        JSON.stringify({
          met: held,
          turn: null,
          reason: held ? 'It refunded o1.' : 'It never offered a voucher.',
          evidence: '',
        }),
      ),
    );
  },
};

/** One trial of the scenario at the refund desk, judged, saved as a run file; its path. */
async function recorded(scenario: SimScenario, name: string): Promise<string> {
  const { events } = await simulateRefunds({
    ...REFUND_PLAN,
    scenarios: [{ scenario, source: 'hand-written' }],
    trials: 1,
    judge: { engine: judge, model: 'judge-model' },
  });
  const path = test.info().outputPath(name);
  writeFileSync(path, JSON.stringify(events));
  return path;
}

test('a tau2-style scenario: its assertions shown as the judge’s opinion in Replay and the report', async ({
  workbench,
  page,
}) => {
  const scenario = testScenario({
    id: 'tau',
    policies: [],
    persona: '',
    goal: 'Refund order o1.',
    knows: ['user id u1'],
    expected: {
      requiredActions: ['refund_order'],
      actionArgs: { 'expected.required_actions[0]': { args: { order_id: 'o1' } } },
      assertions: [
        { text: 'The agent refunds order o1.' },
        { text: 'The agent offers a voucher.' },
      ],
    },
  });
  await workbench.openExample('store');
  const replay = new ReplayPane(page);
  await replay.importRun(await recorded(scenario, 'tau-run.json'));
  await replay.pick('tau#1');
  const cards = replay.dialogue.getByTestId('assertion');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText('Judge’s opinion (a model): holds');
  await expect(cards.nth(1)).toContainText('Judge’s opinion (a model): does not hold');
  await expect(cards.nth(1)).toContainText('“The agent offers a voucher.”');
  await expect(replay.root).toContainText(DEFAULT_PERSONA);
  await expect(replay.root).toContainText('calls refund_order({"order_id":"o1"})');

  await page.keyboard.press('Alt+3');
  const simulate = workbench.pane('simulate');
  await simulate
    .getByRole('region', { name: 'Saved runs' })
    .getByRole('button', { name: /^Imported: tau-run/ })
    .click();
  const report = simulate.getByRole('region', { name: 'Run report' });
  await expect(report.getByTestId('assertions-card')).toContainText(
    'Judge’s opinion: 1 held, 1 did not. A model’s opinion, not a verdict.',
  );
  await expect(report.getByRole('table', { name: 'Dialogues' })).toContainText(
    'judge’s opinion, assertion not held: “The agent offers a voucher.”',
  );
});

test('a scenario graded by its assertions: an unmet one fails it, what it is not graded by is shown apart', async ({
  workbench,
  page,
}) => {
  // tau2-bench's reward_basis [NL_ASSERTION]: the required action is called with the wrong order
  // (a failure, not graded) and the judge finds the second assertion not met (the verdict).
  const scenario = testScenario({
    id: 'graded',
    policies: [],
    persona: '',
    goal: 'Refund order o1.',
    knows: ['user id u1'],
    expected: {
      requiredActions: ['refund_order'],
      actionArgs: { 'expected.required_actions[0]': { args: { order_id: 'o9' } } },
      assertions: [
        { text: 'The agent refunds order o1.' },
        { text: 'The agent offers a voucher.' },
      ],
      gradedBy: ['assertions'],
    },
  });
  await workbench.openExample('store');
  const replay = new ReplayPane(page);
  await replay.importRun(await recorded(scenario, 'graded-run.json'));
  await replay.pick('graded#1');
  const ungraded = replay.root.locator('[data-testid="finding"][data-state="ungraded"]');
  await expect(ungraded).toHaveCount(1);
  await expect(ungraded).toContainText('– Not graded');
  await expect(ungraded).toContainText('Not graded (the scenario is graded by assertions)');

  await page.keyboard.press('Alt+3');
  const simulate = workbench.pane('simulate');
  await simulate
    .getByRole('region', { name: 'Saved runs' })
    .getByRole('button', { name: /^Imported: graded-run/ })
    .click();
  const report = simulate.getByRole('region', { name: 'Run report' });
  const row = report
    .getByRole('table', { name: 'Dialogues' })
    .getByRole('row', { name: /graded#1/ });
  await expect(row.locator('.verdict')).toHaveText('fail');
  await expect(row).toContainText('judge’s opinion, graded: expected.assertions[1] not met');
  await expect(row).toContainText('not graded: expected.required_actions[0]');
  await expect(report.getByTestId('assertions-card')).toContainText(
    'deciding the verdict only for the 2 whose scenario is graded by them',
  );
});
