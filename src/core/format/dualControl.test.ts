import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  initializationOf,
  messageHistoryOf,
  requestorsOf,
  sideOf,
  tablesReadBy,
} from './dualControl.ts';

const json = fc.jsonValue();

describe('reading dual control', () => {
  it('never throws on any value, and keeps only well-shaped entries', () => {
    fc.assert(
      fc.property(json, (value) => {
        for (const call of initializationOf(value)) {
          expect(typeof call.tool).toBe('string');
          expect(typeof call.args).toBe('object');
        }
        for (const turn of messageHistoryOf(value)) {
          expect(['user', 'assistant']).toContain(turn.role);
          expect(typeof turn.content).toBe('string');
        }
        for (const id of Object.keys(requestorsOf(value)))
          expect(id).toMatch(/^expected\.required_actions\[\d+\]$/);
        expect(sideOf(value)).toEqual(value === 'user' ? { side: 'user' } : {});
      }),
    );
  });

  it('keeps every well-formed call and turn, in order', () => {
    const call = fc.record({ tool: fc.string(), args: fc.dictionary(fc.string(), fc.integer()) });
    const turn = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string() });
    fc.assert(
      fc.property(fc.array(call), fc.array(turn), (calls, turns) => {
        expect(initializationOf(calls)).toEqual(calls);
        expect(messageHistoryOf(turns)).toEqual(turns);
      }),
    );
    expect(initializationOf([{ tool: 'a' }, { args: {} }, 'b'])).toEqual([{ tool: 'a', args: {} }]);
    expect(
      messageHistoryOf([
        { role: 'agent', content: 'x' },
        { role: 'user', content: 5 },
      ]),
    ).toEqual([]);
  });

  it('numbers requestors as the required actions are numbered (entries without a tool skipped)', () => {
    expect(
      requestorsOf([
        'get_line',
        { args: {} },
        { tool: 'toggle_data', requestor: 'user' },
        { tool: 'x', requestor: 'agent' },
      ]),
    ).toEqual({ 'expected.required_actions[1]': 'user' });
  });

  it('finds the tables an expression reads', () => {
    expect(tablesReadBy('db.phone.exists(p, p.data_on) && db["lines"].size() > 0')).toEqual([
      'phone',
      'lines',
    ]);
    expect(tablesReadBy('args.db.phone == 1')).toEqual([]);
  });
});
