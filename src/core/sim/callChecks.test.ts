import { describe, expect, it } from 'vitest';
import { testCheck, judgeOne } from '../testing/checks.ts';
import { A, U, dialogue, refusedBy } from '../testing/dialogues.ts';

const check = testCheck;
const judge = judgeOne;

describe('max_calls_per_turn', () => {
  const oneAtATime = check('max_calls_per_turn', { max: 1 });

  it('passes when every agent turn makes at most the calls allowed', () => {
    const chat = dialogue([
      U('Cancel ABC123'),
      A('Let me look.', { tool: 'get_reservation', args: { id: 'ABC123' } }),
      A('Cancelling.', { tool: 'cancel', args: { id: 'ABC123' } }),
      A('Done.'),
    ]);
    expect(judge(oneAtATime, chat)).toEqual({
      id: 'my-max_calls_per_turn',
      policy: 'pol',
      passed: true,
      detail:
        'No reply of the agent’s had more than 1 tool call; the most was 1, in its 1st reply.',
    });
    expect(judge(oneAtATime, dialogue([U('Hi'), A('Hello')])).detail).toBe(
      'The agent called no tool.',
    );
  });

  it('fails at the first turn with too many calls, naming them, refused ones included', () => {
    const chat = dialogue([
      U('Cancel ABC123'),
      A('One moment.', { tool: 'get_user', args: { id: 'u1' } }),
      A(
        '',
        { tool: 'get_reservation', args: { id: 'ABC123' } },
        { tool: 'cancel', args: { id: 'ABC123' }, ...refusedBy('r', 'no') },
      ),
      A('', { tool: 'get_reservation' }, { tool: 'get_user' }),
    ]);
    expect(judge(oneAtATime, chat)).toEqual({
      id: 'my-max_calls_per_turn',
      policy: 'pol',
      passed: false,
      turn: 2,
      detail:
        'In its 2nd reply the agent made 2 tool calls at once, more than the 1 allowed: get_reservation({"id":"ABC123"}), cancel({"id":"ABC123"}). 1 later reply(s) had too many as well. A guard refused 1 of them, but an attempt still counts.',
    });
  });

  it('with a tool, counts only the calls to that tool in one turn', () => {
    const chat = dialogue([
      A('', { tool: 'get_reservation' }, { tool: 'cancel', args: { id: 'A' } }),
      A('', { tool: 'cancel', args: { id: 'B' } }, { tool: 'cancel', args: { id: 'C' } }),
    ]);
    const oneCancel = check('max_calls_per_turn', { max: 1, tool: 'cancel' });
    expect(judge(oneCancel, chat)).toMatchObject({
      passed: false,
      turn: 1,
      detail:
        'In its 2nd reply the agent made 2 calls to cancel at once, more than the 1 allowed: cancel({"id":"B"}), cancel({"id":"C"}).',
    });
    expect(judge(check('max_calls_per_turn', { max: 2, tool: 'cancel' }), chat)).toMatchObject({
      passed: true,
      detail:
        'No reply of the agent’s had more than 2 calls to cancel; the most was 2, in its 2nd reply.',
    });
    expect(judge(oneCancel, dialogue([A('', { tool: 'get_reservation' })])).detail).toBe(
      'The agent never called cancel.',
    );
  });
});

