import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Files that replace a module with `vi.mock` get a module cache of their own. */
const ISOLATED = '**/*.isolated.test.ts';

// Limits sized for a busy machine (CI runs on a developer's, which may be doing other work): a
// test that awaits something that never comes fails after two minutes, and the watchdog reporter
// names and stops a test that spins without awaiting, which Vitest's own limit cannot.
//
// Files share their worker's module cache: importing the same core modules afresh for each of
// 267 files cost more than the tests themselves (7 min against 2.5 on two cores). Spies and
// stubbed globals are undone after each test; a test that fakes timers restores them itself; one
// that mocks a module is named *.isolated.test.ts (scripts/vitest/isolation.test.ts checks both).
export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    reporters: ['default', './scripts/vitest/watchdog.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [ISOLATED, '**/node_modules/**'],
          setupFiles: ['src/test/setupWatchdog.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          environment: 'node',
          include: [ISOLATED],
          exclude: ['**/node_modules/**'],
          isolate: true,
          setupFiles: ['src/test/setupWatchdog.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/test/setupWatchdog.ts', 'src/test/setupDom.ts'],
        },
      },
    ],
  },
});
