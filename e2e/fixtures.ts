import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect } from '@playwright/test';

export const PANES = ['author', 'graph', 'simulate', 'replay', 'share'] as const;
export type PaneId = (typeof PANES)[number];
export const TITLES: Record<PaneId, string> = {
  author: 'Author',
  graph: 'Graph',
  simulate: 'Simulate',
  replay: 'Replay',
  share: 'Share',
};

/** Drives the shell the way a person does: by role, label and key, not by internals. */
export class Workbench {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** Opens the app on a new, empty project. */
  async open() {
    await this.page.goto('/?new');
    await expect(this.page.getByRole('banner')).toBeVisible();
  }

  /** Opens a fresh copy of an example project, the way a shared link to it would. */
  async openExample(id: 'airline' | 'store') {
    await this.page.goto(`/?example=${id}`);
    await expect(this.editor).toBeVisible();
  }

  get editor(): Locator {
    return this.page.locator(
      'section[data-pane="author"] [data-testid="monaco-host"] > .monaco-editor',
    );
  }

  /** Opens a project file from the file list. */
  async openFile(name: string) {
    await this.page.getByRole('tab', { name: new RegExp(`^${name.replace('.', '\\.')}`) }).click();
  }

  /** Puts the cursor at the end of the line holding `text`, found with Monaco's find (Ctrl+F). */
  async goToEndOf(text: string) {
    await this.select(text);
    await this.page.keyboard.press('ArrowRight');
  }

  /** Selects the first occurrence of `text` in the open file, with Monaco's find (Ctrl+F). */
  async select(text: string) {
    await this.editor.click();
    await this.page.keyboard.press('Control+Home');
    await this.page.keyboard.press('Control+F');
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.insertText(text);
    await expect(this.page.locator('.find-widget .matchesCount')).toHaveText(/^1 of /);
    await this.page.keyboard.press('Escape');
  }

  /** How many matches Monaco's find widget (Ctrl+F) reports for a text in the open file. */
  async countMatches(text: string): Promise<string> {
    await this.editor.click();
    await this.page.keyboard.press('Control+F');
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.insertText(text);
    const count = this.page.locator('.find-widget .matchesCount');
    await expect(count).not.toBeEmpty();
    const result = (await count.textContent()) ?? '';
    await this.page.keyboard.press('Escape');
    return result;
  }

  problems(): Locator {
    return this.page.getByRole('region', { name: 'Problems' });
  }

  pane(id: PaneId): Locator {
    return this.page.getByRole('region', { name: TITLES[id], exact: true });
  }

  toggle(id: PaneId): Locator {
    return this.page.getByRole('navigation', { name: 'Panes' }).getByRole('button', {
      name: TITLES[id],
    });
  }

  themeChoice(name: 'Follow the system theme' | 'Light theme' | 'Dark theme'): Locator {
    return this.page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name });
  }

  /** The pane holding the focused element, or null. */
  focusedPane(): Promise<string | null> {
    return this.page.evaluate(
      () => document.activeElement?.closest('[data-pane]')?.getAttribute('data-pane') ?? null,
    );
  }

  async paneWidth(id: PaneId): Promise<number> {
    const box = await this.pane(id).boundingBox();
    return box?.width ?? 0;
  }

  async paneHeight(id: PaneId): Promise<number> {
    const box = await this.pane(id).boundingBox();
    return box?.height ?? 0;
  }

  /** The visible panes, judged by what is on screen: a pane with no area is not visible. */
  async visiblePanes(): Promise<PaneId[]> {
    const visible: PaneId[] = [];
    for (const id of PANES) {
      const box = await this.page.locator(`section[data-pane="${id}"]`).boundingBox();
      if (box && box.width > 40 && box.height > 40) visible.push(id);
    }
    return visible;
  }
}

/** Drags `target` by the mouse from its middle, `dx`, `dy` pixels away; answers its box before. */
export async function dragBy(target: Locator, dx: number, dy: number) {
  const box = await target.boundingBox();
  if (!box) throw new Error('the thing to drag is not drawn');
  const mouse = target.page().mouse;
  await mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await mouse.down();
  await mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy, { steps: 8 });
  await mouse.up();
  return box;
}

/** The built files a lazily loaded module ends up in, read from the Vite manifest. */
export function chunkFilesOf(sourcePath: string): string[] {
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<
    string,
    { file: string; imports?: string[] }
  >;
  const entry = manifest[sourcePath];
  if (!entry) throw new Error(`${sourcePath} is not in the build manifest: run npm run build.`);
  return [entry.file];
}

export const test = base.extend<{ workbench: Workbench }>({
  workbench: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(new Workbench(page));
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

export { expect };
