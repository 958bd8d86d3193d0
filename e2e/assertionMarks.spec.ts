import { writeFileSync } from 'node:fs';
import type { ChatEngine } from '../src/core/index.ts';
import { testScenario } from '../src/core/testing/scenarios.ts';
import { REFUND_PLAN, simulateRefunds } from '../src/test/refundDesk.ts';
import { modelReply } from '../src/test/scriptedModels.ts';
import { expect, test } from './fixtures.ts';
import { ReplayPane } from './replayPane.ts';

/** A judge that finds every assertion held. */
const judge: ChatEngine = {
  chat: () =>
    Promise.resolve(
      modelReply(JSON.stringify({ met: true, turn: null, reason: 'It did.', evidence: '' })),
    ),
};

test('a person marks the judge’s opinion of an assertion wrong, and the report counts it (over another project’s run)', async ({
  workbench,
  page,
}) => {
  const scenario = testScenario({
    id: 'tau',
    policies: [],
    persona: '',
    goal: 'Refund order o1.',
    expected: { assertions: [{ text: 'The agent offers a voucher.' }] },
  });
  const { events } = await simulateRefunds({
    ...REFUND_PLAN,
    scenarios: [{ scenario, source: 'hand-written' }],
    trials: 1,
    judge: { engine: judge, model: 'judge-model' },
  });
  const path = test.info().outputPath('tau-run.json');
  writeFileSync(path, JSON.stringify(events));

  await workbench.openExample('store');
  const replay = new ReplayPane(page);
  await replay.importRun(path);
  await replay.pick('tau#1');
  // The run is the refund desk's, opened over the store: its tools are said once, not per call.
  const foreign = replay.dialogue.getByRole('note', { name: 'Tools of another project' });
  await expect(foreign).toHaveCount(1);
  await expect(foreign).toContainText('This run’s tools are not this project’s:');
  await expect(foreign).toContainText('refund_order');
  await expect(replay.dialogue).not.toContainText('There is no tool named');
  const card = replay.dialogue.getByTestId('assertion');
  await expect(card).toContainText('Judge’s opinion (a model): holds');
  await card.getByRole('button', { name: 'Wrong' }).click();
  await expect(card.getByRole('button', { name: 'Wrong' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card).toContainText('You marked the judge wrong.');

  // The mark is in the run's log: it is there after a reload, and the report counts it.
  await page.reload();
  await expect(
    replay.dialogue.getByTestId('assertion').getByRole('button', { name: 'Wrong' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Alt+3');
  const simulate = workbench.pane('simulate');
  await simulate
    .getByRole('region', { name: 'Saved runs' })
    .getByRole('button', { name: /^Imported: tau-run/ })
    .click();
  await expect(
    simulate.getByRole('region', { name: 'Run report' }).getByTestId('assertions-card'),
  ).toContainText('People reviewing it found the judge right 0 of 1 times.');
});
