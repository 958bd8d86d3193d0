import type { Page } from '@playwright/test';
import type { PaneId } from './fixtures.ts';
import { PANES, TITLES, expect, test } from './fixtures.ts';
import { openAirlineReport } from './replayPane.ts';

/** The on-screen box of every pane that shows, rounded to whole pixels. */
async function paneBoxes(page: Page): Promise<Partial<Record<PaneId, number[]>>> {
  const boxes: Partial<Record<PaneId, number[]>> = {};
  for (const id of PANES) {
    const box = await page.locator(`section[data-pane="${id}"]`).boundingBox();
    if (box && box.width > 0) boxes[id] = [box.x, box.y, box.width, box.height].map(Math.round);
  }
  return boxes;
}

function expectSameBoxes(
  actual: Partial<Record<PaneId, number[]>>,
  expected: Partial<Record<PaneId, number[]>>,
) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [id, box] of Object.entries(expected)) {
    const got = actual[id as PaneId] ?? [];
    box.forEach((value, i) => {
      expect(Math.abs((got[i] ?? NaN) - value), `${id}[${i}]`).toBeLessThanOrEqual(1);
    });
  }
}

test.describe('at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the editor and the graph get the room; Replay and Share are a key away at a usable size', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    expect((await workbench.editor.boundingBox())?.width).toBeGreaterThanOrEqual(560);
    await expect(workbench.pane('graph')).toBeVisible();
    expect(await workbench.paneWidth('graph')).toBeGreaterThanOrEqual(400);
    await expect(workbench.pane('simulate')).toBeVisible();

    for (const [key, id] of [
      ['Alt+4', 'replay'],
      ['Alt+5', 'share'],
      ['Alt+3', 'simulate'],
    ] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => workbench.focusedPane()).toBe(id);
      const box = await workbench.pane(id).boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(400);
      expect(box?.height).toBeGreaterThanOrEqual(300);
      // The editor keeps its room while they take turns.
      expect((await workbench.editor.boundingBox())?.width).toBeGreaterThanOrEqual(560);
    }
    // A tab in a pane's title bar brings another pane of the slot forward.
    await workbench.pane('simulate').getByRole('button', { name: 'Replay' }).click();
    await expect(workbench.pane('replay')).toBeVisible();
    await expect(workbench.pane('simulate')).toBeHidden();

    // Squeezed to a sliver by hand, the slot comes back at a usable size when a pane is asked for.
    const separator = page.getByRole('separator', {
      name: 'Resize between Graph and Simulate/Replay/Share',
    });
    await separator.focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await workbench.paneHeight('replay')) < 200).toBe(true);
    await page.keyboard.press('Alt+4');
    await expect.poll(() => workbench.paneHeight('replay')).toBeGreaterThanOrEqual(280);
  });

  test('sizes survive a reload, and restoring from maximise returns exactly the sizes before', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    const separator = page.getByRole('separator').first();
    await separator.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Alt+4');
    await expect.poll(() => workbench.focusedPane()).toBe('replay');
    await expect(workbench.pane('replay')).toBeVisible();
    const before = await paneBoxes(page);
    expect(Object.keys(before).sort()).toEqual(['author', 'graph', 'replay']);

    await page.reload();
    await expect(workbench.editor).toBeVisible();
    await expect
      .poll(async () => Object.keys(await paneBoxes(page)).sort())
      .toEqual(Object.keys(before).sort());
    expectSameBoxes(await paneBoxes(page), before);

    for (const id of ['graph', 'replay', 'author'] as const) {
      await workbench
        .pane(id)
        .getByRole('button', { name: `Maximize ${TITLES[id]}` })
        .click();
      await expect.poll(() => workbench.visiblePanes()).toEqual([id]);
      await workbench
        .pane(id)
        .getByRole('button', { name: `Restore ${TITLES[id]}` })
        .click();
      await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'graph', 'replay']);
      expectSameBoxes(await paneBoxes(page), before);
    }
  });

  test('a layout saved by the old three columns, or a broken one, gives the default layout', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    await page.evaluate(() => {
      localStorage.setItem('policylab.layout.workbench', '{"author":38,"middle":34,"right":28}');
      localStorage.setItem('policylab.layout.middle', '{"graph":58,"simulate":42}');
      localStorage.setItem('policylab.layout.v2.workbench', '{"author":0,"middle":60}');
      localStorage.setItem('policylab.layout.v2.work', 'not json');
      localStorage.setItem('policylab.layout.v2.tabs', '{"desk":"author"}');
    });
    await page.reload();
    await expect(workbench.editor).toBeVisible();
    expect(await workbench.visiblePanes()).toEqual(['author', 'graph', 'simulate']);
    expect((await workbench.editor.boundingBox())?.width).toBeGreaterThanOrEqual(560);
  });

  test('with a run on screen the report shows without scrolling past the form', async ({
    workbench,
    page,
  }) => {
    const report = await openAirlineReport(workbench, page);
    const simulate = workbench.pane('simulate');
    await expect(report.getByTestId('pass-rate')).toBeInViewport({ ratio: 1 });
    // The settings are one line now, and open on request.
    const form = simulate.getByRole('form', { name: 'Run settings' });
    await expect(form.getByTestId('run-settings-summary')).toContainText('1 trial · 2 at once');
    await form.getByRole('button', { name: 'Settings…' }).click();
    await expect(form.getByLabel('Trials')).toBeVisible();
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`the rule playground's decision is in view at ${viewport.width}×${viewport.height}`, async ({
    workbench,
    page,
  }) => {
    await page.setViewportSize(viewport);
    await workbench.openExample('airline');
    await workbench.openFile('rules.yaml');
    await page.getByRole('button', { name: 'Try a tool call' }).click();
    const playground = page.getByRole('complementary', { name: 'Rule playground' });
    await playground.getByLabel('Tool').selectOption('cancel_reservation');
    await playground.getByLabel('Arguments (JSON)').fill('{"reservation_id": "AW9JV6"}');
    const decision = playground.getByRole('status', { name: 'Decision' });
    await expect(decision).toContainText('Refused by cancel-needs-verified-user');
    await expect(decision.getByText('Refused by')).toBeInViewport({ ratio: 1 });
  });
}

test.describe('at 600×900', () => {
  test.use({ viewport: { width: 600, height: 900 } });

  test('nothing overflows sideways; the panes stack and each is a key away', async ({
    workbench,
    page,
  }) => {
    await workbench.openExample('airline');
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const [index, id] of PANES.entries()) {
      await page.keyboard.press(`Alt+${index + 1}`);
      await expect.poll(() => workbench.focusedPane()).toBe(id);
      await expect(workbench.pane(id)).toBeInViewport({ ratio: 0.5 });
      expect(await workbench.paneWidth(id)).toBeLessThanOrEqual(600);
      expect(await overflow()).toBeLessThanOrEqual(0);
    }
    // The header's toggles go to a pane; they never hide one here.
    await workbench.toggle('graph').click();
    await expect.poll(() => workbench.focusedPane()).toBe('graph');
    expect(await workbench.visiblePanes()).toEqual([...PANES]);
  });
});
