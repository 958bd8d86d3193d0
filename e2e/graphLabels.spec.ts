import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { approximateTextWidth } from '../src/core/graph/textWidth.ts';
import { expect, test } from './fixtures.ts';

// Labels that never overlap, a fit that suits the graph, and the same rule in the export: on the
// airline example (58 policies) at two window sizes, and on a project of four policies.

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const graphPane = (page: Page) => page.locator('section[data-pane="graph"]');

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (outer: Box, inner: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** What the canvas shows, read from the page: its box, the labels', the nodes' and the legend's. */
async function snapshot(page: Page) {
  return graphPane(page).evaluate((pane) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const canvas = pane.querySelector('.graph-flow');
    const legend = pane.querySelector('.graph-legend');
    return {
      canvas: canvas ? box(canvas) : null,
      legend: legend ? box(legend) : null,
      labels: [...pane.querySelectorAll('.policy-label')].map((e) => ({
        text: e.textContent,
        ...box(e),
      })),
      nodes: [...pane.querySelectorAll('.react-flow__node-policy')].map((e) => ({
        id: e.getAttribute('data-id') ?? '',
        ...box(e),
      })),
    };
  });
}

/** The canvas once its labels have settled: two reads in a row that agree. */
async function settled(page: Page) {
  let last = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify(await snapshot(page));
      const same = now === last;
      last = now;
      return same;
    })
    .toBe(true);
  return JSON.parse(last) as Awaited<ReturnType<typeof snapshot>>;
}

function overlappingPairs(boxes: readonly (Box & { text: string })[]): string[] {
  const pairs: string[] = [];
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) if (overlap(a, b)) pairs.push(`${a.text} × ${b.text}`);
  });
  return pairs;
}

async function openAirlineMaximised(page: Page) {
  await page.goto('/?example=airline');
  const pane = graphPane(page);
  await pane.getByRole('button', { name: 'Maximize Graph' }).click();
  await expect(pane.locator('.react-flow__node-policy')).toHaveCount(58);
  await expect(pane.getByRole('button', { name: 'Lay out again' })).toBeVisible();
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`the airline graph maximised at ${viewport.width}×${viewport.height}: labels never overlap or leave the canvas, nodes keep off the legend`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openAirlineMaximised(page);
    const view = await settled(page);
    if (!view.canvas) throw new Error('no canvas');
    expect(view.labels.length).toBeGreaterThanOrEqual(15);
    expect(overlappingPairs(view.labels)).toEqual([]);
    for (const label of view.labels) expect(inside(view.canvas, label), label.text).toBe(true);
    const legend = view.legend;
    if (legend) {
      for (const node of view.nodes) expect(overlap(legend, node), node.id).toBe(false);
      for (const label of view.labels) expect(overlap(legend, label), label.text).toBe(false);
    }
  });
}

test('hovering a policy shows its label', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAirlineMaximised(page);
  const view = await settled(page);
  const shown = new Set(view.labels.map((l) => l.text));
  const hidden = view.nodes.find((n) => !shown.has(n.id));
  if (!hidden) throw new Error('every policy is labelled: nothing to hover');
  await graphPane(page).locator(`.react-flow__node-policy[data-id="${hidden.id}"]`).hover();
  await expect(graphPane(page).locator(`.policy-label[data-id="${hidden.id}"]`)).toBeVisible();
});

test('a project of four policies: every label whole and on screen, nodes at a readable size', async ({
  page,
}) => {
  const bundle = readFileSync('e2e/fixtures/four-policies.policylab.json', 'utf8');
  await page.route(
    (url) => url.pathname === '/e2e/four-policies.policylab.json',
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: bundle }),
  );
  await page.goto('/?bundle=/e2e/four-policies.policylab.json');
  const pane = graphPane(page);
  await expect(pane.locator('.react-flow__node-policy')).toHaveCount(4);
  const view = await settled(page);
  if (!view.canvas) throw new Error('no canvas');
  expect(view.labels.map((l) => l.text).sort()).toEqual(view.nodes.map((n) => n.id).sort());
  for (const label of view.labels) expect(inside(view.canvas, label), label.text).toBe(true);
  expect(overlappingPairs(view.labels)).toEqual([]);
  // Radii on screen: challenge 1 to 5 draw 8 to 20 units; fitted, never past 24 pixels, and
  // not shrunk to dots either.
  const radii = view.nodes.map((n) => n.width / 2);
  expect(Math.max(...radii)).toBeLessThanOrEqual(24 + 3);
  expect(Math.max(...radii)).toBeGreaterThanOrEqual(16);
  for (const node of view.nodes) expect(inside(view.canvas, node), node.id).toBe(true);
});

test('the exported SVG of the airline graph has no overlapping labels', async ({ page }) => {
  await openAirlineMaximised(page);
  const download = page.waitForEvent('download');
  await graphPane(page).getByRole('button', { name: 'Export as SVG' }).click();
  const path = await (await download).path();
  const svg = readFileSync(path, 'utf8');
  const labels = [...svg.matchAll(/<text class="label" x="([-\d.]+)" y="([-\d.]+)">([^<]*)</g)].map(
    ([, x, y, text]) => ({
      text: text ?? '',
      x: Number(x),
      y: Number(y) - 11 * 0.8,
      width: approximateTextWidth((text ?? '').replace(/&amp;/g, '&'), 11),
      height: 11,
    }),
  );
  expect(labels.length).toBeGreaterThanOrEqual(50);
  expect(overlappingPairs(labels)).toEqual([]);
});

test('the tool filter updates the counts and fits the policies left', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAirlineMaximised(page);
  const pane = graphPane(page);
  const count = pane.locator('.graph-count');
  await expect(count).toHaveText(/^58 policies · \d+ relations/);
  // Zoom in first: the filter must fit the view again even after the user moved it.
  await pane.locator('.react-flow__pane').hover();
  await page.mouse.wheel(0, -600);
  await pane
    .getByRole('combobox', { name: 'Only policies using a tool' })
    .selectOption({ index: 1 });
  const shown = pane.locator('.react-flow__node-policy');
  await expect(count).toHaveText(/^\d+ of 58 policies · \d+ of \d+ relations/);
  const n = await shown.count();
  expect(n).toBeLessThan(58);
  await expect(count).toHaveText(new RegExp(`^${n} of 58 policies`));
  const view = await settled(page);
  if (!view.canvas) throw new Error('no canvas');
  for (const node of view.nodes) expect(inside(view.canvas, node), node.id).toBe(true);
  if (view.legend) for (const node of view.nodes) expect(overlap(view.legend, node)).toBe(false);
  await pane.getByRole('combobox', { name: 'Only policies using a tool' }).selectOption('');
  await expect(count).toHaveText(/^58 policies · \d+ relations/);
});
