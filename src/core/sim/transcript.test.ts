import { describe, expect, it } from 'vitest';
import type { RowChange, SimEvent } from './events.ts';
import { A, U, dialogue } from '../testing/dialogues.ts';
import {
  netChanges,
  ordinal,
  readerTurns,
  succeeded,
  transcriptOf,
  wasRefused,
} from './transcript.ts';

const activeRow = { id: 'ABC123', status: 'active' };
const cancelledRow = { id: 'ABC123', status: 'cancelled' };
const cancelled: RowChange = {
  table: 'reservations',
  key: 'ABC123',
  kind: 'update',
  before: activeRow,
  after: cancelledRow,
};

const log: SimEvent[] = [
  { type: 'dialogue-started', at: 0, dialogue: 'd1', scenario: 'late-refund', trial: 1 },
  { type: 'message', at: 1, dialogue: 'd1', turn: 0, speaker: 'agent', text: 'Hi!' },
  { type: 'message', at: 2, dialogue: 'd1', turn: 1, speaker: 'user', text: 'Cancel ABC123' },
  { type: 'message', at: 2, dialogue: 'd2', turn: 1, speaker: 'user', text: 'other dialogue' },
  // The agent's calls are logged before its words for that turn.
  { type: 'tool-call', at: 3, dialogue: 'd1', turn: 2, call: 'c1', tool: 'get_res', args: {} },
  { type: 'guard', at: 3, dialogue: 'd1', call: 'c1', allowed: true, reason: 'unguarded' },
  { type: 'tool-result', at: 3, dialogue: 'd1', call: 'c1', ok: true, result: '{}', changes: [] },
  {
    type: 'tool-call',
    at: 4,
    dialogue: 'd1',
    turn: 2,
    call: 'c2',
    tool: 'cancel',
    args: { id: 'ABC123' },
  },
  {
    type: 'guard',
    at: 4,
    dialogue: 'd1',
    call: 'c2',
    allowed: false,
    rule: 'confirm-first',
    policy: 'explicit-confirmation',
    fallback: 'message',
    reason: 'Ask first.',
  },
  { type: 'tool-call', at: 4, dialogue: 'd2', turn: 2, call: 'c2', tool: 'other', args: {} },
  { type: 'message', at: 5, dialogue: 'd1', turn: 2, speaker: 'agent', text: 'Shall I?' },
  { type: 'message', at: 6, dialogue: 'd1', turn: 3, speaker: 'user', text: 'Yes' },
  { type: 'tool-call', at: 7, dialogue: 'd1', turn: 4, call: 'c3', tool: 'cancel', args: {} },
  { type: 'guard', at: 7, dialogue: 'd1', call: 'c3', allowed: true, reason: 'ok' },
  {
    type: 'tool-result',
    at: 7,
    dialogue: 'd1',
    call: 'c3',
    ok: true,
    result: '{"status":"cancelled"}',
    changes: [cancelled],
  },
  { type: 'dialogue-ended', at: 8, dialogue: 'd1', reason: 'guard-end', detail: 'Stopped.' },
  { type: 'dialogue-ended', at: 8, dialogue: 'd2', reason: 'time-limit', detail: 'Too slow.' },
];

describe('transcriptOf', () => {
  const transcript = transcriptOf(log, 'd1');

  it('keeps the messages of its own dialogue in turn order', () => {
    expect(transcript.messages.map((m) => `${m.turn}:${m.speaker}:${m.text}`)).toEqual([
      '0:agent:Hi!',
      '1:user:Cancel ABC123',
      '2:agent:Shall I?',
      '3:user:Yes',
    ]);
    expect(transcript.scenario).toBe('late-refund');
    expect(transcript.trial).toBe(1);
  });

  it("gives each agent turn its calls, with the guard's decision and the result", () => {
    const turn2 = transcript.messages[2];
    expect(turn2?.calls.map((c) => c.tool)).toEqual(['get_res', 'cancel']);
    const [lookup, refused] = turn2?.calls ?? [];
    expect(lookup?.result).toEqual({ ok: true, text: '{}', changes: [] });
    expect(refused?.guard).toEqual({
      allowed: false,
      rule: 'confirm-first',
      policy: 'explicit-confirmation',
      fallback: 'message',
      reason: 'Ask first.',
    });
    expect(refused?.result).toBeUndefined();
    expect(refused && wasRefused(refused)).toBe(true);
    expect(refused && succeeded(refused)).toBe(false);
    expect(lookup && succeeded(lookup)).toBe(true);
  });

  it('keeps a call whose turn has no message, the ending and the changes in order', () => {
    expect(transcript.calls.map((c) => `${c.call}@${c.turn}`)).toEqual(['c1@2', 'c2@2', 'c3@4']);
    expect(transcript.messages.some((m) => m.turn === 4)).toBe(false);
    expect(transcript.ending).toEqual({ reason: 'guard-end', detail: 'Stopped.' });
    expect(transcript.changes).toEqual([cancelled]);
  });

  it('folds another dialogue without mixing the two', () => {
    const other = transcriptOf(log, 'd2');
    expect(other.messages.map((m) => m.text)).toEqual(['other dialogue']);
    expect(other.calls.map((c) => c.tool)).toEqual(['other']);
    expect(other.ending?.reason).toBe('time-limit');
    expect(other.scenario).toBeUndefined();
  });

  it('gives an empty transcript for a dialogue the log does not have', () => {
    expect(transcriptOf(log, 'nope')).toEqual({
      dialogue: 'nope',
      messages: [],
      calls: [],
      changes: [],
    });
  });
});

describe('netChanges', () => {
  it('nets changes per row and drops a change that was undone', () => {
    const back: RowChange = { ...cancelled, before: cancelledRow, after: activeRow };
    const inserted: RowChange = { table: 't', key: 'k', kind: 'insert', after: { id: 'k' } };
    const removed: RowChange = { table: 't', key: 'k', kind: 'delete', before: { id: 'k' } };
    expect(netChanges([cancelled, back])).toEqual([]);
    expect(netChanges([inserted, removed])).toEqual([]);
    expect(netChanges([cancelled, inserted])).toEqual([cancelled, inserted]);
    const after = { id: 'ABC123', status: 'rebooked' };
    const rebooked: RowChange = { ...cancelled, before: cancelledRow, after };
    expect(netChanges([cancelled, rebooked])).toEqual([{ ...cancelled, after }]);
  });
});

describe('turns as a reader counts them', () => {
  it('names each message by its speaker and place, and a call by the reply it came in', () => {
    const t = dialogue([
      U('Hi'),
      A('', { tool: 'get_user' }),
      A('Found you.'),
      U('Cancel it.'),
      A('Done.', { tool: 'cancel' }),
    ]);
    expect(t.messages.map((m) => [m.turn, m.speaker, m.nth])).toEqual([
      [0, 'user', 1],
      [1, 'agent', 1],
      [2, 'agent', 2],
      [3, 'user', 2],
      [4, 'agent', 3],
    ]);
    expect(t.calls.map((c) => [c.tool, c.reply])).toEqual([
      ['get_user', 1],
      ['cancel', 3],
    ]);
    const name = readerTurns(t.messages);
    expect([0, 1, 4].map(name)).toEqual([
      'the customer’s 1st message',
      'the agent’s 1st reply',
      'the agent’s 3rd reply',
    ]);
    // A call whose reply never came is in the reply after the agent's last one.
    expect(name(9)).toBe('the agent’s 4th reply');
  });

  it('writes ordinals as people do', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });
});
