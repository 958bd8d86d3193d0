import { copyFileSync, readFileSync } from 'node:fs';
import { AIRLINE_RUN } from '../src/test/airlineRun.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { priceModel, useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';
import { refundDeskScript } from './refundDesk.ts';
import { ReplayPane, graphNode, openAirlineRun } from './replayPane.ts';

/** The policies each scenario of the recorded run has under test, read from its log. */
const UNDER_TEST = new Map(
  (
    JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as {
      type: string;
      scenario?: { id: string; policies: string[] };
    }[]
  ).flatMap((e) =>
    e.type === 'scenario' && e.scenario ? [[e.scenario.id, e.scenario.policies]] : [],
  ),
);

test.describe('Replay', () => {
  test('a recorded run: a failure opened from the report, stepped with the keyboard, linked, reviewed and compared', async ({
    workbench,
    page,
  }) => {
    const replay = await openAirlineRun(workbench, page);

    // Opened from the report's dialogue list, at the turn where it broke (Simulate is a tab
    // beside Replay).
    const simulate = workbench.pane('simulate');
    await page.keyboard.press('Alt+3');
    await simulate
      .getByRole('region', { name: 'Saved runs' })
      .getByRole('button', { name: /^Imported: airline-run/ })
      .click();
    const report = simulate.getByRole('region', { name: 'Run report' });
    const late = AIRLINE_RUN.dialogues['late-refund-without-insurance#1'];
    await report
      .getByRole('table', { name: 'Dialogues' })
      .getByRole('button', { name: 'late-refund-without-insurance#1' })
      .click();
    await expect(replay.current).toContainText(
      `Refused by ${late.refused.rule} (${late.refused.policy}) · fallback: a message back to the agent`,
    );
    await expect(replay.current).toContainText(late.refused.tool);
    const refusedAt = await replay.step();

    // The graph lights the policies in play, the one broken here in the failure colour.
    const underTest = UNDER_TEST.get('late-refund-without-insurance') ?? [];
    expect(underTest).toContain(late.refused.policy);
    await expect(graphNode(page, late.refused.policy)).toHaveAttribute('data-replay', 'breached');
    for (const policy of underTest.filter((p) => p !== late.refused.policy))
      await expect(graphNode(page, policy)).toHaveAttribute('data-replay', /in-play|lit/);

    // Stepping with the keyboard moves the replay and the graph with it.
    await replay.press('ArrowRight');
    await expect(replay.stepCount).toHaveText(`Step ${refusedAt.at + 1} of ${refusedAt.of}`);
    await expect(graphNode(page, late.refused.policy)).not.toHaveAttribute(
      'data-replay',
      'breached',
    );
    await replay.press('ArrowLeft');
    await expect(graphNode(page, late.refused.policy)).toHaveAttribute('data-replay', 'breached');
    await replay.press('Home');
    await expect(replay.stepCount).toHaveText(`Step 1 of ${refusedAt.of}`);
    await replay.press('c');
    await expect(replay.current).toContainText('Allowed');
    await replay.press('End');
    await expect(replay.stepCount).toHaveText(`Step ${refusedAt.of} of ${refusedAt.of}`);
    // Picking the broken policy on the graph jumps to the first step that concerns it: the
    // agent's 5th reply, where the judge says it was violated, just before the refusal.
    await graphNode(page, late.refused.policy).click();
    await expect(replay.current).toContainText(late.refused.label);
    await expect(replay.current).toContainText(late.refused.policy);
    await replay.press('ArrowRight');
    await expect(replay.current).toContainText(`Refused by ${late.refused.rule}`);

    // One dialogue exported for a ticket: Markdown, with the refusal in it.
    const download = page.waitForEvent('download');
    await replay.root.getByRole('button', { name: 'Markdown' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('late-refund-without-insurance-1.md');
    const markdown = readFileSync(await file.path(), 'utf8');
    expect(markdown).toContain(late.refused.rule);
    expect(markdown).toContain('late-refund-without-insurance');
    // And as a picture for a ticket: a PNG of the dialogue up to this step.
    const picture = page.waitForEvent('download');
    await replay.root.getByRole('button', { name: 'Picture' }).click();
    const png = await picture;
    expect(png.suggestedFilename()).toBe('late-refund-without-insurance-1.png');
    const bytes = readFileSync(await png.path());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(10_000);
    copyFileSync(await png.path(), test.info().outputPath('dialogue.png'));

    // The whole trip cancelled: the database diff at the step of the call, and the table before and after.
    const oneLeg = AIRLINE_RUN.dialogues['cancel-one-leg-only#1'];
    const { rowChange: change, firstBreach } = oneLeg;
    if (!change || !firstBreach) throw new Error('The recorded run lost its known row change.');
    await replay.pick('cancel-one-leg-only#1');
    await expect(replay.current).toContainText(firstBreach.id);
    await replay.press('c');
    const call = replay.current;
    await expect(call).toContainText(`Changed ${change.table} ${change.key}`);
    await expect(call.getByRole('row', { name: change.field })).toContainText(
      `"${String(change.before)}"→"${String(change.after)}"`,
    );
    const row = replay.table(change.table).getByRole('row').filter({ hasText: change.key });
    await expect(row).toHaveAttribute('data-mark', 'update');
    await expect(row).toContainText(String(change.after));
    await replay.press('ArrowLeft');
    await expect(
      replay.root.getByText(`Nothing in ${change.table} has changed yet.`),
    ).toBeVisible();

    // The judge found the policy kept where the check found it broken: a person marks it wrong.
    await replay.press('End');
    const opinion = replay.root
      .getByTestId('opinion')
      .filter({ hasText: oneLeg.judgeDisagrees[0] ?? '' });
    await expect(opinion).toContainText('Judge’s opinion (a model): kept');
    await opinion.getByRole('button', { name: 'Wrong' }).click();
    await expect(opinion.getByRole('button', { name: 'Wrong' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // And the check that found it broken: right.
    const finding = replay.root.getByTestId('finding').filter({ hasText: firstBreach.id }).first();
    await finding.getByRole('button', { name: 'Right' }).click();
    await expect(finding.getByRole('button', { name: 'Right' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const marked = await replay.step();

    // The address names the run, the dialogue and the step: a reload lands on the same place.
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toMatchObject({ dialogue: 'cancel-one-leg-only#1', step: String(marked.at) });
    await page.reload();
    await expect(replay.stepCount).toHaveText(`Step ${marked.at} of ${marked.of}`);
    await expect(replay.root.getByRole('heading', { name: /cancel-one-leg-only#1/ })).toBeVisible();
    const kept = replay.root
      .getByTestId('opinion')
      .filter({ hasText: oneLeg.judgeDisagrees[0] ?? '' });
    await expect(kept.getByRole('button', { name: 'Wrong' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // The report counts what people said of the judge.
    await page.keyboard.press('Alt+3');
    await simulate
      .getByRole('region', { name: 'Saved runs' })
      .getByRole('button', { name: /^Imported: airline-run/ })
      .click();
    await expect(report.getByTestId('judge-card')).toContainText(
      'People reviewing it found the judge right 0 of 1 times.',
    );
    await expect(report.getByTestId('people-review')).toContainText(
      '1 finding reviewed in Replay, 0 marked wrong.',
    );

    // A policy's breach in the report opens its dialogue at the step where it broke.
    await report
      .getByRole('table', { name: 'Policies' })
      .getByRole('button', { name: `cancel-one-leg-only#2, ${firstBreach.label}` })
      .click();
    await expect(replay.root.getByRole('heading', { name: /cancel-one-leg-only#2/ })).toBeVisible();
    await expect(replay.current).toContainText(firstBreach.id);

    // Two trials of one scenario side by side, parted where they first differ.
    const [first, second] = AIRLINE_RUN.differing.dialogues;
    await replay.pick(first);
    await replay.root
      .getByLabel('Compare with')
      .selectOption({ label: `${second} (trial 2, pass)` });
    await expect(replay.root.getByTestId('parting')).toContainText(
      `${AIRLINE_RUN.differing.partsAt.label}.`,
    );
    const parting = replay.root.locator('[data-parting="true"]');
    await expect(parting).toContainText('They part here');
    await expect(replay.root.getByTestId('compare-right')).toContainText('pass');
    await expect(replay.root.getByTestId('compare-left')).toContainText('fail');
  });

  test('continue from here: a failure caused by a wrong guard rule passes once the rule is fixed, side by side with the original', async ({
    workbench,
    page,
  }) => {
    const desk = await startOpenAIServer({ script: refundDeskScript });
    try {
      // The refund desk with a mistaken window: 3 days instead of 30, so o1's refund is refused.
      const bundle = readFileSync('e2e/fixtures/refund-desk.policylab.json', 'utf8').replace(
        'o.days_since_delivery > 30',
        'o.days_since_delivery > 3',
      );
      await page.route(
        (url) => url.pathname === '/e2e/strict-desk.policylab.json',
        (route) => route.fulfill({ status: 200, contentType: 'application/json', body: bundle }),
      );
      await page.goto('/?bundle=/e2e/strict-desk.policylab.json');
      await useEndpoint(page, desk.url);
      await priceModel(page, '0.5', '1.5');
      const simulate = workbench.pane('simulate');
      await simulate.getByRole('button', { name: 'Run scenarios' }).click();
      const report = simulate.getByRole('region', { name: 'Run report' });
      await expect(report).toContainText('Finished · 5 of 5 dialogues', { timeout: 120_000 });
      await report
        .getByRole('table', { name: 'Dialogues' })
        .getByRole('button', { name: 'fresh-refund#1' })
        .click();
      const replay = new ReplayPane(page);
      await expect(replay.current).toContainText('Refused by refund-late (refund-window)');

      // Fix the rule in rules.yaml, then re-run the rest of the dialogue from the refused reply.
      await workbench.openFile('rules.yaml');
      await workbench.select('o.days_since_delivery > 3)');
      await page.keyboard.insertText('o.days_since_delivery > 30)');
      await replay.press('ArrowLeft');
      await expect(replay.current).toContainText('the agent’s 2nd reply');
      const asked = desk.requests.length;
      await replay.current.getByRole('button', { name: 'Continue from here' }).click();

      await expect(replay.root.getByTestId('compare-right')).toContainText('pass', {
        timeout: 60_000,
      });
      await expect(replay.root.getByTestId('compare-left')).toContainText('fail');
      await expect(replay.root.getByTestId('parting')).toContainText('the agent’s 2nd reply');
      const continued = replay.root.locator('[data-parting="true"]');
      await expect(continued).toContainText('refund_order({"order_id":"o1"})');
      await expect(continued).toContainText('refused');
      // Only the rest was asked of the models: the agent twice (the refund, then its words), the
      // customer once (goodbye). The turns before were given as history, never asked again.
      const rest = desk.requests.slice(asked).map((r) => r.body as { tools?: unknown[] });
      expect(rest.map((body) => (body.tools ? 'agent' : 'customer'))).toEqual([
        'agent',
        'agent',
        'customer',
      ]);
      // The new run is saved with the others and reports its one dialogue passing.
      await page.keyboard.press('Alt+3');
      await expect(report.getByTestId('pass-rate')).toContainText('1 passed, 0 failed');
      await expect(simulate.getByRole('region', { name: 'Saved runs' })).toContainText(
        'Continued: fresh-refund#1 from the agent’s 2nd reply',
      );
    } finally {
      await desk.close();
    }
  });
});
