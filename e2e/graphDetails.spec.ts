import type { Locator, Page } from '@playwright/test';
import { heatColor } from '../src/core/index.ts';
import { AIRLINE_POLICY_RESULTS, AIRLINE_RUN } from '../src/test/airlineRun.ts';
import { expect, test } from './fixtures.ts';
import { ReplayPane } from './replayPane.ts';

const graphPane = (page: Page) => page.locator('section[data-pane="graph"]');
const node = (page: Page, id: string) =>
  graphPane(page).locator(`.react-flow__node-policy[data-id="${id}"]`);
const panel = (page: Page) => graphPane(page).getByTestId('details-panel');
const canvas = (page: Page) => graphPane(page).locator('.graph-flow');
const legend = (page: Page) => graphPane(page).locator('.graph-legend');

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box: not on screen');
  return box;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** `#RRGGBB` as the browser writes a computed colour. */
function rgbOf(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

test('Escape closes the innermost first: the dialog, then the details panel, then the maximised pane', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  const graph = workbench.pane('graph');
  const before = await workbench.visiblePanes();
  await graph.getByRole('button', { name: 'Maximize Graph' }).click();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['graph']);
  await node(page, 'confirm-before-write').dispatchEvent('click');
  await expect(panel(page)).toBeVisible();
  await graph.getByRole('button', { name: 'Sample policy combinations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample policy combinations' });
  await expect(dialog).toBeVisible();
  // The level is explained where it shows.
  await expect(dialog).toContainText('sum of its policies’ challenges');
  await dialog.getByRole('button', { name: 'Close' }).focus();

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(panel(page)).toBeVisible();
  expect(await workbench.visiblePanes()).toEqual(['graph']);

  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  expect(await workbench.visiblePanes()).toEqual(['graph']);
  // The policy stays selected; only its details closed.
  await expect(node(page, 'confirm-before-write')).toHaveClass(/selected/);

  await page.keyboard.press('Escape');
  await expect.poll(() => workbench.visiblePanes()).toEqual(before);
});

test('the cursor in policies.yaml selects and centres a node without opening the panel; a click opens it beside the canvas', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('policies.yaml');
  await workbench.select('id: confirm-name-matches-profile');
  const selected = node(page, 'confirm-name-matches-profile');
  await expect(selected).toHaveClass(/selected/);
  // Centred: the node stands near the middle of the canvas.
  await expect
    .poll(async () => {
      const [n, c] = [await boxOf(selected), await boxOf(canvas(page))];
      return Math.abs(n.x + n.width / 2 - (c.x + c.width / 2)) < c.width / 4;
    })
    .toBe(true);
  await expect(panel(page)).toHaveCount(0);
  // Escape in the editor is the editor's: nothing in the shell closes or restores.
  await page.keyboard.press('Escape');
  await expect(selected).toHaveClass(/selected/);

  await selected.dispatchEvent('click');
  await expect(panel(page)).toBeVisible();
  await expect(panel(page)).toContainText('confirm-name-matches-profile');
  const [p, c, l] = [
    await boxOf(panel(page)),
    await boxOf(canvas(page)),
    await boxOf(legend(page)),
  ];
  expect(overlaps(p, c)).toBe(false);
  expect(overlaps(p, l)).toBe(false);
  expect(p.width).toBeGreaterThan(150);
  await panel(page).getByRole('button', { name: 'Close details' }).click();
  await expect(panel(page)).toHaveCount(0);
});

test('with the airline run, a policy’s panel gives its known results, the heatmap colours the graph, and a dialogue opens in Replay', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.themeChoice('Light theme').click();
  const replay = new ReplayPane(page);
  await replay.importRun(AIRLINE_RUN.path);
  await expect(replay.root).toContainText(`${AIRLINE_RUN.totals.dialogues} dialogues`);

  const broken = 'whole-reservation-cancellation';
  const mixed = 'refund-within-24-hours';
  const untested = 'refund-insured-covered-reason';
  // The latest run colours the graph by default.
  await expect(node(page, broken).locator('.policy-node')).toHaveAttribute(
    'data-failure-rate',
    '1',
  );
  await expect(node(page, broken).locator('.policy-node')).toHaveCSS(
    'background-color',
    rgbOf(heatColor(1, 'light')),
  );
  await expect(node(page, untested).locator('.policy-node')).toHaveAttribute(
    'data-failure-rate',
    'untested',
  );
  await expect(node(page, untested).locator('.policy-node')).toHaveCSS(
    'background-color',
    rgbOf(heatColor(null, 'light')),
  );
  await expect(graphPane(page).getByRole('img', { name: /Failure rate in the run/ })).toBeVisible();

  await node(page, mixed).dispatchEvent('click');
  const known = AIRLINE_POLICY_RESULTS[mixed];
  await expect(panel(page).getByTestId('policy-tested')).toHaveText(String(known.tested));
  await expect(panel(page).getByTestId('policy-broken')).toHaveText(String(known.broken));
  const rate = Math.round(((known.tested - known.broken) / known.tested) * 100);
  await expect(panel(page).getByTestId('policy-pass-rate')).toHaveText(`${rate}%`);
  const list = panel(page).getByRole('list', { name: 'Dialogues that had it under test' });
  for (const [dialogue, verdict] of Object.entries(known.dialogues))
    await expect(list.locator(`li[data-verdict="${verdict}"]`, { hasText: dialogue })).toHaveCount(
      1,
    );

  // The dialogue that broke it opens in Replay.
  await list.getByRole('button', { name: 'late-refund-without-insurance#1' }).click();
  await expect(replay.dialogue).toBeVisible();
  // Only #1 of the two trials has its cancellation refused by the guard.
  const late = AIRLINE_RUN.dialogues['late-refund-without-insurance#1'];
  await expect(replay.dialogue).toContainText(`Refused by ${late.refused.rule}`);

  // "category" puts the category colours back.
  await graphPane(page)
    .getByRole('combobox', { name: 'Colour policies by the results of a run' })
    .selectOption('none');
  await expect(node(page, broken).locator('.policy-node')).not.toHaveAttribute(
    'data-failure-rate',
    /.*/,
  );
});

test('a syntax error in policies.yaml keeps the graph, the selection and its details until the text parses again', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('policies.yaml');
  const id = 'introduce-as-skyway';
  await node(page, id).dispatchEvent('click');
  await expect(panel(page)).toContainText('Category');
  await workbench.goToEndOf(`- id: ${id}`);
  await page.keyboard.insertText(': [oops');
  const graph = workbench.pane('graph');
  await expect(graph.getByTestId('graph-stale')).toBeVisible();
  await expect(graph).toContainText('58 policies');
  await expect(node(page, id)).toHaveClass(/selected/);
  await expect(panel(page)).toContainText(id);
  await expect(panel(page)).not.toContainText('no longer in policies.yaml');

  await page.keyboard.press('Control+Z');
  await expect(graph.getByTestId('graph-stale')).toHaveCount(0);
  await expect(graph).toContainText('58 policies');
  await expect(node(page, id)).toHaveClass(/selected/);
  await expect(panel(page)).toContainText('Category');
});
