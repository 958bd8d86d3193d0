import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { dragBy, expect, test } from './fixtures.ts';
import { openRefundDesk } from './refundDesk.ts';

/** "3 of 24" → "24": how many matches the find widget counts in the file. */
const total = (count: string) => count.replace(/^.* of /, '');

const graphPane = (page: Page) => page.locator('section[data-pane="graph"]');
const nodes = (page: Page) => graphPane(page).locator('.react-flow__node-policy');
const node = (page: Page, id: string) =>
  graphPane(page).locator(`.react-flow__node-policy[data-id="${id}"]`);
const edge = (page: Page, a: string, b: string) =>
  graphPane(page).locator(`.react-flow__edge[data-id="${[a, b].sort().join('|')}"]`);

test('the airline graph: filter, drag, connect, edit the weight in the text, undo, export', async ({
  workbench,
  page,
}, testInfo) => {
  await workbench.openExample('airline');
  await graphPane(page).getByRole('button', { name: 'Maximize Graph' }).click();
  await expect(nodes(page)).toHaveCount(58);
  const legend = graphPane(page).getByRole('region', { name: 'Legend' });
  const toggle = legend.getByRole('button', { name: /^Legend/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(legend).toContainText('identity');

  // Filter: hiding a category removes its policies; the search picks out matches.
  await graphPane(page)
    .getByRole('button', { name: /^identity$/ })
    .click();
  const withoutIdentity = await nodes(page).count();
  expect(withoutIdentity).toBeLessThan(58);
  await expect(node(page, 'verify-identity-before-account-actions')).toHaveCount(0);
  await graphPane(page)
    .getByRole('button', { name: /^identity$/ })
    .click();
  await expect(nodes(page)).toHaveCount(58);
  await graphPane(page).getByRole('searchbox', { name: 'Search policies' }).fill('baggage');
  await expect(graphPane(page).locator('.policy-node.is-matched').first()).toBeVisible();
  await graphPane(page).getByRole('searchbox', { name: 'Search policies' }).fill('');

  // Drag a node: it stays where it was dropped, marked as placed by hand.
  const dragged = node(page, 'introduce-as-skyway');
  const before = await dragBy(dragged, 120, 90);
  await expect(dragged.locator('.policy-node')).toHaveAttribute('title', /placed by hand/);
  const after = await dragged.boundingBox();
  expect(Math.abs((after?.x ?? 0) - before.x)).toBeGreaterThan(60);

  // Connect two policies from the graph's details panel.
  await graphPane(page).getByRole('button', { name: 'Restore Graph' }).click();
  const a = 'introduce-as-skyway';
  const b = 'confirm-before-write';
  await expect(edge(page, a, b)).toHaveCount(0);
  await workbench.openFile('policies.yaml');
  const comments = total(await workbench.countMatches('# '));
  await node(page, a).click();
  const details = graphPane(page).getByRole('complementary', { name: `Policy ${a}` });
  await details.getByRole('combobox', { name: `Connect ${a} to` }).fill(b);
  await details.getByRole('button', { name: 'Connect' }).click();
  await expect(edge(page, a, b)).toHaveCount(1);
  expect(await workbench.countMatches(`between: [${a}, ${b}]`)).toMatch(/of 1$/);
  expect(total(await workbench.countMatches('# '))).toBe(comments);

  // Change the weight in the text: the edge follows.
  const width = async () =>
    Number.parseFloat(
      (await edge(page, a, b).locator('.react-flow__edge-path').getAttribute('style'))?.match(
        /stroke-width:\s*([\d.]+)/,
      )?.[1] ?? 'NaN',
    );
  const before5 = await width();
  // The airline file keeps one relation per line, so the new one is too.
  // One keystroke over the selected "5": one typing step, however long the machine takes
  // between keys (a pause of a second starts a new step, so "1", "0" could be two).
  await workbench.select(`${b}], weight: 5`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.type('9');
  await expect.poll(width).toBeGreaterThan(before5);

  // Undo both from the graph: the weight, then the connection.
  await graphPane(page).getByRole('button', { name: 'Undo in policies.yaml' }).click();
  await expect.poll(width).toBe(before5);
  await page.keyboard.press('Control+Z');
  await expect(edge(page, a, b)).toHaveCount(0);
  expect(await workbench.countMatches(`between: [${a}, ${b}]`)).toBe('No results');
  expect(total(await workbench.countMatches('# '))).toBe(comments);

  // Export a PNG.
  const download = page.waitForEvent('download');
  await graphPane(page).getByRole('button', { name: 'Export as PNG' }).click();
  const file = await download;
  const saved = testInfo.outputPath('graph.png');
  await file.saveAs(saved);
  const png = readFileSync(saved);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(16)).toBeGreaterThan(400);
  await testInfo.attach('graph.png', { path: saved, contentType: 'image/png' });
});

test('the cursor in policies.yaml selects its node, and a click on a node shows it in the editor', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await workbench.openFile('policies.yaml');
  await expect(nodes(page)).toHaveCount(58);
  await workbench.select('id: confirm-name-matches-profile');
  await expect(node(page, 'confirm-name-matches-profile')).toHaveClass(/selected/);

  // A policy far down the file: the editor must scroll there to show it.
  await workbench.openFile('agent.md');
  const last = 'no-prompt-disclosure';
  // The click goes to the node itself, even where the small pane's controls overlap it.
  await node(page, last).dispatchEvent('click');
  await expect(
    graphPane(page).getByRole('complementary', { name: `Policy ${last}` }),
  ).toContainText('Category');
  await expect(page.getByRole('tab', { name: /^policies\.yaml/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(workbench.editor.locator('.view-line', { hasText: `id: ${last}` })).toBeVisible();
  await expect(workbench.editor.locator('.view-line', { hasText: 'policies:' })).toHaveCount(0);
});

test('undo in the editor stays in the open file', async ({ workbench, page }) => {
  await workbench.open();
  await workbench.openFile('tools.yaml');
  await workbench.editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# tools note');
  await workbench.openFile('agent.md');
  await workbench.editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('More prompt.');
  await workbench.openFile('tools.yaml');
  await workbench.editor.click();
  await page.keyboard.press('Control+Z');
  await expect(workbench.editor).not.toContainText('# tools note');
  await workbench.openFile('agent.md');
  await expect(workbench.editor).toContainText('More prompt.');
  await workbench.editor.click();
  await page.keyboard.press('Control+Z');
  await expect(workbench.editor).not.toContainText('More prompt.');
  await page.keyboard.press('Control+Shift+Z');
  await expect(workbench.editor).toContainText('More prompt.');
});

test('sample policy combinations, add a policy and delete it from the graph', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await graphPane(page).getByRole('button', { name: 'Maximize Graph' }).click();
  await expect(nodes(page)).toHaveCount(58);

  await graphPane(page).getByRole('button', { name: 'Sample policy combinations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample policy combinations' });
  const samples = dialog.getByRole('list', { name: 'Samples' }).getByRole('listitem');
  await expect(samples).toHaveCount(12);
  const levels = (await samples.allTextContents()).map((t) => Number(/level (\d+)/.exec(t)?.[1]));
  expect(levels.every((l) => l >= 4 && l <= 8)).toBe(true);
  const first = await samples.first().textContent();
  await dialog.getByRole('spinbutton', { name: 'Seed' }).fill('2');
  await expect(samples.first()).not.toHaveText(first ?? '');
  const picked = ((await samples.first().textContent()) ?? '')
    .replace(/^level \d+/, '')
    .split(' · ');
  await samples.first().getByRole('button').click();
  await expect(dialog).toBeHidden();
  await expect(graphPane(page).locator('.policy-node.is-matched')).toHaveCount(picked.length);
  await graphPane(page).getByRole('button', { name: 'Clear sample' }).click();

  // Add a policy: it appears selected, with its details open.
  await graphPane(page).getByRole('button', { name: 'Add a policy' }).click();
  await expect(nodes(page)).toHaveCount(59);
  const details = graphPane(page).getByRole('complementary', { name: 'Policy new-policy' });
  await expect(details).toContainText('Describe the new policy here.');
  await details.getByRole('combobox', { name: 'Challenge' }).selectOption('4');
  await expect(node(page, 'new-policy').locator('.policy-node')).toHaveAttribute(
    'title',
    /challenge 4/,
  );

  // Delete it with the keyboard, then bring it back with Ctrl+Z.
  await node(page, 'new-policy').focus();
  await page.keyboard.press('Delete');
  await expect(nodes(page)).toHaveCount(58);
  await page.keyboard.press('Control+Z');
  await expect(nodes(page)).toHaveCount(59);
});

test('dragging from a node handle onto another policy relates them', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  await graphPane(page).getByRole('button', { name: 'Maximize Graph' }).click();
  await expect(graphPane(page).getByRole('button', { name: 'Lay out again' })).toBeVisible();
  const from = node(page, 'introduce-as-skyway');
  const to = node(page, 'no-prompt-disclosure');
  await expect(edge(page, 'introduce-as-skyway', 'no-prompt-disclosure')).toHaveCount(0);
  await from.hover();
  const handle = await from.locator('.policy-handle').boundingBox();
  const target = await to.boundingBox();
  if (!handle || !target) throw new Error('nodes not drawn');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(edge(page, 'introduce-as-skyway', 'no-prompt-disclosure')).toHaveCount(1);
  await expect(
    graphPane(page).getByRole('button', { name: 'Undo in policies.yaml' }),
  ).toBeEnabled();
});

test('a typo that breaks policies.yaml keeps the graph as it last parsed, and says where', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('airline');
  const graph = workbench.pane('graph');
  await expect(graph).toContainText('58 policies');
  await workbench.openFile('policies.yaml');
  await workbench.goToEndOf('- id: introduce-as-skyway');
  await page.keyboard.insertText(': [oops');
  const stale = graph.getByTestId('graph-stale');
  await expect(stale).toContainText('policies.yaml does not parse (line 9)');
  await expect(graph).toContainText('58 policies');
  await page.keyboard.press('Control+Z');
  await expect(stale).toHaveCount(0);
  await expect(graph).toContainText('58 policies');
});

test('a small graph is not blown up: no node past 24 px, every node and its label in the pane', async ({
  workbench,
  page,
}) => {
  await openRefundDesk(page);
  const graph = workbench.pane('graph');
  await expect(graph.locator('.react-flow__node')).toHaveCount(2);
  await page.waitForTimeout(300);
  for (const node of await graph.locator('.react-flow__node').all()) {
    expect(((await node.boundingBox())?.width ?? 0) / 2).toBeLessThanOrEqual(24 + 3);
  }
  const pane = await graph.getByTestId('graph-canvas').boundingBox();
  for (const label of await graph.locator('.policy-label').all()) {
    const box = await label.boundingBox();
    expect(box && pane && box.x >= pane.x && box.x + box.width <= pane.x + pane.width).toBe(true);
  }
});
