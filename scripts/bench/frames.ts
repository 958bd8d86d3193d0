// Scripts that run in the page (as text, so the bundler's helpers never reach them): RECORD_FRAMES
// records the gap between animation frames and every long task, until STOP_RECORDING returns them.

/** Starts recording frame gaps and long tasks in the page. */
export const RECORD_FRAMES = `(() => {
  window.__bench = { frameGaps: [], longTasks: [], stop: false };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  let last = performance.now();
  const frame = (now) => {
    window.__bench.frameGaps.push(now - last);
    last = now;
    if (!window.__bench.stop) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

/** Stops recording; evaluates to `{ frameGaps, longTasks }` in milliseconds. */
export const STOP_RECORDING = `(() => {
  window.__bench.stop = true;
  return { frameGaps: window.__bench.frameGaps.slice(1), longTasks: window.__bench.longTasks };
})()`;
