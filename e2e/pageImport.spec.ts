import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import { expect, test } from './fixtures.ts';

/** A small tau2-bench domain written for this test (data/ and src/, as tau2 lays them out). */
const DOMAIN = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  'fixtures',
  'bike-rental',
);

/** The domain's folder zipped whole, one top folder inside, as zipping the folder makes it. */
function domainZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const entry of readdirSync(DOMAIN, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      entries[`bike-rental/${path.relative(DOMAIN, full)}`] = readFileSync(full);
    }
  return Buffer.from(zipSync(entries));
}

/** The Share pane's "Open a file…" input. */
async function pickFiles(page: Page, files: Parameters<Page['setInputFiles']>[1]) {
  await page.keyboard.press('Alt+5');
  const share = page.getByRole('region', { name: 'Share', exact: true });
  await share.getByTestId('share-import').setInputFiles(files);
}

test.describe('Importing a domain in the page', () => {
  test('a tau2-bench domain zip opens as a new project with its files and what was not carried', async ({
    page,
    workbench,
  }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await workbench.openExample('airline');
    const title = await page.title();
    await pickFiles(page, {
      name: 'bike-rental.zip',
      mimeType: 'application/zip',
      buffer: domainZip(),
    });

    const report = page.getByRole('dialog', { name: 'Imported “bike-rental” from tau2-bench' });
    await expect(report).toBeVisible();
    await expect(report).toContainText('2 tools, 2 tables (bikes 2 rows, riders 2 rows), 1 tasks.');
    await expect(report).toContainText('Check: 0 errors');
    // Both tools' whole bodies came over (rent_bike's failure and change, get_rider's own
    // answer): no tool is listed as not imported or carried in part.
    await expect(report.getByRole('list', { name: 'Tools not imported' })).toHaveCount(0);
    await expect(report.getByRole('list', { name: 'Not carried in tools.yaml' })).toHaveCount(0);
    // The task's arguments and assertions are carried: nothing of scenarios.yaml is listed.
    await expect(report.getByRole('list', { name: 'Not carried in scenarios.yaml' })).toHaveCount(
      0,
    );

    await report.getByRole('button', { name: 'Copy report' }).click();
    await expect(report.getByRole('status')).toHaveText('Copied.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('Imported tau2-bench domain "bike-rental" as the new project');
    expect(copied).not.toContain('Tools not imported');
    await report.getByRole('button', { name: 'Done' }).click();
    await expect(report).toBeHidden();

    // The new project is open with the domain's tools and data; the airline example is kept.
    const arrival = page.getByTestId('arrival');
    await expect(arrival).toContainText('Opened “bike-rental” from a file, as a new project');
    await workbench.openFile('tools.yaml');
    await expect(workbench.editor).toContainText('rent_bike');
    // get_rider's own failure came over as a precondition with its message.
    await expect(workbench.editor).toContainText('Unknown rider');
    await workbench.openFile('database.yaml');
    await expect(workbench.editor).toContainText('Station Road');

    // The report opens again from the notice, and Undo takes the import away.
    await arrival.getByRole('button', { name: 'What was not carried' }).click();
    await expect(report).toBeVisible();
    await report.getByRole('button', { name: 'Done' }).click();
    await arrival.getByRole('button', { name: 'Undo' }).click();
    await expect(page).toHaveTitle(title);
  });

  test('a zip holding two domains is refused in words and the open project stays', async ({
    page,
    workbench,
  }) => {
    await workbench.openExample('airline');
    const title = await page.title();
    const one = domainZip();
    const files = unzipSync(new Uint8Array(one));
    const twice: Record<string, Uint8Array> = {};
    for (const [name, bytes] of Object.entries(files)) {
      twice[name] = bytes;
      twice[name.replace(/^bike-rental\//, 'scooters/')] = bytes;
    }
    await pickFiles(page, {
      name: 'two.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(zipSync(twice)),
    });
    await expect(page.getByTestId('share-notice')).toContainText(
      'These files cannot be imported: These files hold more than one domain',
    );
    await expect(page.getByTestId('arrival')).toBeHidden();
    await expect(page).toHaveTitle(title);
  });
});
