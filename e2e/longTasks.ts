import type { Page } from '@playwright/test';

/** Records the longest main-thread task (long animation frame where the browser has them). */
export async function watchLongTasks(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number; __since: number };
    w.__longest = 0;
    w.__since = 0;
    const type = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
      ? 'long-animation-frame'
      : 'longtask';
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.startTime >= w.__since) w.__longest = Math.max(w.__longest, entry.duration);
    }).observe({ type, buffered: true });
  });
}

/** Forgets the tasks so far: `longest` measures from here. */
export const resetLongest = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longest: number; __since: number };
    w.__longest = 0;
    w.__since = performance.now();
  });

/** The longest task since the reset, once the frames in flight have been reported. */
export const longest = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        requestAnimationFrame(() => {
          setTimeout(() => {
            resolve((window as unknown as { __longest: number }).__longest);
          }, 50);
        });
      }),
  );
