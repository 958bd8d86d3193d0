import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeOne, testCheck } from '../testing/checks.ts';
import { A, U, dialogue } from '../testing/dialogues.ts';

const grounded = testCheck('grounded');
const order = (result: string) => ({ tool: 'get_order', args: { order_id: '#W8367380' }, result });
const NONE = { texts: [] };

describe('grounded', () => {
  it('passes facts the agent was given, however they are written', () => {
    const chat = dialogue([
      U('What is the status of order #W8367380?'),
      A('', order('{"order_id":"#W8367380","total":1628.0,"placed":"2026-03-14T10:00:00Z"}')),
      A('Order W8367380, placed on March 14, 2026, came to $1,628.00.'),
    ]);
    expect(judgeOne(grounded, chat, NONE)).toMatchObject({ passed: true });
  });

  it('fails at the first made-up amount, id or date, quoting it', () => {
    const chat = dialogue([
      U('What is the status of order #W8367380?'),
      A('', order('{"order_id":"#W8367380","total":1628.0}')),
      A('Your refund of $1,268 will reach card ending 4417 by 2026-04-02.'),
    ]);
    const found = judgeOne(grounded, chat, NONE);
    expect(found).toMatchObject({ passed: false, turn: 2 });
    expect(found.detail).toBe(
      'In its 2nd reply the agent stated the amount "$1,268" that no tool result, user message, system prompt or scenario before it holds. 2 more fact(s) in that reply were not grounded either: "4417", "2026-04-02".',
    );
  });

  it('counts a fact said before its source arrived as made up', () => {
    const early = dialogue([
      U('How much was it?'),
      A('It was $1,628.', order('{"total":1628}')),
      A('Yes, $1,628.'),
    ]);
    expect(judgeOne(grounded, early, NONE)).toMatchObject({ passed: false, turn: 1 });
  });

  it('accepts a sum, a difference or a product of facts it had, and its prompt and scenario', () => {
    const chat = dialogue([
      U('I paid 40.50 and 12.25, and want 3 more at 19.99'),
      A(
        'That is $52.75 so far, $28.25 apart, and $59.97 for the three more. We open at 09:30 on weekdays, policy P-17.',
      ),
    ]);
    expect(judgeOne(grounded, chat, { texts: ['We open at 09:30 (P-17).'] })).toMatchObject({
      passed: true,
    });
    expect(judgeOne(grounded, chat, NONE)).toMatchObject({ passed: false });
  });

  it('holds only the kinds of fact it lists', () => {
    const chat = dialogue([U('Hi'), A('Your case number is CASE-9921, opened 2026-01-05.')]);
    expect(judgeOne(testCheck('grounded', { facts: ['amounts'] }), chat, NONE).passed).toBe(true);
    expect(judgeOne(testCheck('grounded', { facts: ['ids'] }), chat, NONE).passed).toBe(false);
  });

  it('never flags an amount it was given, whatever separators and currency it writes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 9_999_999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom('$', '€', '£', ''),
        fc.boolean(),
        (whole, cents, sign, separators) => {
          const value = whole + cents / 100;
          const digits = separators ? whole.toLocaleString('en-US') : String(whole);
          const said = `${sign}${digits}.${String(cents).padStart(2, '0')}`;
          const chat = dialogue([
            U('How much?'),
            A('', order(JSON.stringify({ total: value }))),
            A(`It comes to ${said}${sign === '' ? ' dollars' : ''}.`),
          ]);
          expect(judgeOne(grounded, chat, NONE).passed, said).toBe(true);
        },
      ),
    );
  });
});
