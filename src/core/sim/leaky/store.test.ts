import { GUARD_CASES } from '../../../test/leaky/store/cases.ts';
import { ENTANGLED, OTHER_CASES } from '../../../test/leaky/store/moreCases.ts';
import { BASE } from '../../../test/leaky/store/scripts.ts';
import { FACTS, SIGN_OFF, STORE } from '../../../test/leaky/store/steps.ts';
import { leakySuite } from '../../../test/leakySuite.ts';

/*
 * Issue 13, the store example: one leaky scripted agent per policy that a guard, check or
 * expectation can see, each breaking exactly that policy at a known raw turn of a scenario that
 * has it in play; the report must charge that policy there and nothing else. Each scenario has a
 * compliant script (BASE, in src/test/leaky/store/scripts.ts) that gets no finding; a case is
 * that script with a few steps changed.
 */

leakySuite({
  name: 'store',
  model: STORE,
  facts: FACTS,
  signOff: SIGN_OFF,
  base: BASE,
  cases: [...GUARD_CASES, ...OTHER_CASES],
  entangled: ENTANGLED,
  beyondCoverage: [],
  counts: { covered: 45, clean: 42 },
});
