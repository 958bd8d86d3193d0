import type { Page } from '@playwright/test';
import { Workbench, dragBy, expect, test } from './fixtures.ts';

/** Opens a new project and puts the cursor at the end of agent.md. */
async function startTyping(workbench: Workbench) {
  await workbench.open();
  await expect(workbench.editor).toBeVisible();
  await expect(workbench.page.getByRole('status', { name: 'Save status' })).toHaveText(
    'Saved on this device',
  );
  await workbench.editor.click();
  await workbench.page.keyboard.press('Control+End');
  await workbench.page.keyboard.press('Enter');
}

/** The text of the open file as Monaco shows it (short files only: every line is drawn). */
function shownText(page: Page) {
  return page
    .locator('section[data-pane="author"] .monaco-editor .view-lines')
    .evaluate((lines) => lines.textContent.replace(/\u00a0/g, ' '));
}

test('an edit survives a reload 0 ms after the last key', async ({ workbench, page }) => {
  await startTyping(workbench);
  await page.keyboard.type('Typed then reloaded');
  await page.reload();
  await expect(workbench.editor).toContainText('Typed then reloaded');
  // (Put back from the journal, with a notice, unless a slow machine saved it before the reload.)
  await expect(page.getByRole('status', { name: 'Save status' })).toHaveText(
    'Saved on this device',
  );
  // The text is in the project store now: one more reload shows it without putting anything back.
  await page.reload();
  await expect(workbench.editor).toContainText('Typed then reloaded');
  await expect(page.getByTestId('unsaved-notice')).toHaveCount(0);
});

test('a renderer crash during steady typing loses at most the last 500 ms', async ({
  workbench,
  page,
  context,
}) => {
  await startTyping(workbench);
  const keys = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV'; // 48 keys, one per 170 ms
  const typedAt: number[] = [];
  for (const key of keys) {
    await page.keyboard.press(key);
    typedAt.push(Date.now());
    await page.waitForTimeout(170);
  }
  const cdp = await context.newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  const killedAt = Date.now();
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;

  const after = await context.newPage();
  const next = new Workbench(after);
  await after.goto('/');
  await expect(next.editor).toContainText('abcdefghij');
  const survived = /[a-zA-Z]+$/.exec((await shownText(after)).trimEnd())?.[0] ?? '';
  const due = typedAt.filter((at) => at <= killedAt - 500).length;
  expect(keys.startsWith(survived)).toBe(true);
  expect(survived.length).toBeGreaterThanOrEqual(due);
});

test('two tabs keep both texts and tell the person', async ({ workbench, page, context }) => {
  await startTyping(workbench);
  const other = await context.newPage();
  const b = new Workbench(other);
  await other.goto('/');
  await expect(b.editor).toBeVisible();
  const saved = (p: Page) => p.getByRole('status', { name: 'Save status' });

  // One after the other: B is told of A's save and shows it; what B types keeps A's words.
  await page.keyboard.type('Words from A');
  await expect(saved(page)).toHaveText('Saved on this device');
  await expect(other.getByTestId('unsaved-notice')).toContainText('changed in another tab');
  await expect(b.editor).toContainText('Words from A');
  await b.editor.click();
  await other.keyboard.press('Control+End');
  await other.keyboard.type(' and from B');
  await expect(saved(other)).toHaveText('Saved on this device');
  await page.reload();
  await expect(workbench.editor).toContainText('Words from A and from B');

  // Both at once, in the same file. If both were typed before either saved, the tab that saves
  // second keeps its text as a copy and says where each is; if one tab saved first (a slow
  // machine), the other took that text before its own key landed and says so. Nothing is lost.
  await workbench.editor.click();
  await page.keyboard.press('Control+End');
  await b.editor.click();
  await other.keyboard.press('Control+End');
  const tabs = [
    { page, editor: workbench.editor, words: ' A again' },
    { page: other, editor: b.editor, words: ' B again' },
  ] as const;
  await Promise.all(tabs.map((tab) => tab.page.keyboard.insertText(tab.words)));
  const outcome = async () => {
    for (const tab of tabs) {
      // All of them, at once: a tab with no notice must not be waited for.
      const notice = (await tab.page.getByTestId('unsaved-notice').allTextContents()).join(' ');
      if (notice.includes('Both texts are kept')) return { conflict: tab };
      // A tab opening its conflicted copy draws its editor again: read what is there now.
      const text = await tab.page
        .locator('section[data-pane="author"] .monaco-editor .view-lines')
        .first()
        .evaluate((lines) => lines.textContent.replace(/\u00a0/g, ' '), undefined, { timeout: 500 })
        .catch(() => '');
      if (text.includes(tabs[0].words) && text.includes(tabs[1].words)) return { merged: tab };
    }
    return null;
  };
  await expect.poll(outcome).not.toBeNull();
  const found = await outcome();
  if (found && 'merged' in found) {
    await expect(found.merged.page.getByTestId('unsaved-notice')).toContainText(
      'changed in another tab',
    );
    return;
  }
  const second = found?.conflict ?? tabs[1];
  const first = second === tabs[0] ? tabs[1] : tabs[0];
  const notice = second.page.getByTestId('unsaved-notice');
  await expect(notice).toContainText('was also changed in another tab');
  await expect(second.editor).toContainText(`from B${second.words}`);
  await expect(
    second.page.getByRole('button', { name: /^Project: .*conflicted copy/ }),
  ).toBeVisible();
  await first.page.reload();
  await expect(first.editor).toContainText(`from B${first.words}`);
  await notice.getByRole('button', { name: /^Open “/ }).click();
  await expect(second.editor).toContainText(`from B${first.words}`);
});

test('a policy dragged on the graph is still where it was dropped after a reload at once', async ({
  workbench,
  page,
}) => {
  await workbench.openExample('store');
  const graph = page.locator('section[data-pane="graph"]');
  const node = graph.locator('.react-flow__node-policy').first();
  await expect(node).toBeVisible();
  const id = (await node.getAttribute('data-id')) ?? '';
  const dragged = graph.locator(`.react-flow__node-policy[data-id="${id}"]`);
  await expect(page.getByRole('status', { name: 'Save status' })).toHaveText(
    'Saved on this device',
  );
  await dragBy(dragged, 120, 90);
  await expect(dragged.locator('.policy-node')).toHaveAttribute('title', /placed by hand/);
  await page.reload();
  await expect(dragged.locator('.policy-node')).toHaveAttribute('title', /placed by hand/);
  // Once more: the position is in the project store, not only put back from the journal.
  await expect(page.getByRole('status', { name: 'Save status' })).toHaveText(
    'Saved on this device',
  );
  await page.reload();
  await expect(dragged.locator('.policy-node')).toHaveAttribute('title', /placed by hand/);
  await expect(page.getByText('that were not saved yet')).toHaveCount(0);
});
