import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { AIRLINE_RUN } from '../src/test/airlineRun.ts';
import { expect, test } from './fixtures.ts';
import { ReplayPane } from './replayPane.ts';

/** An API key the page holds while the run is saved; it must not be in the file. */
const KEY = 'sk-e2e-standalone-4c8a1f02d9e7b6a3';

/** Text that would run if it were read as markup, or close the element that carries the run. */
const HOSTILE = '</script><img src=x onerror="window.__pwned=1">';

/** Gives the page an endpoint with an API key, through the Models dialog, as a person does. */
async function holdKey(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('tab', { name: 'Endpoints' }).click();
  await dialog.getByRole('button', { name: '+ Other' }).click();
  const card = dialog.getByRole('listitem', { name: 'Custom' });
  await card.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await card.getByLabel('Model').fill('sim-model');
  await card.getByLabel('API key').fill(KEY);
  await page.keyboard.press('Escape');
}

/** Saves the run in the Replay pane with "Download as a standalone page"; returns the file. */
async function saveStandalone(page: Page, path: string) {
  const replay = new ReplayPane(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    replay.root.getByRole('button', { name: 'Download as a standalone page' }).click(),
  ]);
  await download.saveAs(path);
  return { path, name: download.suggestedFilename(), bytes: readFileSync(path) };
}

/**
 * Opens a saved page from disk in a fresh browser where nothing but the file itself may load,
 * and records every request it makes, every uncaught error and every console error.
 */
async function openOffline(browser: Browser, path: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const url = pathToFileURL(path).href;
  const tried: string[] = [];
  context.on('request', (request) => {
    if (request.url() !== url) tried.push(request.url());
  });
  await context.route('**/*', (route) =>
    route.request().url() === url ? route.continue() : route.abort(),
  );
  await context.setOffline(true);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  return { page, tried, errors, close: () => context.close() };
}

test.describe('a run as one standalone page', () => {
  test('opens offline from disk with its report and every dialogue, read-only, and no key in it', async ({
    workbench,
    page,
    browser,
  }, testInfo) => {
    await workbench.openExample('airline');
    await holdKey(page);
    const replay = new ReplayPane(page);
    await replay.importRun(AIRLINE_RUN.path);
    await expect(replay.root).toContainText(`${AIRLINE_RUN.totals.dialogues} dialogues`);
    const saved = await saveStandalone(page, testInfo.outputPath('airline.html'));
    expect(saved.name).toBe('Imported airline-run.html');
    expect(saved.bytes.includes(KEY)).toBe(false);
    testInfo.annotations.push({
      type: 'size',
      description: `${(saved.bytes.length / 1024).toFixed(0)} KB with the airline run`,
    });

    const viewer = await openOffline(browser, saved.path);
    const { totals } = AIRLINE_RUN;
    await expect(viewer.page).toHaveTitle('Imported: airline-run · PolicyLab');
    const report = viewer.page.getByRole('region', { name: 'Run report' });
    await expect(report.getByTestId('pass-rate')).toContainText(
      `${totals.passes} passed, ${totals.fails} failed`,
    );
    await expect(report.getByTestId('errors')).toContainText(String(totals.errors));
    // Nothing that would change the run is offered.
    await expect(viewer.page.getByRole('button', { name: /Resume|Count it|Discard/ })).toHaveCount(
      0,
    );

    // A dialogue opened from the report shows in the Replay tab at the guard's refusal.
    const late = AIRLINE_RUN.dialogues['late-refund-without-insurance#1'];
    await report
      .getByRole('table', { name: 'Dialogues' })
      .getByRole('button', { name: 'late-refund-without-insurance#1' })
      .click();
    const pane = new ReplayPane(viewer.page);
    await expect(pane.current).toContainText(`Refused by ${late.refused.rule}`);
    await expect(pane.current).toContainText(late.refused.tool);
    await pane.press('Home');
    await expect(pane.stepCount).toHaveText(/^Step 1 of \d+$/);
    await pane.pick('cancel-one-leg-only#1');
    await expect(pane.dialogue).toContainText('cancel_reservation');
    for (const name of [
      'Continue from here',
      'Add a note',
      'Right',
      'Wrong',
      'Copy link to this step',
      'Download as a standalone page',
    ])
      await expect(pane.root.getByRole('button', { name, exact: true })).toHaveCount(0);

    expect(viewer.errors).toEqual([]);
    expect(viewer.tried).toEqual([]);
    await viewer.close();
  });

  test('shows hostile text in the log as text, and nothing in it runs', async ({
    workbench,
    page,
    browser,
  }, testInfo) => {
    const events = JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8')) as Record<string, unknown>[];
    const dialogue = 'late-refund-without-insurance#1';
    const hostile = events.map((e) =>
      e.dialogue !== dialogue
        ? e
        : e.type === 'message' && e.turn === 0
          ? { ...e, text: HOSTILE }
          : e.type === 'guard' && e.allowed === false
            ? { ...e, reason: `<svg onload="window.__pwned=2"></svg>${HOSTILE}` }
            : e,
    );
    const file = testInfo.outputPath(`${HOSTILE.replace(/\//g, '')}.json`);
    writeFileSync(file, JSON.stringify(hostile));

    await workbench.openExample('airline');
    const replay = new ReplayPane(page);
    await replay.importRun(file);
    await expect(replay.root).toContainText(`${AIRLINE_RUN.totals.dialogues} dialogues`);
    const saved = await saveStandalone(page, testInfo.outputPath('hostile.html'));

    const viewer = await openOffline(browser, saved.path);
    await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText(
      `Imported: ${HOSTILE.replace(/\//g, '')}`,
    );
    await viewer.page.getByRole('tab', { name: 'Dialogues' }).click();
    const pane = new ReplayPane(viewer.page);
    await pane.pick(dialogue);
    await pane.press('Home');
    await expect(pane.current).toContainText(HOSTILE);
    await pane.press('End');
    await expect(pane.dialogue).toContainText(`<svg onload="window.__pwned=2"></svg>${HOSTILE}`);
    expect(
      await viewer.page.evaluate(() => (window as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    await expect(viewer.page.locator('#root img, #root svg[onload]')).toHaveCount(0);

    expect(viewer.errors).toEqual([]);
    expect(viewer.tried).toEqual([]);
    await viewer.close();
  });
});
