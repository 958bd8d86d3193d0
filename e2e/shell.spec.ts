import { mkdirSync } from 'node:fs';
import { PANES, TITLES, dragBy, expect, test } from './fixtures.ts';

/** What the default layout shows: Replay and Share wait behind Simulate's tab. */
const DEFAULT_VISIBLE = ['author', 'graph', 'simulate'] as const;

test('shows the editor, the graph and Simulate, with Replay and Share as tabs, and the main actions', async ({
  workbench,
  page,
}) => {
  await workbench.open();
  for (const id of DEFAULT_VISIBLE) {
    await expect(workbench.pane(id)).toBeVisible();
    await expect(
      workbench.pane(id).getByRole('heading', { name: TITLES[id], exact: true }),
    ).toBeVisible();
    await expect(workbench.toggle(id)).toHaveAttribute('aria-pressed', 'true');
  }
  for (const id of ['replay', 'share'] as const) {
    await expect(workbench.toggle(id)).toHaveAttribute('aria-pressed', 'false');
    await expect(
      workbench.pane('simulate').getByRole('button', { name: TITLES[id], exact: true }),
    ).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /Project: Untitled project/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset layout' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(page).toHaveTitle('Untitled project · PolicyLab');
});

test('every pane is reachable from the keyboard', async ({ workbench, page }) => {
  await workbench.open();
  await expect(page.locator('.monaco-editor')).toBeVisible();

  // Alt+digit jumps straight to a pane.
  for (const [index, id] of PANES.entries()) {
    await page.keyboard.press(`Alt+${index + 1}`);
    await expect.poll(() => workbench.focusedPane()).toBe(id);
  }
  // F6 and Shift+F6 cycle through the panes, wrapping around.
  await page.keyboard.press('F6');
  await expect.poll(() => workbench.focusedPane()).toBe('author');
  await page.keyboard.press('Shift+F6');
  await expect.poll(() => workbench.focusedPane()).toBe('share');

  await page.keyboard.press('Alt+3');
  await expect.poll(() => workbench.focusedPane()).toBe('simulate');

  // Tab walks from the top of the page through every pane on screen. Inside the editor Tab indents, so a
  // keyboard user presses Ctrl+M (Monaco's "Tab moves focus") to walk on, as the dialog says.
  await page.locator('body').focus();
  const reached = new Set<string>();
  for (let i = 0; i < 80 && reached.size < DEFAULT_VISIBLE.length; i++) {
    await page.keyboard.press('Tab');
    const inEditor = await page.evaluate(
      () => document.activeElement?.closest('.monaco-editor') !== null,
    );
    if (inEditor) await page.keyboard.press('Control+M');
    const pane = await workbench.focusedPane();
    if (pane) reached.add(pane);
  }
  expect([...reached].sort()).toEqual([...DEFAULT_VISIBLE].sort());
});

test('the theme follows the system until the user picks one, and is remembered', async ({
  workbench,
  page,
}) => {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await workbench.open();
  const root = page.locator('html');
  await expect(root).toHaveAttribute('data-theme', 'light');
  await expect(workbench.themeChoice('Follow the system theme')).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.locator('.monaco-editor')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/shell-light.png' });

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(root).toHaveAttribute('data-theme', 'dark');

  await workbench.themeChoice('Light theme').click();
  await expect(root).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(238, 240, 243)');

  // Arrow keys move through the radio group.
  await page.keyboard.press('ArrowRight');
  await expect(workbench.themeChoice('Dark theme')).toBeFocused();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(13, 15, 19)');
  await expect(page.locator('.monaco-editor')).toHaveCSS('background-color', 'rgb(22, 25, 31)');

  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('.monaco-editor')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/shell-dark.png' });
});

test('panes hide and show from the header, never all of them, and the layout is remembered', async ({
  workbench,
}) => {
  await workbench.open();
  await workbench.toggle('graph').click();
  await expect(workbench.toggle('graph')).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'simulate']);
  // A pane behind a tab comes forward in its slot.
  await workbench.toggle('share').click();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'share']);
  await expect(workbench.toggle('simulate')).toHaveAttribute('aria-pressed', 'false');

  await workbench.page.reload();
  await expect(workbench.pane('author')).toBeVisible();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'share']);

  // Showing a hidden pane also moves focus into it.
  await workbench.toggle('graph').click();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'graph', 'share']);
  await expect.poll(() => workbench.focusedPane()).toBe('graph');

  for (const id of ['author', 'graph'] as const) {
    await workbench.toggle(id).click();
  }
  // The last visible pane stays: its toggle does nothing and its hide button is disabled.
  await expect.poll(() => workbench.visiblePanes()).toEqual(['share']);
  await expect(workbench.toggle('share')).toHaveAttribute('aria-disabled', 'true');
  await expect(workbench.pane('share').getByRole('button', { name: 'Hide Share' })).toBeDisabled();

  await workbench.page.getByRole('button', { name: 'Reset layout' }).click();
  await expect.poll(() => workbench.visiblePanes()).toEqual([...DEFAULT_VISIBLE]);
});

