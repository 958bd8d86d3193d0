import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { PROJECT_FILES, encodeShareLink, toBundle } from '../src/core/index.ts';
import type { Project } from '../src/core/index.ts';
import { AIRLINE_RUN, airlineProject } from '../src/test/airlineRun.ts';
import { Workbench, expect, test } from './fixtures.ts';
import { ReplayPane, graphNode } from './replayPane.ts';

/** The airline example with a few policies placed by hand: a layout the link must carry. */
const PLACED: Project = {
  ...airlineProject(),
  name: 'SkyWay shared',
  layout: { 'refund-within-24-hours': { x: 120, y: -40 }, 'verify-identity': { x: -300, y: 80 } },
};

/** Opens a project from a bundle file served at a path, as `?bundle=` does. */
async function openBundle(page: Page, project: Project) {
  await page.route(
    (url) => url.pathname === '/e2e/shared.policylab.json',
    (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: toBundle(project) }),
  );
  await page.goto('/?bundle=/e2e/shared.policylab.json');
}

/** A page in a fresh browser context: nothing stored, as on a colleague's machine. */
async function freshPage(browser: Browser) {
  const baseURL = test.info().project.use.baseURL;
  const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, workbench: new Workbench(page) };
}

/** The Share pane, brought to the front of the slot it shares with Simulate and Replay. */
async function sharePane(page: Page) {
  await expect(page.getByRole('banner')).toBeVisible();
  await page.keyboard.press('Alt+5');
  const share = page.getByRole('region', { name: 'Share', exact: true });
  await expect(share).toBeVisible();
  return share;
}

/** The bundle the Share pane downloads for the open project, as text. */
async function downloadedBundle(page: Page): Promise<string> {
  const share = await sharePane(page);
  const download = page.waitForEvent('download');
  await share.getByRole('button', { name: /^Download bundle/ }).click();
  return readFileSync(await (await download).path(), 'utf8');
}

