import { describe, expect, it } from 'vitest';
import { A, U, dialogue } from '../testing/dialogues.ts';
import type { Database, RowChange, SimScenario } from './events.ts';
import { checkExpectations } from './expectations.ts';
import {
  active,
  cancelChange,
  cancelledRow,
  finalDb,
  renamed,
  scenario,
  startDb,
} from './expectations.fixtures.ts';

// Whom a failed expectation that names no policy is charged to: a wrong end, a state that does
// not hold.

describe('checkExpectations: whom a wrong end is charged to', () => {
  const keys = new Map([
    ['reservations', 'id'],
    ['users', 'id'],
  ]);
  // Two policies in play, each required action charged to one (as an import writes them).
  const expected = {
    requiredActions: ['get_user', 'cancel', 'rename'],
    attributions: {
      'expected.required_actions[0]': 'verify-identity',
      'expected.required_actions[1]': 'refund-window',
      'expected.required_actions[2]': 'profile-edits',
    },
  };
  const policies = ['verify-identity', 'refund-window', 'profile-edits'];
  const endOf = (
    endState: NonNullable<SimScenario['expected']['endState']>,
    transcript: Parameters<typeof checkExpectations>[1],
    charging = {},
  ) =>
    checkExpectations(
      scenario({ ...expected, endState }, policies),
      transcript,
      finalDb,
      startDb,
      keys,
      charging,
    ).find((f) => f.id === 'expected.end_state');

  it('charges the policy of the required action whose tool changed the first row that ends wrong', () => {
    const renamedToo = dialogue([
      U('Cancel ABC123'),
      A(
        'Done.',
        { tool: 'cancel', changes: [cancelChange] },
        { tool: 'rename', changes: [renamed] },
      ),
    ]);
    // Only the cancellation was expected: the rename is the wrong row, and rename's policy pays.
    const found = endOf({ reservations: { ABC123: { status: 'cancelled' } } }, renamedToo);
    expect([found?.passed, found?.policy]).toEqual([false, 'profile-edits']);
  });

  it('charges a row that never changed to the first required writer of its table', () => {
    const nothing = dialogue([U('Cancel ABC123'), A('I cannot do that.')]);
    const writers = new Map([['reservations', ['cancel']]]);
    const found = endOf({ reservations: { ABC123: { status: 'cancelled' } } }, nothing, {
      writers,
    });
    expect([found?.passed, found?.policy]).toEqual([false, 'refund-window']);
    // A row changed by a call no required action names: the policy its tool answers to.
    const unasked = dialogue([U('Rename me'), A('Done.', { tool: 'erase', changes: [renamed] })]);
    const byTool = endOf({}, unasked, {
      toolPolicy: (t: string) => (t === 'erase' ? 'privacy' : undefined),
    });
    expect([byTool?.passed, byTool?.policy]).toEqual([false, 'privacy']);
    // Without knowing the table's writers, nothing ties it to a policy: unattributed.
    expect(endOf({ reservations: { ABC123: { status: 'cancelled' } } }, nothing)?.policy).toBe(
      undefined,
    );
  });
});

describe('checkExpectations: a state that does not hold', () => {
  // Two policies in play, the steps charged as an import charges them; the state names none.
  const expected = {
    requiredActions: ['get_user', 'cancel'],
    database: ['db.reservations.exists(r, r.id == "ABC123" && r.status == "cancelled")'],
    attributions: {
      'expected.required_actions[0]': 'verify-identity',
      'expected.required_actions[1]': 'refund-window',
    },
  };
  const state = (transcript: Parameters<typeof checkExpectations>[1], db: Database) =>
    checkExpectations(
      scenario(expected, ['verify-identity', 'refund-window']),
      transcript,
      db,
      startDb,
    ).find((f) => f.id === 'expected.database[0]');

  it('is charged to the first step the agent missed', () => {
    const skipped = dialogue([U('Cancel ABC123'), A('Done.', { tool: 'get_user' })]);
    const found = state(skipped, startDb);
    expect([found?.passed, found?.policy]).toEqual([false, 'refund-window']);
    const none = dialogue([U('Cancel ABC123'), A('No.')]);
    expect(state(none, startDb)?.policy).toBe('verify-identity');
  });

  it('with every step done, is charged to the last step, and a state that holds to no one', () => {
    const undone = dialogue([
      U('Cancel ABC123'),
      A('Done.', { tool: 'get_user' }, { tool: 'cancel' }),
    ]);
    // Both calls made, yet the reservation is still active: the last step did not bring it about.
    const found = state(undone, startDb);
    expect([found?.passed, found?.policy]).toEqual([false, 'refund-window']);
    const held = state(undone, finalDb);
    expect([held?.passed, held?.policy]).toEqual([true, undefined]);
  });

  it('with every step done, is charged to an unasked call that changed a table it reads', () => {
    const reopened: RowChange = { ...cancelChange, before: cancelledRow, after: active };
    const spoiled = dialogue([
      U('Cancel ABC123'),
      A('Done.', { tool: 'get_user' }, { tool: 'cancel', changes: [cancelChange] }),
      A('And reopened.', { tool: 'reopen', changes: [reopened] }),
    ]);
    const found = checkExpectations(
      scenario(expected, ['verify-identity', 'refund-window']),
      spoiled,
      startDb,
      startDb,
      new Map(),
      { toolPolicy: (t) => (t === 'reopen' ? 'no-reopening' : undefined) },
    ).find((f) => f.id === 'expected.database[0]');
    expect([found?.passed, found?.policy]).toEqual([false, 'no-reopening']);
  });
});
