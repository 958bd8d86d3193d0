import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the watchdog reporter', () => {
  it('names a test that spins without awaiting, stops the run and fails it', () => {
    const run = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'scripts/vitest/testdata/vitest.config.ts',
      ],
      {
        encoding: 'utf8',
        // The run itself is bounded: were the watchdog broken, this kills it and the test fails.
        timeout: 100_000,
        env: {
          ...process.env,
          POLICYLAB_WATCHDOG_SLOW_MS: '3000',
          POLICYLAB_WATCHDOG_HUNG_MS: '8000',
        },
      },
    );
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /watchdog: still running after \d+ s: \S*spin\.fixture\.ts > spins for ever/,
    );
    expect(run.stderr).toMatch(
      /watchdog: HUNG: \S*spin\.fixture\.ts > spins for ever has run \d+ s/,
    );
  });
});
