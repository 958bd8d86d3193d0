import type { SimScenario } from '../sim/events.ts';
import { NOTHING_EXPECTED } from '../sim/events.ts';

/** What a test scenario may set: any field, and any part of the expectations. */
export type ScenarioOverrides = Partial<Omit<SimScenario, 'expected'>> & {
  readonly expected?: Partial<SimScenario['expected']>;
};

/**
 * A scenario for tests on the mini project: a customer after a refund who expects nothing, with
 * whatever the test sets in its place.
 */
export function testScenario(overrides: ScenarioOverrides = {}): SimScenario {
  const { expected, ...rest } = overrides;
  return {
    id: 's',
    policies: ['refund-window'],
    persona: 'A customer.',
    goal: 'Get a refund for order o1.',
    knows: [],
    unknown: [],
    rows: {},
    ...rest,
    expected: { ...NOTHING_EXPECTED, ...expected },
  };
}
