// Replay pane figures, in Chromium against the production build (served by `vite preview`), with
// the airline example open so the Graph pane has policies to light (the long log's policies and
// tools are renamed to airline ones, so its steps light real nodes):
// replay_open_ms: from the click on the dialogue's row to the end of the first frame painted with
// its conversation, for the 60-turn, 30-call, 400-row dialogue of longDialogueLog (median of 7
// opens after a warm-up).
// replay_step_ms_p95, replay_step_ms_median: one step forward (→) through that dialogue, with the
// Graph pane showing and the database in step, from the keydown to the end of the first frame
// painted after the DOM changed (the moment the main thread has painted it), over 50 steps. That
// includes waiting for the frame to begin (up to one 16.7 ms interval), so replay_step_work_ms_p95
// gives the main thread's part alone: the keydown's handling (React's render and commit, the
// graph's included) plus that frame's own work (style, layout, paint, resize observers).
// dialogue_list_scroll_p95_ms: the gap between animation frames while the dialogue list of
// manyDialoguesLog(5000) scrolls from top to bottom a list's height every frame (the pane
// maximized), as dragging its scrollbar does.
// report_open_ms: from the click on a saved run of 2,000 dialogues in the Simulate pane to the end
// of the first frame painted with its report's first chart (median of 7 opens). Replay holds the
// run (it was just imported there), so its log and report are not read or folded again.
// big_import_longest_task_ms, big_report_longest_task_ms: the longest task the page's thread ran
// (a Long Tasks entry: while it runs, nothing is drawn and no key is answered) while a log of
// 10,000 dialogues was imported in Replay, and while its report opened in Simulate with Replay
// showing another run (so the log is read from IndexedDB and folded, the slowest way); 3 rounds,
// median of each round's longest.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import type { SimEvent } from '../../src/core/index.ts';
import {
  LONG_DIALOGUE,
  longDialogueLog,
  manyDialoguesLog,
} from '../../src/core/testing/bigLogs.ts';
import { RECORD_FRAMES, STOP_RECORDING } from './frames.ts';
import { startPreview, stopPreview } from './preview.ts';
import { median, percentile } from './stats.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = 4392;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const OPENS = 7;
const STEPS = 50;
const WARM_UP_STEPS = 5;
const MANY_DIALOGUES = 5000;
const REPORT_DIALOGUES = 2000;
const BIG_REPORT_DIALOGUES = 10_000;
const BIG_ROUNDS = 3;

// Gathers the page's long tasks from now on; `window.__longest()` gives the longest so far.
const WATCH_LONG_TASKS = `(() => {
  window.__longTasks = [];
  window.__longObserver?.disconnect();
  window.__longObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  });
  window.__longObserver.observe({ type: 'longtask' });
})()`;
const LONGEST_TASK = `Math.max(0, ...window.__longTasks)`;

/**
 * The long log's policies and tools under the airline example's names, so that its steps light
 * real policies on the graph (every other name, and every key, stays as it is).
 */
const AIRLINE_NAMES: Readonly<Record<string, string>> = {
  'verify-identity': 'verify-identity-before-account-actions',
  'refund-window': 'refund-within-24-hours',
  'introduce-yourself': 'introduce-as-skyway',
  get_order: 'get_reservation',
  update_order: 'cancel_reservation',
  refund_order: 'cancel_reservation',
};

function renamed(value: unknown): unknown {
  if (typeof value === 'string') return AIRLINE_NAMES[value] ?? value;
  if (Array.isArray(value)) return value.map(renamed);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v)]));
  return value;
}

