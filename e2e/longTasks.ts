import type { Browser, Page } from '@playwright/test';

/**
 * The longest main-thread task, in the thread's own CPU time, read from Chromium's trace.
 *
 * "The page is never held" means no task of the page's own work is long. A wall-clock measure
 * (long animation frames) cannot tell that from a busy machine: on two cores shared with the
 * build, the servers and a second browser, a 120 ms task is stretched past 450 ms. Chromium's
 * trace gives each task its thread time (`tdur`), which a busy machine does not stretch, so a
 * bound on it holds on any machine and still catches work moved onto the page's thread.
 */
const tracing = new WeakMap<Browser, boolean>();

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; chrome_mojo_event_info?: { mojo_interface_tag?: string } };
}

/** A task of the main thread's loop; everything else in the trace runs inside one. */
const TASK = 'ThreadControllerImpl::RunTask';

/**
 * The test's own work in the page: Playwright's queries, waits and snapshots come as DevTools
 * messages (a role query over a page of 20,000 options takes 300 ms; a failed expect's snapshot
 * more than a second). What a user does comes as input events, in tasks of their own.
 */
const isHarness = (e: TraceEvent) =>
  e.name === 'Receive mojo message' &&
  e.args?.chrome_mojo_event_info?.mojo_interface_tag === 'blink.mojom.DevToolsSession';

function browserOf(page: Page): Browser {
  const browser = page.context().browser();
  if (!browser)
    throw new Error('longTasks: the page has no browser to trace (a persistent context)');
  return browser;
}

/** Forgets the tasks so far: `longest` measures from here. */
export async function resetLongest(page: Page) {
  const browser = browserOf(page);
  if (tracing.get(browser)) await browser.stopTracing();
  await browser.startTracing(page, { categories: ['toplevel'] });
  tracing.set(browser, true);
}

/** The longest task's CPU time (ms) on any page's main thread since the reset, the test's own left out. */
export async function longest(page: Page): Promise<number> {
  const browser = browserOf(page);
  if (!tracing.get(browser)) throw new Error('longTasks: call resetLongest before longest');
  // Let the frames in flight finish, so their tasks are in the trace.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))),
  );
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  tracing.set(browser, false);
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  if (mainThreads.size === 0) throw new Error('longTasks: the trace names no page main thread');
  const onMain = events.filter((e) => e.ph === 'X' && mainThreads.has(`${e.pid}:${e.tid}`));
  const harness = onMain.filter(isHarness);
  const byHarness = (task: TraceEvent) =>
    harness.some(
      (h) =>
        h.tid === task.tid &&
        h.pid === task.pid &&
        h.ts >= task.ts &&
        h.ts <= task.ts + (task.dur ?? 0),
    );
  const timed = onMain.filter((e) => e.name === TASK && e.tdur !== undefined);
  // A browser whose trace gives no thread times would measure nothing, and pass: say so instead.
  if (timed.length === 0) throw new Error('longTasks: the trace gives no task its thread time');
  let most = 0;
  for (const task of timed) if (!byHarness(task)) most = Math.max(most, (task.tdur ?? 0) / 1000);
  return most;
}
