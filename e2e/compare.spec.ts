import { AIRLINE_RUN_B } from '../src/test/airlineRun.ts';
import type { Workbench } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { openAirlineRun } from './replayPane.ts';

/** Brings Simulate to the front and opens its Compare tab. */
async function openCompare(workbench: Workbench) {
  await workbench.page.keyboard.press('Alt+3');
  const simulate = workbench.pane('simulate');
  await simulate.getByRole('tab', { name: 'Compare' }).click();
  return simulate;
}

/** The scenario trials listed under one heading of the flips, as "scenario · trial n". */
function flipped(simulate: ReturnType<Workbench['pane']>, group: string) {
  return simulate
    .getByRole('region', { name: 'Scenarios that flipped' })
    .getByRole('list', { name: group })
    .getByRole('button');
}

/** Chooses the run whose title is `title` in one of the pickers (its options add the date). */
async function chooseRun(simulate: ReturnType<Workbench['pane']>, side: string, title: string) {
  const picker = simulate.getByRole('combobox', { name: side, exact: true });
  const option = picker.locator('option', { hasText: new RegExp(`^${title} ·`) });
  await picker.selectOption((await option.getAttribute('value')) ?? '');
}

test.describe('Compare', () => {
  test('two imported runs: exactly the known flips, and a flip opens both dialogues in Replay', async ({
    workbench,
    page,
  }) => {
    const replay = await openAirlineRun(workbench, page);
    await replay.importRun(AIRLINE_RUN_B.path);
    await expect(replay.root).toContainText('airline-run-b');

    const simulate = await openCompare(workbench);
    await chooseRun(simulate, 'Before', 'Imported: airline-run');
    await chooseRun(simulate, 'After', 'Imported: airline-run-b');
    const { file, removed, added } = AIRLINE_RUN_B.changed;
    await expect(simulate).toContainText(`The project files differ: ${file} (+1 −1).`);
    await expect(simulate).toContainText('The same models played every role.');
    await expect(flipped(simulate, 'Passed before, failed after')).toHaveText([
      ...AIRLINE_RUN_B.broke,
    ]);
    await expect(flipped(simulate, 'Failed before, passed after')).toHaveText([
      ...AIRLINE_RUN_B.fixed,
    ]);
    await expect(
      simulate.getByRole('list', { name: 'An error on one side (not judged there)' }),
    ).toHaveCount(0);
    await expect(simulate.getByRole('table', { name: 'Policies compared' })).toBeVisible();
    await expect(simulate.getByRole('table', { name: 'Categories compared' })).toBeVisible();
    await expect(simulate).toContainText('Newcombe’s hybrid score interval');

    // The edit between the runs is one click away, numbered as in the file.
    await simulate.getByRole('button', { name: 'Show the changes' }).click();
    const changes = page
      .getByRole('dialog', { name: 'Project files, before → after' })
      .getByRole('region', { name: `Changes to ${file}` });
    await expect(changes.locator('tr[data-kind="removed"]')).toHaveText([`15−${removed}`]);
    await expect(changes.locator('tr[data-kind="added"]')).toHaveText([`15+${added}`]);
    await page.keyboard.press('Escape');

    const [broke] = AIRLINE_RUN_B.broke;
    await flipped(simulate, 'Passed before, failed after').first().click();
    await expect(replay.root.getByTestId('compare-left')).toContainText(`${broke} (this run)`);
    await expect(replay.root.getByTestId('compare-left')).toContainText('pass');
    await expect(replay.root.getByTestId('compare-right')).toContainText(broke);
    await expect(replay.root.getByTestId('compare-right')).toContainText('airline-run-b');
    await expect(replay.root.getByTestId('compare-right')).toContainText('fail');
  });

  test('a re-check after a check in rules.yaml is edited flips exactly the dialogues that say its new pattern', async ({
    workbench,
    page,
  }) => {
    await openAirlineRun(workbench, page);

    // The must_not_say check no-full-card-numbers now looks for reservation TQ7H3K, which only
    // cancel-within-24-hours's agent names (AIRLINE_RUN).
    await workbench.openFile('rules.yaml');
    await workbench.select(String.raw`\b(?:\d[ -]?){12,18}\d\b`);
    await page.keyboard.insertText('TQ7H3K');

    const simulate = await openCompare(workbench);
    const recheck = simulate.getByRole('form', { name: 'Re-check a run against today’s project' });
    await recheck.getByRole('combobox').selectOption({ label: 'Imported: airline-run' });
    await recheck.getByRole('button', { name: 'Re-check' }).click();
    await expect(simulate.getByRole('combobox', { name: 'After', exact: true })).toHaveValue(
      /^run-/,
    );
    await expect(
      simulate.getByRole('combobox', { name: 'After', exact: true }).locator('option:checked'),
    ).toHaveText(/^Re-check of Imported: airline-run ·/);
    await expect(simulate).toContainText('The project files differ: rules.yaml (+1 −1).');
    await expect(flipped(simulate, 'Passed before, failed after')).toHaveText([
      'cancel-within-24-hours#1',
      'cancel-within-24-hours#2',
    ]);
    await expect(simulate.getByRole('list', { name: 'Failed before, passed after' })).toHaveCount(
      0,
    );
  });
});
