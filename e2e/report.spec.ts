import { readFileSync } from 'node:fs';
import { AIRLINE_RUN } from '../src/test/airlineRun.ts';
import { expect, test } from './fixtures.ts';
import { openAirlineReport } from './replayPane.ts';

test('the report draws the known rates, names the models and sorts its tables', async ({
  workbench,
  page,
}) => {
  const report = await openAirlineReport(workbench, page);
  // 3 passed, 3 failed, 2 errors left out: 50%, by the scripted user and judge.
  const overall = report.getByTestId('pass-rate');
  await expect(overall).toContainText('50%');
  await expect(overall.getByTestId('report-models')).toHaveText(
    'user: scripted-user · judge: scripted-judge',
  );
  await expect(report.getByRole('img', { name: /^Pass rate by challenge level/ })).toHaveAttribute(
    'aria-label',
    'Pass rate by challenge level. level 9: 0% (0 of 2 passed, 95% interval 0 to 66%); ' +
      'level 17: 100% (2 of 2 passed, 95% interval 34 to 100%); ' +
      'level 22: 50% (1 of 2 passed, 95% interval 9 to 91%).',
  );
  await expect(report.getByRole('img', { name: /^pass\^k/ })).toHaveAttribute(
    'aria-label',
    /k=1: 50% over 3 scenarios; k=2: 33% over 3 scenarios/,
  );

  // Categories: refunds is the only one below 100%; sorting by rate puts it first, then last.
  const categories = report.getByRole('table', { name: 'Pass rate by category' });
  await expect(categories.getByRole('caption')).toContainText('user: scripted-user');
  const rateHeader = categories.getByRole('columnheader', { name: /Pass rate/ });
  const firstCategory = categories.getByRole('rowheader').first();
  await expect(rateHeader).toHaveAttribute('aria-sort', 'none');
  await rateHeader.getByRole('button').click();
  await expect(rateHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(categories.getByRole('rowheader').last()).toHaveText('refunds');
  await rateHeader.getByRole('button').click();
  await expect(rateHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstCategory).toHaveText('refunds');

  // Spending per role, from the log's usage events.
  const spending = report.getByRole('table', { name: 'Spending per role' });
  await expect(spending.getByRole('row').filter({ hasText: 'agent' })).toContainText(
    '42 (2 failed)',
  );
  await expect(report.getByRole('table', { name: 'Endings by cause' })).toContainText(
    'provider error',
  );
});

test('the report downloads as Markdown and CSV with the known overall numbers', async ({
  workbench,
  page,
}) => {
  const report = await openAirlineReport(workbench, page);
  const files = report.getByRole('group', { name: 'Save the run' });
  const read = async (label: string) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: label }).click(),
    ]);
    return {
      name: download.suggestedFilename(),
      text: readFileSync(await download.path(), 'utf8'),
    };
  };
  const markdown = await read('Report (Markdown)');
  expect(markdown.name).toMatch(/-report\.md$/);
  expect(markdown.text).toContain('**50.0%**');
  expect(markdown.text).toContain('3 passed, 3 failed, 2 errors left out');
  expect(markdown.text).toContain('Simulated user: scripted-user');
  const csv = await read('Report (CSV)');
  expect(csv.name).toMatch(/-report\.csv$/);
  expect(csv.text).toContain('overall,run,3,3,0.5,');
  const log = await read('Log (JSONL)');
  const lines = log.text.trim().split('\n');
  const recorded = JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as unknown[];
  expect(lines).toHaveLength(recorded.length);
  expect(JSON.parse(lines[0] ?? '')).toMatchObject({ type: 'run-started', seed: 1 });
});
