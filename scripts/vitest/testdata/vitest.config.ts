import { defineConfig } from 'vitest/config';

// Runs the spinning fixture under the watchdog, for scripts/vitest/watchdog.test.ts.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['spin.fixture.ts'],
    reporters: ['default', '../watchdog.ts'],
    setupFiles: ['../../../src/test/setupWatchdog.ts'],
  },
});