describe('say_before_call', () => {
  const fare = check('say_before_call', { pattern: '\\$\\s?\\d+', tool: 'book' });

  it('passes when an earlier agent message, or the calling turn itself, says it', () => {
    const told = dialogue([
      U('Book flight 12'),
      A('The total is $520. Shall I book it?'),
      U('Yes'),
      A('Booking now.', { tool: 'book', args: { flight: 12 } }),
    ]);
    expect(judge(fare, told)).toEqual({
      id: 'my-say_before_call',
      policy: 'pol',
      passed: true,
      detail:
        'Before every call to book the agent said something that matches /\\$\\s?\\d+/: its 1st reply ("$520").',
    });
    const sameTurn = dialogue([U('Book it'), A('Booking it for $300.', { tool: 'book' })]);
    expect(judge(fare, sameTurn)).toMatchObject({ passed: true });
    expect(judge(fare, dialogue([U('Hi'), A('Hello')])).detail).toBe(
      'The agent never called book.',
    );
  });

  it('fails at the first call with no such message, even one a guard refused', () => {
    const silent = dialogue([
      U('Book flight 12, the fare is $520'),
      A('Booking now.', { tool: 'book', args: { flight: 12 }, ...refusedBy('r', 'no') }),
    ]);
    // The user's own "$520" is not the agent stating it.
    expect(judge(fare, silent)).toEqual({
      id: 'my-say_before_call',
      policy: 'pol',
      passed: false,
      turn: 1,
      detail:
        'In its 1st reply the agent called book({"flight":12}) without saying anything that matches /\\$\\s?\\d+/ in that reply or before.',
    });
  });

  it('needs it said again after a call ran, but not after one that did not run', () => {
    const twice = dialogue([
      A('Flight 12 costs $520. Book it?'),
      U('Yes'),
      A('', { tool: 'book', args: { flight: 12 } }),
      A('Booked. Anything else?'),
      U('Book flight 14 as well'),
      A('', { tool: 'book', args: { flight: 14 } }),
      A('', { tool: 'book', args: { flight: 16 } }),
    ]);
    expect(judge(fare, twice)).toMatchObject({
      passed: false,
      turn: 5,
      detail:
        'In its 4th reply the agent called book({"flight":14}) without saying anything that matches /\\$\\s?\\d+/ since the call in its 2nd reply. 1 more call(s) had the same problem.',
    });
    const retried = dialogue([
      A('Flight 12 costs $520. Book it?'),
      U('Yes'),
      A('', { tool: 'book', args: { flight: 12 }, ok: false, result: 'card declined' }),
      A('', { tool: 'book', args: { flight: 12, card: 2 } }),
    ]);
    expect(judge(fare, retried)).toMatchObject({ passed: true });
  });

  it('skips when the pattern is not a regular expression', () => {
    expect(
      judge(check('say_before_call', { pattern: '(', tool: 'book' }), dialogue([])).detail,
    ).toMatch(/^Skipped: \/\(\/ is not a valid regular expression/);
    expect(judge(check('say_before_call', { tool: 'book' }), dialogue([])).detail).toBe(
      'Skipped: the check needs "pattern" and "tool".',
    );
  });
});

describe('silent_call', () => {
  it('fails a reply that both speaks and calls, and passes calls alone', () => {
    const quiet = dialogue([U('Cancel it'), A('', { tool: 'cancel' }), A('Done.')]);
    expect(judge(check('silent_call'), quiet).passed).toBe(true);
    const loud = dialogue([U('Cancel it'), A('Cancelling now!', { tool: 'cancel' }), A('Done.')]);
    expect(judge(check('silent_call'), loud)).toMatchObject({
      passed: false,
      turn: 1,
      detail:
        'In its 1st reply the agent called cancel({}) and also said "Cancelling now!": words and a call in one answer.',
    });
    // Only calls to its tool, when it names one.
    expect(judge(check('silent_call', { tool: 'refund' }), loud).passed).toBe(true);
  });
});

describe('wait_for_result', () => {
  it('fails a reply that claims a call’s outcome in the same answer', () => {
    const claims = dialogue([U('Cancel it'), A('Your order is cancelled.', { tool: 'cancel' })]);
    expect(judge(check('wait_for_result'), claims)).toMatchObject({ passed: false, turn: 1 });
    const waits = dialogue([
      U('Cancel it'),
      A('One moment while I cancel it.', { tool: 'cancel' }),
      A('Your order is cancelled.'),
    ]);
    expect(judge(check('wait_for_result'), waits).passed).toBe(true);
    // Its own pattern instead of the default claims.
    const own = check('wait_for_result', { pattern: 'one moment' });
    expect(judge(own, waits).passed).toBe(false);
  });
});

describe('transfer_only_when', () => {
  const transfer = { tool: 'transfer_to_human' };
  it('passes a transfer after the words it needs, or after a refused attempt when allowed', () => {
    const asked = dialogue([U('I want to speak to a human.'), A('', transfer)]);
    const rule = check('transfer_only_when', { tool: 'transfer_to_human', pattern: '\\bhuman\\b' });
    expect(judge(rule, asked).passed).toBe(true);
    const refused = dialogue([
      U('Refund my old order'),
      A('', { tool: 'refund', ...refusedBy('late', 'Too late.') }),
      A('', transfer),
    ]);
    expect(judge(rule, refused).passed).toBe(false);
    const either = check('transfer_only_when', {
      tool: 'transfer_to_human',
      pattern: '\\bhuman\\b',
      afterRefusal: true,
    });
    expect(judge(either, refused).passed).toBe(true);
  });

  it('fails a transfer with nothing before it that permits one', () => {
    const early = dialogue([U('Where is my order?'), A('', transfer)]);
    const rule = check('transfer_only_when', { tool: 'transfer_to_human', pattern: '\\bhuman\\b' });
    expect(judge(rule, early)).toMatchObject({
      passed: false,
      turn: 1,
      detail:
        'In its 1st reply the agent called transfer_to_human({}) with no a message matching /\\bhuman\\b/ before it: a transfer the policy does not permit here.',
    });
  });
});
