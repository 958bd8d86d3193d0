import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Limits sized for a busy machine (CI runs on a developer's, which may be doing other work): a
// test that awaits something that never comes fails after two minutes, and the watchdog reporter
// names and stops a test that spins without awaiting, which Vitest's own limit cannot.
export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/vitest/watchdog.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
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
