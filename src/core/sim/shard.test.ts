import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FRESH_REFUND,
  LATE_REFUND,
  REFUND_PLAN,
  REFUND_SAMPLES,
  mini,
  refundGenerator,
  refundScenario,
  simulateRefunds,
} from '../../test/refundDesk.ts';
import type { SimEvent } from './events.ts';
import { reportOf } from './report.ts';
import type { RunPlan } from './run.ts';
import { jobKey, mergeRunLogs, parseShard, shardOf } from './shard.ts';

const FACTS = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);

/** Nine scenarios, three trials each: refunds that pass and refunds the guard refuses. */
const PLAN: RunPlan = {
  ...REFUND_PLAN,
  trials: 3,
  scenarios: [
    ...Array.from({ length: 7 }, (_, i) => ({
      scenario: refundScenario(`s${i}`, i % 2 ? 'Refund order o2.' : 'Refund order o1.', [
        i % 3
          ? (FRESH_REFUND.expected.database[0] ?? '')
          : (LATE_REFUND.expected.database[0] ?? ''),
      ]),
      source: 'hand-written' as const,
    })),
    { scenario: refundScenario('g1', 'Refund order o1.', []), source: 'generated' as const },
    { scenario: refundScenario('g2', 'Refund order o2.', []), source: 'generated' as const },
  ],
};

/** The report without its clock: shards run side by side, so only the timing may differ. */
const untimed = (events: readonly SimEvent[]) => {
  const { wallMs: _wall, msByRole: _ms, ...rest } = reportOf(events, FACTS);
  return rest;
};

describe('sharding a run', () => {
  it('reads K/N and says what is wrong with anything else', () => {
    expect(parseShard('2/8')).toEqual({ index: 2, count: 8 });
    expect(parseShard('0/8')).toHaveProperty('problem');
    expect(parseShard('9/8')).toHaveProperty('problem');
    expect(parseShard('2-8')).toHaveProperty('problem');
    expect(parseShard('1/0')).toHaveProperty('problem');
  });

  it('puts every job in exactly one shard, the same one every time', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 50 }), (key, count) => {
        const shard = shardOf(key, count);
        expect(shard).toBeGreaterThanOrEqual(1);
        expect(shard).toBeLessThanOrEqual(count);
        expect(shardOf(key, count)).toBe(shard);
      }),
    );
    expect(jobKey('g1', 2, 'generated')).toBe('g1');
    expect(jobKey('s1', 2, 'hand-written')).toBe('s1#3');
  });

  it('N shards merged report exactly what one unsharded run reports', async () => {
    const whole = await simulateRefunds(PLAN);
    for (const count of [2, 3, 5]) {
      const logs = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          simulateRefunds({ ...PLAN, shard: { index: i + 1, count } }).then((r) => r.events),
        ),
      );
      const ran = logs.map((log) => log.filter((e) => e.type === 'dialogue-started').length);
      expect(ran.reduce((a, b) => a + b, 0)).toBe(27);
      // Each shard's own report expects exactly what it ran.
      for (const log of logs) {
        const { progress } = reportOf(log, FACTS);
        expect(progress.dialoguesExpected).toBe(progress.dialoguesStarted);
        expect(progress.ended).toBe('done');
      }
      const merged = mergeRunLogs(logs.reverse());
      if ('problem' in merged) throw new Error(merged.problem);
      expect(untimed(merged.events)).toEqual(untimed(whole.events));
      expect(merged.events.filter((e) => e.type === 'scenario')).toHaveLength(9);
    }
  });

  it('sends a generated scenario whole to one shard', async () => {
    const logs = await Promise.all(
      [1, 2, 3].map((index) =>
        simulateRefunds({ ...PLAN, shard: { index, count: 3 } }).then((r) => r.events),
      ),
    );
    for (const id of ['g1', 'g2']) {
      const holders = logs.filter((log) =>
        log.some((e) => e.type === 'dialogue-started' && e.scenario === id),
      );
      expect(holders).toHaveLength(1);
      expect(
        holders[0]?.filter((e) => e.type === 'dialogue-started' && e.scenario === id),
      ).toHaveLength(3);
    }
  });

  it('writes each sampled scenario once, in the shard that runs it', async () => {
    const generating: RunPlan = {
      ...PLAN,
      samples: REFUND_SAMPLES,
      generator: { engine: refundGenerator, model: 'gen-model' },
    };
    const whole = await simulateRefunds(generating);
    for (const count of [2, 3]) {
      const logs = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          simulateRefunds({ ...generating, shard: { index: i + 1, count } }).then((r) => r.events),
        ),
      );
      const all = logs.flat();
      // One sample is written, one fails: each in one shard only, so the generator is asked once.
      expect(all.filter((e) => e.type === 'usage' && e.role === 'generator')).toHaveLength(1);
      expect(all.filter((e) => e.type === 'scenario-failed')).toHaveLength(1);
      const merged = mergeRunLogs(logs);
      if ('problem' in merged) throw new Error(merged.problem);
      expect(untimed(merged.events)).toEqual(untimed(whole.events));
    }
  });

  it('refuses logs that are not shards of one run, and leaves a missing shard unfinished', async () => {
    const one = (await simulateRefunds({ ...PLAN, shard: { index: 1, count: 2 } })).events;
    const two = (await simulateRefunds({ ...PLAN, shard: { index: 2, count: 2 } })).events;
    const other = (await simulateRefunds({ ...PLAN, seed: 8, shard: { index: 2, count: 2 } }))
      .events;
    expect(mergeRunLogs([one, other])).toEqual({
      problem: 'logs 1 and 2 are not shards of one run: their seeds differ (7 and 8).',
    });
    expect(mergeRunLogs([one, one])).toEqual({ problem: 'two logs are shard 1 of the run.' });
    const unsharded = (await simulateRefunds(PLAN)).events;
    expect(mergeRunLogs([one, unsharded])).toHaveProperty('problem');
    expect(mergeRunLogs([one, two])).not.toHaveProperty('problem');
    // Shard 3 of 3 never came: shards 1 and 2 together are not a finished run.
    const [first, second] = await Promise.all(
      [1, 2].map((index) =>
        simulateRefunds({ ...PLAN, shard: { index, count: 3 } }).then((r) => r.events),
      ),
    );
    const partial = mergeRunLogs([first ?? [], second ?? []]);
    if ('problem' in partial) throw new Error(partial.problem);
    const { progress } = reportOf(partial.events, FACTS);
    expect(progress.ended).toBe('unfinished');
    expect(progress.dialoguesStarted).toBeLessThan(progress.dialoguesExpected);
  });
});
