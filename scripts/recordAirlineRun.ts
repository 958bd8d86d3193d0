// Writes e2e/fixtures/airline-run.json: the log of the scripted airline run whose outcomes
// src/test/airlineRun.ts states (AIRLINE_RUN), and e2e/fixtures/airline-run-b.json, the second
// run made from it (AIRLINE_RUN_B), formatted as Prettier would. Run from the repository root
// with `npm run fixtures` whenever airlineRun.test.ts says a file is stale.
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import {
  AIRLINE_RUN_B_PATH,
  AIRLINE_RUN_PATH,
  airlineRunB,
  recordAirlineRun,
} from '../src/test/airlineRun.ts';

const events = await recordAirlineRun();
for (const [path, log] of [
  [AIRLINE_RUN_PATH, events],
  [AIRLINE_RUN_B_PATH, airlineRunB(events)],
] as const) {
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(JSON.stringify(log), { ...options, filepath: path }));
  console.log(`Wrote ${log.length} events to ${path}.`);
}
