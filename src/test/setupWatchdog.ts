import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach } from 'vitest';

// Tells scripts/vitest/watchdog.ts which test this worker is in, with a synchronous write before
// each test: a test that spins never lets its worker send Vitest's own progress messages.
const folder = process.env.POLICYLAB_VITEST_RUNNING;
if (folder) {
  mkdirSync(folder, { recursive: true });
  const mine = path.join(folder, `${process.pid}-${process.env.VITEST_POOL_ID ?? '0'}`);
  beforeEach((context) => {
    const names = [context.task.name];
    for (let suite = context.task.suite; suite; suite = suite.suite) names.unshift(suite.name);
    writeFileSync(mine, `${context.task.file.filepath}\n${names.join(' > ')}`);
  });
}
