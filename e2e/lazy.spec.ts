import { chunkFilesOf, expect, test } from './fixtures.ts';

const MONACO = chunkFilesOf('src/features/author/MonacoEditor.tsx');
const GRAPH = chunkFilesOf('src/features/graph/GraphCanvas.tsx');

test('the editor and the graph library load only when their panes first show', async ({
  workbench,
  page,
}) => {
  await workbench.open();
  await workbench.toggle('author').click();
  await workbench.toggle('graph').click();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['simulate']);

  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.reload();
  await expect(workbench.pane('simulate')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const loaded = (files: string[]) => files.some((f) => requested.includes(`/${f}`));
  expect(loaded(MONACO), 'Monaco loaded while its pane was hidden').toBe(false);
  expect(loaded(GRAPH), 'React Flow loaded while its pane was hidden').toBe(false);

  await workbench.toggle('author').click();
  const editor = workbench.pane('author').locator('.monaco-editor');
  await expect(editor).toBeVisible();
  await expect(editor).toContainText('# Untitled project');
  expect(loaded(MONACO)).toBe(true);
  expect(loaded(GRAPH)).toBe(false);

  await workbench.toggle('graph').click();
  await expect(page.getByTestId('graph-canvas')).toBeVisible();
  await expect(workbench.pane('graph')).toContainText('No policies to draw');
  expect(loaded(GRAPH)).toBe(true);
});

test('each file keeps its own text in the editor', async ({ workbench, page }) => {
  await workbench.open();
  const editor = workbench.pane('author').locator('.monaco-editor');
  await expect(editor).toContainText('# Untitled project');

  await page.getByRole('tab', { name: 'tools.yaml' }).click();
  await expect(editor).toContainText('tools: []');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# lookup_booking comes next');

  await page.getByRole('tab', { name: 'agent.md' }).click();
  await expect(editor).toContainText('# Untitled project');
  await expect(editor).not.toContainText('lookup_booking');

  // Arrow keys move through the file list.
  await page.getByRole('tab', { name: 'agent.md' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('tab', { name: 'tools.yaml' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(editor).toContainText('# lookup_booking comes next');
});

test('a pane whose code fails to download says so and recovers on retry', async ({
  workbench,
  page,
}) => {
  let fail = true;
  await page.route(`**/${GRAPH[0] ?? ''}`, (route) => (fail ? route.abort() : route.continue()));
  await workbench.open();
  const graph = workbench.pane('graph');
  await expect(graph.getByRole('alert')).toContainText('The Graph pane stopped working');
  // The rest of the page still works.
  await expect(workbench.pane('author').locator('.monaco-editor')).toBeVisible();

  fail = false;
  await graph.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('graph-canvas')).toBeVisible();
  await expect(graph.getByRole('alert')).toHaveCount(0);
});