// Runs in the page (as text, so the bundler's helpers never reach it). `arm(type, until)` waits
// for the next `type` event, then for the Replay pane's DOM to show the change `until` names, then
// for the end of the next frame (a message posted from its animation frame callback runs once the
// frame's style, layout and paint are done); `pending` resolves with the moments in between.
const MEASURE = `(() => {
  const changed = {
    opened: () =>
      document.querySelector('[data-testid="replay-dialogue"] li.replay-step[data-position="current"]') !== null,
    reported: () => {
      const report = document.querySelector('section[data-pane="simulate"] [aria-label="Run report"]');
      const title = report?.querySelector('h3')?.textContent ?? '';
      return title.startsWith(window.__replayBench.title) && report.querySelector('.report-chart') !== null;
    },
    stepped: (before) => {
      const current = document.querySelector('li.replay-step[data-position="current"]');
      return current !== null && current.dataset.step !== before;
    },
  };
  const afterPaint = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const frame = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve({ frame, painted: performance.now() });
        channel.port2.postMessage(null);
      }),
    );
  window.__replayBench = {
    arm(type, until) {
      const pane = document.querySelector(
        until === 'reported' ? 'section[data-pane="simulate"]' : 'section[data-pane="replay"]',
      );
      const before =
        document.querySelector('li.replay-step[data-position="current"]')?.dataset.step ?? null;
      window.__replayBench.pending = new Promise((resolve, reject) => {
        let start = null;
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(start === null ? 'no ' + type + ' event came' : 'the pane never showed it'));
        }, 20000);
        window.addEventListener(type, (event) => { start = event.timeStamp; }, { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (start === null || !changed[until](before)) return;
          observer.disconnect();
          const dom = performance.now();
          afterPaint().then(({ frame, painted }) => {
            clearTimeout(timer);
            resolve({ start, dom, frame, painted });
          });
        });
        observer.observe(pane, { subtree: true, childList: true, attributes: true, characterData: true });
      });
    },
  };
})()`;

interface Moments {
  /** The event's time stamp. */
  readonly start: number;
  /** When the DOM first showed the change. */
  readonly dom: number;
  /** The animation frame callback of the next frame. */
  readonly frame: number;
  /** The end of that frame's work. */
  readonly painted: number;
}

/** Runs `act` (a click or a key) and returns the moments the armed measurement saw. */
async function measured(
  page: Page,
  type: 'click' | 'keydown',
  until: 'opened' | 'stepped' | 'reported',
  act: () => Promise<void>,
): Promise<Moments> {
  await page.evaluate(
    `window.__replayBench.arm(${JSON.stringify(type)}, ${JSON.stringify(until)})`,
  );
  await act();
  return page.evaluate<Moments>('window.__replayBench.pending');
}

/** Wraps a failure in what the bench was doing, so the message says where it broke. */
async function doing<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`The Replay benchmark failed while ${what}: ${why}`, { cause: error });
  }
}

