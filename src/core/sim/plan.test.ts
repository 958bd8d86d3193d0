import { describe, expect, it } from 'vitest';
import { goalUser, refundAgent } from '../../test/refundDesk.ts';
import { miniProject } from '../testing/miniProject.ts';
import { testScenario } from '../testing/scenarios.ts';
import type { RunRequest } from './plan.ts';
import { DEFAULT_MAX_TOOL_ROUNDS } from './limits.ts';
import { planRun } from './plan.ts';

const REQUEST: RunRequest = {
  seed: 3,
  trials: 2,
  concurrency: 4,
  maxTurns: 6,
  scenarios: 'all',
  agent: { engine: refundAgent, model: 'agent-model' },
  user: { engine: goalUser, model: 'user-model' },
  prices: {},
  now: '2026-11-21T12:00:00Z',
};

const problemOf = (request: Partial<RunRequest>, project = miniProject()) => {
  const planned = planRun(project, { ...REQUEST, ...request });
  return planned.ok ? undefined : planned.problem;
};

describe('planRun', () => {
  it('plans the hand-written scenarios with the limits, prompts and hash of the project', () => {
    const planned = planRun(miniProject(), REQUEST);
    if (!planned.ok) throw new Error(planned.problem);
    const { plan } = planned;
    expect(plan.scenarios.map((s) => [s.scenario.id, s.source])).toEqual([
      ['late-refund', 'hand-written'],
    ]);
    expect(plan.limits).toEqual({
      maxTurns: 6,
      timeLimitMs: 300_000,
      maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
    });
    expect(plan).toMatchObject({ seed: 3, trials: 2, concurrency: 4 });
    expect(plan.projectHash).toMatch(/^[0-9a-f]+$/);
    expect(plan.prompts?.userSimulator?.id).toBe('user-simulator');
    expect(plan.samples).toBeUndefined();
  });

  it('lets the caller set the tool calls in a row; left out, no real task meets the limit', () => {
    const planned = planRun(miniProject(), { ...REQUEST, maxToolRounds: 3 });
    expect(planned.ok && planned.plan.limits?.maxToolRounds).toBe(3);
    // tau2-bench retail's longest task makes 13 agent calls (all counted as if in a row).
    expect(DEFAULT_MAX_TOOL_ROUNDS).toBeGreaterThan(13);
  });

  it('runs the chosen scenarios, and a scenario the caller made', () => {
    const own = testScenario({ id: 'free-play' });
    const planned = planRun(miniProject(), { ...REQUEST, scenarios: 'none', ownScenarios: [own] });
    expect(planned.ok && planned.plan.scenarios.map((s) => s.scenario.id)).toEqual(['free-play']);
    expect(problemOf({ scenarios: ['nope'] })).toBe('scenarios.yaml has no scenario "nope".');
  });

  it('says why a run cannot start', () => {
    expect(problemOf({ scenarios: 'none' })).toBe(
      'There is nothing to run: no scenarios in scenarios.yaml, and none to generate.',
    );
    expect(problemOf({ generate: { count: 2, levels: { min: 4, max: 8 } } })).toBe(
      'Generating scenarios needs a model for the generator role.',
    );
    expect(
      problemOf({
        generate: { count: 2, levels: { min: 40, max: 50 } },
        generator: REQUEST.agent,
      }),
    ).toBe('No policy combination reaches levels 40-50 in this graph.');
  });

  it('refuses a dollar budget while a model it pays for has no price, never ignoring it', () => {
    expect(problemOf({ budget: { dollars: 1 } })).toBe(
      'A dollar budget needs the price of every model it pays for, and "agent-model", "user-model" have none. Add their prices, set a token budget (which limits a model without a price), or run without a dollar budget.',
    );
    const price = { inputPerMillion: 1, outputPerMillion: 1 };
    expect(
      problemOf({
        budget: { dollars: 1 },
        prices: { 'agent-model': price },
        freeModels: ['user-model'],
      }),
    ).toBeUndefined();
    // A token budget needs no prices, and beside a dollar budget it limits the unpriced models.
    expect(problemOf({ budget: { tokens: 1000 } })).toBeUndefined();
    expect(problemOf({ budget: { dollars: 1, tokens: 1000 } })).toBeUndefined();
    const planned = planRun(miniProject(), { ...REQUEST, freeModels: ['user-model'] });
    expect(planned.ok && planned.plan.prices['user-model']).toEqual({
      inputPerMillion: 0,
      outputPerMillion: 0,
    });
  });

  it('goes on with a log: its seed, trials, scenarios and time, whatever the request says', () => {
    const planned = planRun(miniProject(), {
      ...REQUEST,
      seed: 99,
      trials: 9,
      scenarios: 'none',
      resuming: [
        {
          type: 'run-started',
          at: 0,
          version: 2,
          seed: 7,
          projectHash: 'x',
          models: {},
          trials: 3,
          prompts: [],
          now: '2024-05-15T19:00:00Z',
        },
      ],
    });
    expect(planned.ok && planned.plan).toMatchObject({
      seed: 7,
      trials: 3,
      scenarios: [],
      now: '2024-05-15T19:00:00Z',
    });
    expect(problemOf({ resuming: [] })).toBe('The run’s log has no start to go on from.');
  });
});