test.describe('Share', () => {
  test('a link opens the same files and layout elsewhere; a view link selects its policy; files round-trip', async ({
    page,
    browser,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openBundle(page, PLACED);
    const share = await sharePane(page);
    await share.getByRole('button', { name: 'Copy link' }).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toContain('#p=1.');
    await expect(share.getByTestId('link-length')).toHaveText(
      `${link.length.toLocaleString('en-US')} characters`,
    );
    const original = await downloadedBundle(page);

    // A colleague opens the link: a new project with the very same files and layout.
    const colleague = await freshPage(browser);
    await colleague.page.goto(link);
    await expect(colleague.page.getByTestId('arrival')).toContainText(
      'Opened “SkyWay shared” from a link',
    );
    const received = JSON.parse(await downloadedBundle(colleague.page)) as {
      files: Record<string, string>;
      layout?: unknown;
    };
    for (const { name } of PROJECT_FILES)
      expect(received.files[name], name).toBe(PLACED.files[name]);
    expect(received.layout).toEqual(PLACED.layout);
    // The bundle downloaded there is the same bytes as here: a byte-identical round trip.
    expect(await downloadedBundle(colleague.page)).toBe(original);

    // The zip of the six files, opened on another machine, gives back the same zip, byte for byte.
    const zipDownload = page.waitForEvent('download');
    await share.getByRole('button', { name: 'Download zip of the six files' }).click();
    const zip = readFileSync(await (await zipDownload).path());
    const fourth = await freshPage(browser);
    await fourth.page.goto('/?new');
    const fourthShare = await sharePane(fourth.page);
    await fourthShare
      .getByTestId('share-import')
      .setInputFiles({ name: 'SkyWay shared.zip', mimeType: 'application/zip', buffer: zip });
    await expect(fourth.page.getByTestId('arrival')).toContainText('Opened “SkyWay shared”');
    const again = fourth.page.waitForEvent('download');
    await fourthShare.getByRole('button', { name: 'Download zip of the six files' }).click();
    expect(readFileSync(await (await again).path()).equals(zip)).toBe(true);

    // "Look at this policy": the graph's view link opens with it selected, the graph maximised.
    const graph = page.getByRole('region', { name: 'Graph', exact: true });
    await graph.getByRole('searchbox', { name: 'Search policies' }).fill('refund-within-24');
    await graphNode(page, 'refund-within-24-hours').click();
    await expect(
      graph.getByRole('complementary', { name: 'Policy refund-within-24-hours' }),
    ).toBeVisible();
    await graph.getByRole('button', { name: 'Copy link to this view' }).click();
    const viewLink = await page.evaluate(() => navigator.clipboard.readText());
    expect(viewLink).toContain('&v=');
    const third = await freshPage(browser);
    await third.page.goto(viewLink);
    const thirdGraph = third.page.getByRole('region', { name: 'Graph', exact: true });
    await expect(thirdGraph.getByRole('searchbox', { name: 'Search policies' })).toHaveValue(
      'refund-within-24',
    );
    await expect(
      thirdGraph.getByRole('complementary', { name: 'Policy refund-within-24-hours' }),
    ).toBeVisible();
    // Maximised: the other panes have stepped aside.
    expect(await third.workbench.visiblePanes()).toEqual(['graph']);
    // The colleague already has the project: the link says so instead of making a copy.
    await colleague.page.goto(viewLink);
    await expect(colleague.page.getByTestId('share-notice')).toContainText(
      'You already have this project here',
    );
    expect(colleague.errors).toEqual([]);
    expect(third.errors).toEqual([]);
    expect(fourth.errors).toEqual([]);
  });

  test('a zip dropped on the page opens as a project; a run exported as a file reports the same elsewhere', async ({
    page,
    workbench,
    browser,
  }) => {
    await workbench.openExample('airline');
    const zip = zipSync(
      Object.fromEntries(
        PROJECT_FILES.map(({ name }) => [
          `desk/${name}`,
          strToU8(name === 'agent.md' ? '# The desk of a dropped zip.\n' : PLACED.files[name]),
        ]),
      ),
    );
    await page.evaluate(
      (bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'desk.zip', { type: 'application/zip' }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true }));
      },
      [...zip],
    );
    await expect(page.getByTestId('arrival')).toContainText('Opened “desk” from a file');

    // A recorded run, passed on as a compressed log and opened on another machine.
    await workbench.openExample('airline');
    const replay = new ReplayPane(page);
    await replay.importRun(AIRLINE_RUN.path);
    const share = await sharePane(page);
    const download = page.waitForEvent('download');
    await share.getByRole('button', { name: 'Download the run’s log (.json.gz)' }).click();
    const gz = readFileSync(await (await download).path());

    const other = await freshPage(browser);
    await other.page.goto('/?example=airline');
    const otherShare = await sharePane(other.page);
    await otherShare
      .getByTestId('share-import')
      .setInputFiles({ name: 'airline-run.json.gz', mimeType: 'application/gzip', buffer: gz });
    const otherReplay = new ReplayPane(other.page);
    await expect(otherReplay.root).toContainText(`${AIRLINE_RUN.totals.dialogues} dialogues`);
    const simulate = other.workbench.pane('simulate');
    await other.page.keyboard.press('Alt+3');
    await simulate
      .getByRole('region', { name: 'Saved runs' })
      .getByRole('button', { name: /^Imported: airline-run/ })
      .click();
    const { passes, fails } = AIRLINE_RUN.totals;
    await expect(
      simulate.getByRole('region', { name: 'Run report' }).getByTestId('pass-rate'),
    ).toContainText(`${passes} passed, ${fails} failed`);
    expect(other.errors).toEqual([]);
  });

  test('hostile links and files: each says what is wrong, nothing runs, and the open project is untouched', async ({
    page,
    workbench,
  }) => {
    await workbench.openExample('airline');
    const projectName = page
      .getByRole('banner')
      .getByRole('button', { name: 'Project: SkyWay Airlines support. Rename' });
    await expect(projectName).toBeVisible();
    const share = await sharePane(page);
    const paste = async (text: string) => {
      await share.getByLabel('Or paste a link or a bundle’s text').fill(text);
      await share.getByRole('button', { name: 'Open', exact: true }).click();
      return page.getByTestId('share-notice');
    };

    const valid = encodeShareLink(PLACED);
    const bomb = `#p=1.${Buffer.from(deflateSync(new Uint8Array(64 * 1024 * 1024))).toString('base64url')}`;
    const cases: [string, string][] = [
      [`#${valid.slice(0, valid.length - 60)}`, 'incomplete'],
      ['#p=1.!!!!not*base64!!!!', 'link'],
      [`#p=9.${valid.slice(4)}`, 'newer PolicyLab'],
      [bomb, 'too'],
      ['{"format":"policylab/1","files":{"__proto__":{"x":1},"agent.md":7}}', '__proto__'],
    ];
    for (const [input, said] of cases) {
      await expect(await paste(input), input.slice(0, 40)).toContainText(said);
      await expect(page.getByTestId('arrival')).toHaveCount(0);
      await expect(projectName).toBeVisible();
    }

    // Policy text carrying script, HTML and SVG: shown as text everywhere, nothing runs.
    const payload =
      '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><svg onload="window.__pwned=3"></svg>';
    const hostile: Project = {
      ...PLACED,
      name: 'Hostile <b>name</b>',
      files: {
        ...PLACED.files,
        'policies.yaml': PLACED.files['policies.yaml'].replace(
          /text: .*/,
          `text: '${payload.replace(/'/g, "''")}'`,
        ),
      },
    };
    await page.goto(`/#${encodeShareLink(hostile)}`);
    await expect(page.getByTestId('arrival')).toContainText('Hostile <b>name</b>');
    await workbench
      .pane('graph')
      .getByRole('searchbox', { name: 'Search policies' })
      .fill('onerror');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('img[src="x"], svg[onload]')).toHaveCount(0);

    // A zip bomb dropped on the page is refused without unpacking it whole.
    const zipBomb = zipSync({ 'agent.md': new Uint8Array(80 * 1024 * 1024) }, { level: 9 });
    await share.getByTestId('share-import').setInputFiles({
      name: 'bomb.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(zipBomb),
    });
    await expect(page.getByTestId('share-notice')).toContainText('“bomb.zip” cannot be opened');
  });
});
