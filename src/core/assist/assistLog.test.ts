import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/events.ts';
import type { AssistUsage } from './assistLog.ts';
import { ASSIST_ACTIONS, assistTotals, assistUsageOf, readAssistLog } from './assistLog.ts';

const usage = (over: Partial<Extract<SimEvent, { type: 'usage' }>> = {}): SimEvent => ({
  type: 'usage',
  at: 5,
  role: 'judge',
  model: 'm',
  inputTokens: 100,
  outputTokens: 20,
  cost: 0.5,
  ms: 40,
  ...over,
});

const entry = fc.record({
  action: fc.constantFrom(...ASSIST_ACTIONS),
  inputTokens: fc.nat(100_000),
  outputTokens: fc.nat(100_000),
  cost: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
  failed: fc.option(fc.constantFrom('timeout' as const, 'server' as const), { nil: undefined }),
});

describe('the Assist log', () => {
  it('keeps a usage event as an entry with its action and time; other events give nothing', () => {
    expect(assistUsageOf('relate', '2026-11-24T10:00:00Z', usage({ failed: 'timeout' }))).toEqual({
      type: 'assist-usage',
      action: 'relate',
      when: '2026-11-24T10:00:00Z',
      role: 'judge',
      model: 'm',
      inputTokens: 100,
      outputTokens: 20,
      cost: 0.5,
      ms: 40,
      failed: 'timeout',
    });
    expect(
      assistUsageOf('relate', 'now', { type: 'run-ended', at: 0, reason: 'done' }),
    ).toBeUndefined();
  });

  it('reads back what it wrote, and leaves out (and counts) what storage holds that is no entry', () => {
    const good = assistUsageOf('attack', 'now', usage());
    const hostile: unknown[] = [
      good,
      null,
      'text',
      { ...good, inputTokens: -5 },
      { ...good, cost: Number.NaN },
      { ...good, action: 'mine-bitcoin' },
      { ...good, role: 'admin' },
      { ...good, outputTokens: '20' },
      { ...good, cost: null },
    ];
    const read = readAssistLog(hostile);
    expect(read.entries).toEqual([good, { ...good, cost: null }]);
    expect(read.unreadable).toBe(7);
  });

  it('sums per action and in all: the parts add up to the whole, unpriced calls counted apart', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (items) => {
        const log: AssistUsage[] = items.map((item) => {
          const { failed, ...rest } = item;
          return {
            type: 'assist-usage',
            when: 'now',
            role: 'generator',
            model: 'm',
            ms: 1,
            ...rest,
            ...(failed !== undefined && { failed }),
          };
        });
        const totals = assistTotals(log);
        const parts = Object.values(totals.byAction);
        const sum = (pick: (s: (typeof parts)[number]) => number) =>
          parts.reduce((n, s) => n + pick(s), 0);
        expect(totals.all.calls).toBe(log.length);
        expect(sum((s) => s.calls)).toBe(totals.all.calls);
        expect(sum((s) => s.failed)).toBe(log.filter((e) => e.failed !== undefined).length);
        expect(sum((s) => s.inputTokens)).toBe(totals.all.inputTokens);
        expect(sum((s) => s.cost ?? 0)).toBe(totals.all.cost);
        expect(totals.all.cost).toBe(log.reduce((n, e) => n + (e.cost ?? 0), 0));
        expect(totals.unpriced).toBe(log.filter((e) => e.cost === null).length);
        // Order does not matter.
        expect(assistTotals([...log].reverse())).toEqual(totals);
      }),
    );
  });
});
