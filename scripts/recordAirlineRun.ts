// Writes e2e/fixtures/airline-run.json: the log of the scripted airline run whose outcomes
// src/test/airlineRun.ts states (AIRLINE_RUN), formatted as Prettier would. Run from the
// repository root with `npm run fixtures` whenever airlineRun.test.ts says the file is stale.
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { AIRLINE_RUN_PATH, recordAirlineRun } from '../src/test/airlineRun.ts';

const events = await recordAirlineRun();
const options = (await resolveConfig(AIRLINE_RUN_PATH)) ?? {};
writeFileSync(
  AIRLINE_RUN_PATH,
  await format(JSON.stringify(events), { ...options, filepath: AIRLINE_RUN_PATH }),
);
console.log(`Wrote ${events.length} events to ${AIRLINE_RUN_PATH}.`);
