import { describe, expect, it } from 'vitest';
import type { ChatEngine } from '../models/chat.ts';
import { modelReply as reply } from '../../test/scriptedModels.ts';
import {
  REFUND_PLAN as PLAN,
  REFUND_SAMPLES as SAMPLES,
  mini,
  refundGenerator as generator,
  refundJudge as judge,
  simulateRefunds as simulate,
} from '../../test/refundDesk.ts';
import { reportOf } from './report.ts';
import type { RunPlan } from './run.ts';

describe('scenarios written for sampled combinations', () => {
  it('writes scenarios for the samples first and runs them with the hand-written ones', async () => {
    const { reason, events, failures } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(reason).toBe('done');
    expect(events[0]).toMatchObject({ models: { generator: 'gen-model' } });
    const announced = events.flatMap((e) =>
      e.type === 'scenario' ? [[e.scenario.id, e.source]] : [],
    );
    expect(announced).toEqual([
      ['fresh', 'hand-written'],
      ['late', 'generated'],
      ['gen-1', 'generated'],
    ]);
    const scenario = events.find((e) => e.type === 'scenario' && e.scenario.id === 'gen-1');
    expect(scenario?.type === 'scenario' && scenario.scenario.level).toBe(3);
    expect(events.filter((e) => e.type === 'usage' && e.role === 'generator')).toHaveLength(1);
    expect(failures).toEqual([
      { sample: SAMPLES[1], error: 'The project has no policy "no-such-policy".', attempts: 0 },
    ]);
    const started = events.flatMap((e) => (e.type === 'dialogue-started' ? [e.dialogue] : []));
    expect(started.slice(-2).sort()).toEqual(['gen-1#1', 'gen-1#2']);
    const checks = events.find((e) => e.type === 'checks' && e.dialogue === 'gen-1#1');
    expect(checks?.type === 'checks' && checks.findings.every((f) => f.passed)).toBe(true);
  });

  it('can be cancelled while it writes scenarios', async () => {
    const controller = new AbortController();
    const stalling: ChatEngine = {
      chat: (request, options) => {
        controller.abort();
        return generator.chat(request, options);
      },
    };
    const { reason, events } = await simulate(
      { ...PLAN, samples: SAMPLES, generator: { engine: stalling, model: 'gen-model' } },
      controller.signal,
    );
    expect(reason).toBe('cancelled');
    expect(events.some((e) => e.type === 'dialogue-started')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'cancelled' });
  });

  it('writes the same log twice with generation and the judge', async () => {
    const plan: RunPlan = {
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
      judge: { engine: judge, model: 'judge-model' },
    };
    const first = await simulate(plan);
    const second = await simulate(plan);
    expect(first.events.some((e) => e.type === 'judge')).toBe(true);
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });
});

describe('a sample the generator cannot write a scenario for', () => {
  /** A generator whose scenarios always name a table the project does not have. */
  const hopeless: ChatEngine = {
    chat: () =>
      Promise.resolve(
        reply(
          JSON.stringify({
            persona: 'P.',
            goal: 'G.',
            knows: [],
            unknown: [],
            rows: { nowhere: [{ id: 1 }] },
            expected: {
              database: [],
              required_actions: [],
              forbidden_actions: [],
              must_say: [],
              must_not_say: [],
            },
          }),
        ),
      ),
  };
  const facts = new Map(
    mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );

  it('leaves a scenario-failed event per failure, in the samples’ order, and the report counts it', async () => {
    const plan: RunPlan = {
      ...PLAN,
      scenarios: [],
      samples: [{ policies: ['refund-window'], level: 3 }, ...SAMPLES],
      generator: { engine: hopeless, model: 'gen-model' },
      maxRepairs: 1,
    };
    const { events, failures } = await simulate(plan);
    const failed = events.flatMap((e) => (e.type === 'scenario-failed' ? [e] : []));
    expect(failed.map(({ at: _, ...e }) => e)).toEqual([
      {
        type: 'scenario-failed',
        sample: { policies: ['refund-window'], level: 3 },
        error: expect.stringMatching(
          /^The generated scenario for refund-window is still invalid after 1 request/,
        ) as string,
        attempts: 2,
      },
      {
        type: 'scenario-failed',
        sample: { policies: ['refund-window'], level: 3 },
        error: expect.stringMatching(/still invalid/) as string,
        attempts: 2,
      },
      {
        type: 'scenario-failed',
        sample: { policies: ['no-such-policy'], level: 1 },
        error: 'The project has no policy "no-such-policy".',
        attempts: 0,
      },
    ]);
    // The callback still hears of each, as before.
    expect(failures.map((f) => f.sample.policies)).toEqual([
      ['refund-window'],
      ['refund-window'],
      ['no-such-policy'],
    ]);
    expect(reportOf(events, facts).generation).toEqual({
      asked: 3,
      written: 0,
      failed: failed.map((e) => ({
        policies: e.sample.policies,
        level: e.sample.level,
        error: e.error,
        attempts: e.attempts,
      })),
    });
    const again = await simulate(plan);
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(events));
  });

  it('reports written and failed samples apart from the plan’s own scenarios', async () => {
    const { events } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(reportOf(events, facts).generation).toMatchObject({
      asked: 2,
      written: 1,
      failed: [{ policies: ['no-such-policy'], level: 1, attempts: 0 }],
    });
    expect(reportOf((await simulate()).events, facts).generation).toBeNull();
  });
});