test('a pane maximizes and restores by button, double-click, Alt+M and Escape', async ({
  workbench,
  page,
}) => {
  await workbench.open();
  const simulate = workbench.pane('simulate');
  await simulate.getByRole('button', { name: 'Maximize Simulate' }).click();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['simulate']);
  expect(await workbench.paneWidth('simulate')).toBeGreaterThan(1300);

  await simulate.getByRole('button', { name: 'Restore Simulate' }).click();
  await expect.poll(() => workbench.visiblePanes()).toEqual([...DEFAULT_VISIBLE]);

  await page.keyboard.press('Alt+4');
  await workbench.pane('replay').getByRole('heading', { name: 'Replay', exact: true }).dblclick();
  await expect.poll(() => workbench.visiblePanes()).toEqual(['replay']);
  await page.keyboard.press('Escape');
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'graph', 'replay']);

  await page.keyboard.press('Alt+2');
  await expect.poll(() => workbench.focusedPane()).toBe('graph');
  await page.keyboard.press('Alt+M');
  await expect.poll(() => workbench.visiblePanes()).toEqual(['graph']);
  // Jumping to another pane restores the layout first.
  await page.keyboard.press('Alt+5');
  await expect.poll(() => workbench.visiblePanes()).toEqual(['author', 'graph', 'share']);
  await expect.poll(() => workbench.focusedPane()).toBe('share');
});

test('separators resize panes by mouse and by keyboard', async ({ workbench, page }) => {
  await workbench.open();
  const before = await workbench.paneWidth('author');
  const separator = page.getByRole('separator').first();
  await separator.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => workbench.paneWidth('author')).toBeGreaterThan(before + 40);

  const width = await workbench.paneWidth('author');
  await dragBy(separator, -150, 0);
  await expect.poll(() => workbench.paneWidth('author')).toBeLessThan(width - 100);
});

test('the shortcuts dialog opens with "?" and closes with Escape', async ({ workbench, page }) => {
  await workbench.open();
  await workbench.pane('simulate').click();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('row')).toHaveCount(15);
  await expect(dialog).toContainText('Go to Graph');
  await expect(dialog).toContainText('In a replayed dialogue: the next or previous tool call');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Typing "?" into the editor types it; it does not open the dialog.
  await workbench.pane('author').locator('.monaco-editor').click();
  await page.keyboard.press('?');
  await expect(dialog).toBeHidden();
});

test('the project can be renamed in the header', async ({ workbench, page }) => {
  await workbench.open();
  await page.getByRole('button', { name: /Project: Untitled project/ }).click();
  const input = page.getByRole('textbox', { name: 'Project name' });
  await input.fill('  Airline   desk  ');
  await input.press('Enter');
  await expect(page.getByRole('button', { name: 'Project: Airline desk. Rename' })).toBeVisible();
  await expect(page).toHaveTitle('Airline desk · PolicyLab');

  // A blank name is refused and Escape cancels an edit.
  await page.getByRole('button', { name: /Project: Airline desk/ }).click();
  await input.fill('   ');
  await input.press('Enter');
  await expect(page.getByRole('button', { name: /Project: Airline desk/ })).toBeVisible();
  await page.getByRole('button', { name: /Project: Airline desk/ }).click();
  await input.fill('Something else');
  await input.press('Escape');
  await expect(page.getByRole('button', { name: /Project: Airline desk/ })).toBeVisible();
});
