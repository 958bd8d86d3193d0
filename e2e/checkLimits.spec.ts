import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { MINI_FILES } from '../src/core/testing/miniProject.ts';
import { referenceBomb } from '../src/test/hostile/checkInputs.ts';
import type { Project } from '../src/core/index.ts';
import { toBundle } from '../src/core/index.ts';
import { Workbench } from './fixtures.ts';

/** Opens a project from a bundle served at a path, as `?bundle=` does. */
async function openBundle(page: Page, project: Project) {
  await page.route(
    (url) => url.pathname === '/e2e/hostile.policylab.json',
    (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: toBundle(project) }),
  );
  await page.goto('/?bundle=/e2e/hostile.policylab.json');
}

test('a policies.yaml past the size limit is named with its size and the limit, not ground through', async ({
  page,
}) => {
  const entry =
    '  - { id: p, text: Refund only to the card paid with., category: c, challenge: 1 }\n';
  const policies = `policies:\n${entry.repeat(Math.ceil(13_000_000 / entry.length))}`;
  await openBundle(page, { name: 'Oversize', files: { ...MINI_FILES, 'policies.yaml': policies } });
  const problems = new Workbench(page).problems();
  await expect(problems).toContainText(
    /policies\.yaml is 13\.0 MB; PolicyLab checks files up to 12\.0 MB\. Nothing in the project was checked; the text is kept as written\./,
  );
  await expect(problems).not.toContainText('No problems in this project.');
});

test('the reference bomb is answered: every unknown policy listed', async ({ page }) => {
  await openBundle(page, referenceBomb(500));
  const problems = new Workbench(page).problems();
  // The list draws 500 rows at a time; the rest are a click away each, counted.
  const more = problems.getByRole('button', {
    name: /^Show \d+ more problems \([\d,]+ not shown\)$/,
  });
  await expect(more).toHaveText('Show 500 more problems (1,000 not shown)');
  await more.click();
  await more.click();
  await expect(more).toHaveCount(0);
  await expect(problems.getByText(/^Unknown policy "unknown-/)).toHaveCount(500);
  await expect(problems).not.toContainText('Checking…');
});
