import { GUARD_CASES } from '../../../test/leaky/airline/cases.ts';
import { ENTANGLED, OTHER_CASES } from '../../../test/leaky/airline/moreCases.ts';
import { BASE } from '../../../test/leaky/airline/scripts.ts';
import { FACTS, SIGN_OFF, AIRLINE } from '../../../test/leaky/airline/steps.ts';
import { leakySuite } from '../../../test/leakySuite.ts';

/*
 * Issue 13: one leaky scripted agent per policy of the airline example that a guard, check or
 * expectation can see. Each breaks exactly that policy at a known raw turn (the message index)
 * of a scenario that has it in play, and the report must charge that policy there and nothing
 * else. Each scenario has a compliant script (BASE, in
 * src/test/leaky/airline/scripts.ts) that gets no finding; a case is that script with a few steps
 * changed.
 */

leakySuite({
  name: 'airline',
  model: AIRLINE,
  facts: FACTS,
  signOff: SIGN_OFF,
  base: BASE,
  cases: [...GUARD_CASES, ...OTHER_CASES],
  entangled: ENTANGLED,
  beyondCoverage: ['refund-business-class'],
  counts: { covered: 55, clean: 53 },
});
