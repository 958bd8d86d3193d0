import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** The Replay pane, driven the way a person does: by role, label and key. */
export class ReplayPane {
  readonly page: Page;
  readonly root: Locator;
  constructor(page: Page) {
    this.page = page;
    this.root = page.getByRole('region', { name: 'Replay', exact: true });
  }

  /** Opens a run's log from a file, with "Open a run file…". */
  async importRun(path: string) {
    // Replay shares a slot with Simulate and Share: bring it to the front first.
    await this.page.keyboard.press('Alt+4');
    await this.root.getByTestId('replay-import').setInputFiles(path);
  }

  get list(): Locator {
    return this.root.getByRole('list', { name: 'Dialogues of the run' });
  }

  /** Picks a dialogue from the pane's own list (going back to it first in a narrow pane). */
  async pick(dialogue: string) {
    const back = this.root.getByRole('button', { name: '← Dialogues' });
    if (await back.isVisible()) await back.click();
    await this.list.getByRole('button', { name: new RegExp(`^${escape(dialogue)}\\b`) }).click();
  }

  get dialogue(): Locator {
    return this.root.getByTestId('replay-dialogue');
  }

  get stepCount(): Locator {
    return this.root.getByTestId('replay-step');
  }

  /** The step the replay stands on, in the conversation. */
  get current(): Locator {
    return this.root.getByRole('list', { name: 'Conversation' }).locator('[aria-current="step"]');
  }

  /** "Step N of M" as numbers. */
  async step(): Promise<{ at: number; of: number }> {
    const text = (await this.stepCount.textContent()) ?? '';
    const [, at, of] = /Step (\d+) of (\d+)/.exec(text) ?? [];
    return { at: Number(at), of: Number(of) };
  }

  /** Presses keys with the dialogue focused, as a person stepping with the keyboard does. */
  async press(...keys: string[]) {
    await this.dialogue.focus();
    for (const key of keys) await this.page.keyboard.press(key);
  }

  /** The rows of the database table shown at this step. */
  table(name: string): Locator {
    return this.root.getByRole('table', { name: `Table ${name}` });
  }
}

/** The Graph pane's node for a policy: its circle, which carries the replay's mark. */
export function graphNode(page: Page, policy: string): Locator {
  return page.locator(
    `section[data-pane="graph"] .react-flow__node[data-id="${policy}"] .policy-node`,
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
}

export { expect };
