import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { AIRLINE_RUN } from '../src/test/airlineRun.ts';
import type { Workbench } from './fixtures.ts';

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

/** The airline example with its recorded run opened in Replay, every dialogue listed. */
export async function openAirlineRun(workbench: Workbench, page: Page): Promise<ReplayPane> {
  const replay = new ReplayPane(page);
  await workbench.openExample('airline');
  await replay.importRun(AIRLINE_RUN.path);
  await expect(replay.root).toContainText(`${AIRLINE_RUN.totals.dialogues} dialogues`);
  return replay;
}

/** The recorded airline run's report, opened from the Simulate pane's saved runs. */
export async function openAirlineReport(workbench: Workbench, page: Page): Promise<Locator> {
  await openAirlineRun(workbench, page);
  await page.keyboard.press('Alt+3');
  const simulate = workbench.pane('simulate');
  await simulate
    .getByRole('region', { name: 'Saved runs' })
    .getByRole('button', { name: /^Imported: airline-run/ })
    .click();
  return simulate.getByRole('region', { name: 'Run report' });
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
