import { defineConfig, devices } from '@playwright/test';

// E2E_PORT lets two checkouts (git worktrees) run their suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 4317);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * E2E tests drive Debian's Chromium (never a downloaded browser) against the production build
 * served by `vite preview`. `npm test` builds first; `npm run test:e2e` does both.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // E2E_JSON=<file> also writes each test's duration there, to find where the suite's time goes.
  reporter: process.env.E2E_JSON
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON }]]
    : [['list']],
  outputDir: 'test-results/artifacts',
  // Sized for a busy machine (two cores shared with the servers the tests start, a second
  // browser, and whatever else runs): a slow machine must not fail a good change. No test sets a
  // shorter limit of its own; a test that needs a longer one says why.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace for every test cost a third of the suite's CPU (its screenshots alone a
    // fifth): measured on shell.spec, 96 s of CPU with traces, 62 s without. A failing test
    // leaves its screenshot; rerun it with `--trace on` for the whole story.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--enable-unsafe-webgpu',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