/** Opens a run file in the Replay pane through its file input, as a person does. */
async function importRun(page: Page, name: string, events: readonly SimEvent[]): Promise<void> {
  const pane = page.locator('section[data-pane="replay"]');
  // From a file on disk, as a person picks one: a buffer handed to Playwright is rebuilt as a
  // File by script in the page, a long task of the bench's own on a big log.
  const dir = mkdtempSync(path.join(tmpdir(), 'policylab-bench-'));
  try {
    writeFileSync(path.join(dir, name), JSON.stringify(events));
    await page.getByTestId('replay-import').setInputFiles(path.join(dir, name));
    const opened = pane.locator('select option:checked', {
      hasText: `Imported: ${name.replace(/\.json$/, '')}`,
    });
    const refused = pane.getByRole('alert');
    await opened.or(refused).first().waitFor({ state: 'attached', timeout: 60_000 });
    if (await refused.isVisible()) throw new Error(`The pane said: ${await refused.innerText()}`);
    await pane.locator('ul[aria-label="Dialogues of the run"] button.replay-row').first().waitFor();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The airline example, its graph laid out, and the long dialogue imported into the Replay pane. */
async function openAirline(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/?example=airline`);
  const graph = page.locator('section[data-pane="graph"]');
  await graph.getByRole('button', { name: 'Lay out again' }).waitFor({ timeout: 120_000 });
  await graph.locator('.policy-node').first().waitFor();
  // Replay shares a slot with Simulate and Share: bring it to the front, as a person would.
  await page.keyboard.press('Alt+4');
  await page.getByTestId('replay-import').waitFor({ state: 'attached', timeout: 60_000 });
  await importRun(page, 'long.json', renamed(longDialogueLog()) as SimEvent[]);
  await page.evaluate(MEASURE);
}

/** Milliseconds from a click on the long dialogue's row to its first painted turn. */
async function openFigures(page: Page) {
  const pane = page.locator('section[data-pane="replay"]');
  const row = pane.locator('button.replay-row', { hasText: LONG_DIALOGUE.dialogue });
  const times: number[] = [];
  for (let run = 0; run <= OPENS; run++) {
    await row.waitFor();
    const at = await measured(page, 'click', 'opened', () => row.click());
    if (run > 0) times.push(at.painted - at.start);
    await pane.getByRole('button', { name: '← Dialogues' }).click();
  }
  return { replay_open_ms: median(times) };
}

/** One step forward at a time through the long dialogue, with the graph lit at every step. */
async function stepFigures(page: Page) {
  const pane = page.locator('section[data-pane="replay"]');
  await pane.locator('button.replay-row', { hasText: LONG_DIALOGUE.dialogue }).click();
  const dialogue = page.getByTestId('replay-dialogue');
  await dialogue.focus();
  const total = Number(
    /of (\d+)/.exec((await page.getByTestId('replay-step').textContent()) ?? '')?.[1],
  );
  if (!(total > STEPS + WARM_UP_STEPS))
    throw new Error(
      `The long dialogue has ${String(total)} steps, too few to take ${String(STEPS)}.`,
    );
  const lit = page.locator(
    'section[data-pane="graph"] .policy-node[data-replay="lit"], section[data-pane="graph"] .policy-node[data-replay="breached"]',
  );
  const step = () => measured(page, 'keydown', 'stepped', () => page.keyboard.press('ArrowRight'));
  await page.keyboard.press('Home');
  for (let i = 0; i < WARM_UP_STEPS; i++) await step();
  await page.keyboard.press('Home');
  const whole: number[] = [];
  const work: number[] = [];
  let litSteps = 0;
  for (let i = 0; i < STEPS; i++) {
    const at = await step();
    whole.push(at.painted - at.start);
    work.push(at.dom - at.start + (at.painted - at.frame));
    if ((await lit.count()) > 0) litSteps++;
  }
  const shown = await page.getByTestId('replay-step').textContent();
  if (shown !== `Step ${String(STEPS + 1)} of ${String(total)}`)
    throw new Error(`After ${String(STEPS)} steps the pane says “${shown ?? ''}”.`);
  if (litSteps === 0) throw new Error('No step lit a policy on the graph.');
  return {
    replay_step_ms_p95: percentile(whole, 95),
    replay_step_ms_median: median(whole),
    replay_step_work_ms_p95: percentile(work, 95),
  };
}

// Runs in the page: scrolls the dialogue list down by its own height every animation frame until
// its end, and resolves with how many frames that took.
const SCROLL_LIST = `new Promise((resolve) => {
  const list = document.querySelector('section[data-pane="replay"] .replay-list');
  let frames = 0;
  const step = () => {
    frames++;
    list.scrollTop += list.clientHeight;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) resolve(frames);
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

/** Whether the list is scrolled to its end and draws its last row there. */
const AT_THE_END = `(() => {
  const list = document.querySelector('section[data-pane="replay"] .replay-list');
  const last = list.querySelector('li:last-child');
  return (
    last !== null &&
    last.offsetTop + last.offsetHeight >= list.scrollHeight - 1 &&
    list.scrollTop + list.clientHeight >= list.scrollHeight - 1
  );
})()`;

/** Frame gaps while the 5,000-dialogue list scrolls from top to bottom. */
async function scrollFigures(page: Page) {
  const pane = page.locator('section[data-pane="replay"]');
  await pane.getByRole('button', { name: '← Dialogues' }).click();
  await importRun(page, 'many.json', manyDialoguesLog(MANY_DIALOGUES));
  await pane
    .locator('.replay-count')
    .getByText(`${MANY_DIALOGUES.toLocaleString('en-US')} dialogues`)
    .waitFor();
  await pane.locator('.pane-header').dblclick();
  await pane.getByRole('button', { name: 'Restore Replay' }).waitFor();
  await page.waitForTimeout(500);
  await page.evaluate(RECORD_FRAMES);
  const frames = await page.evaluate<number>(SCROLL_LIST);
  await page.waitForTimeout(200);
  const { frameGaps } = await page.evaluate<{ frameGaps: number[] }>(STOP_RECORDING);
  if (!(await page.evaluate<boolean>(AT_THE_END)) || frames < 10)
    throw new Error(`The list did not scroll to its last row (${String(frames)} frames).`);
  return { dialogue_list_scroll_p95_ms: percentile(frameGaps, 95) };
}

/**
 * Milliseconds from the click on a saved run of 2,000 dialogues (manyDialoguesLog) in the Simulate
 * pane to the end of the first frame painted with its report's first chart (median of 7 opens
 * after a warm-up, each from another run's report).
 */
async function reportFigures(page: Page) {
  await page.keyboard.press('Alt+4');
  await importRun(page, 'report-2000.json', manyDialoguesLog(REPORT_DIALOGUES));
  await page.keyboard.press('Alt+3');
  const runs = page.locator('section[data-pane="simulate"] section[aria-label="Saved runs"]');
  const target = runs.getByRole('button', { name: /^Imported: report-2000/ });
  const other = runs.getByRole('button', { name: /^Imported: long/ });
  const title = page.locator('section[data-pane="simulate"] [aria-label="Run report"] h3');
  const times: number[] = [];
  for (let run = 0; run <= OPENS; run++) {
    await other.click();
    await title.filter({ hasText: /^Imported: long/ }).waitFor();
    await page.evaluate(`window.__replayBench.title = 'Imported: report-2000'`);
    const at = await measured(page, 'click', 'reported', () => target.click());
    if (run > 0) times.push(at.painted - at.start);
  }
  return { report_open_ms: median(times) };
}

/**
 * The longest task while a log of 10,000 dialogues is imported, and while its report opens from
 * the store (Replay showing another run), median over rounds (see the top of this file).
 */
async function bigReportFigures(page: Page) {
  const big = manyDialoguesLog(BIG_REPORT_DIALOGUES);
  const simulate = page.locator('section[data-pane="simulate"]');
  const runs = simulate.locator('section[aria-label="Saved runs"]');
  const title = simulate.locator('[aria-label="Run report"] h3');
  const imports: number[] = [];
  const opens: number[] = [];
  for (let round = 0; round < BIG_ROUNDS; round++) {
    const name = `big-${round}`;
    await page.keyboard.press('Alt+4');
    await page.evaluate(WATCH_LONG_TASKS);
    await importRun(page, `${name}.json`, big);
    await page.waitForTimeout(500);
    imports.push(await page.evaluate<number>(LONGEST_TASK));
    // Replay back on another run, so Simulate has to read the big one itself.
    const picker = page.locator('section[data-pane="replay"] select').first();
    const long = await picker
      .locator('option', { hasText: /^Imported: long ·/ })
      .getAttribute('value');
    await picker.selectOption(long ?? '');
    await page.keyboard.press('Alt+3');
    await runs.getByRole('button', { name: /^Imported: long/ }).click();
    await title.filter({ hasText: /^Imported: long/ }).waitFor();
    await page.waitForTimeout(300);
    await page.evaluate(WATCH_LONG_TASKS);
    await runs.getByRole('button', { name: new RegExp(`^Imported: ${name} `) }).click();
    await title.filter({ hasText: new RegExp(`^Imported: ${name}`) }).waitFor({ timeout: 60_000 });
    await simulate.locator('[aria-label="Run report"] .report-chart').first().waitFor();
    await page.waitForTimeout(500);
    opens.push(await page.evaluate<number>(LONGEST_TASK));
  }
  return {
    big_import_longest_task_ms: median(imports),
    big_report_longest_task_ms: median(opens),
  };
}

/** The Replay pane's figures (see the top of this file), on the build in `outDir`. */
export async function replayFigures(outDir = 'dist') {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    server = await doing('starting vite preview', () => startPreview(outDir, PORT));
    browser = await doing('starting Chromium', () =>
      chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
        ],
      }),
    );
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await doing('opening the airline example and the long dialogue', () => openAirline(page));
    const open = await doing('opening the long dialogue', () => openFigures(page));
    const step = await doing('stepping through the long dialogue', () => stepFigures(page));
    const scroll = await doing('scrolling the list of 5,000 dialogues', () => scrollFigures(page));
    const report = await doing('opening the report of 2,000 dialogues', () => reportFigures(page));
    const big = await doing('importing and opening a run of 10,000 dialogues', () =>
      bigReportFigures(page),
    );
    return { ...open, ...step, ...scroll, ...report, ...big };
  } finally {
    await browser?.close().catch(() => undefined);
    if (server) stopPreview(server);
  }
}
