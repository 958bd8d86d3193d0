// The editor's first visit, in Chromium against the production build (served by `vite preview`).
// editor_ready_ms: from the start of navigation to `/?example=airline` to the end of the first
// frame painted with the editor ready to type in: the Author pane's Monaco editor shows the start
// of the example's agent.md, coloured by the Markdown tokenizer (a token other than the
// default colour), and its input has focus (the measurement focuses it and checks it took).
// Each visit is a first visit: a fresh browser context, so an empty HTTP cache and no saved
// project. The figure is the median of EDITOR_VISITS visits (7 unless set).
// editor_ready_ms_min, editor_ready_ms_max: the fastest and slowest of those visits.
import type { Browser } from '@playwright/test';
import { chromium } from '@playwright/test';
import { startPreview, stopPreview } from './preview.ts';
import { median, round } from './stats.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = 4393;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const VISITS = Number(process.env.EDITOR_VISITS ?? 7);
// The start of agent.md's first line (the pane is narrow, so the editor wraps the rest of it).
const FIRST_LINE = '# SkyWay Airlines';

// Runs in the page before its own scripts (as text, so the bundler's helpers never reach it).
// Watches the DOM until the editor is ready, then waits for the end of the next frame (a message
// posted from its animation frame callback runs once that frame's style, layout and paint are
// done) and keeps the moment in `window.__editorReady`, measured from the start of navigation.
const WATCH = `(() => {
  const ready = () => {
    const editor = document.querySelector(
      'section[data-pane="author"] [data-testid="monaco-host"] > .monaco-editor',
    );
    if (!editor) return false;
    const line = [...editor.querySelectorAll('.view-line')].find(
      (l) => l.textContent.replace(/\\u00a0/g, ' ').startsWith(${JSON.stringify(FIRST_LINE)}),
    );
    if (!line || !line.querySelector('span[class^="mtk"]:not(.mtk1)')) return false;
    const input = editor.querySelector('textarea');
    if (!input) return false;
    input.focus();
    return document.activeElement === input;
  };
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__editorReady = performance.now(); };
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;

/** One first visit in a fresh context: milliseconds from navigation to the editor being ready. */
async function firstVisit(browser: Browser): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    await context.addInitScript(WATCH);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/?example=airline`);
    const handle = await page.waitForFunction('window.__editorReady', undefined, {
      timeout: 60_000,
    });
    return Number(await handle.jsonValue());
  } finally {
    await context.close();
  }
}

/** The editor's first-visit figures (see the top of this file), on the build in `outDir`. */
export async function editorFigures(outDir = 'dist') {
  const server = await startPreview(outDir, PORT);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    // One visit first, not counted: it starts the preview server's and Chromium's own processes.
    await firstVisit(browser);
    const times: number[] = [];
    for (let i = 0; i < VISITS; i++) times.push(await firstVisit(browser));
    return {
      editor_ready_ms: median(times),
      editor_ready_ms_min: round(Math.min(...times)),
      editor_ready_ms_max: round(Math.max(...times)),
    };
  } finally {
    await browser?.close().catch(() => undefined);
    stopPreview(server);
  }
}
