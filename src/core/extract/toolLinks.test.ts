import { describe, expect, it } from 'vitest';
import { isDataDescription, isFieldItem, isObligation } from './cues.ts';
import { stem, toolLinker } from './toolLinks.ts';

const TOOLS = [
  { name: 'cancel_ticket', description: 'Cancel a ticket and refund it to the original card.' },
  { name: 'get_ticket', description: 'Get one ticket: seat, train, price, status and payment.' },
  { name: 'hand_over', description: 'Hand the chat to a human agent at the station desk.' },
  { name: 'issue_credit', description: 'Give a passenger a travel credit as compensation.' },
  { name: 'calculate', description: 'Work out a sum.' },
];

describe('toolLinker', () => {
  const link = toolLinker(TOOLS);

  it('links a tool the text names, or whose name it says in words', () => {
    expect(link('Use calculate for every total.')).toEqual(['calculate']);
    expect(link('A ticket can only be cancelled before the train leaves.')).toEqual([
      'cancel_ticket',
    ]);
  });

  it("links a tool by its description's rare words, and by the heading when the text does not say", () => {
    expect(link('If the request is beyond you, pass the chat to a human agent.')).toEqual([
      'hand_over',
    ]);
    expect(link('Check the status first.', 'Cancel a ticket')).toEqual(['cancel_ticket']);
  });

  it('links nothing when only common words are shared', () => {
    expect(link('Be polite to every passenger.')).toEqual([]);
    expect(toolLinker([])('Cancel the ticket.')).toEqual([]);
  });
});

describe('stem', () => {
  it('brings the forms of a word together', () => {
    expect(new Set(['cancel', 'cancelled', 'cancellation', 'cancels'].map(stem)).size).toBe(1);
    expect(stem('modified')).toBe(stem('modify'));
    expect(stem('bookings')).toBe(stem('booking'));
  });
});

describe('cues', () => {
  it('tells rules from other sentences', () => {
    for (const rule of [
      'You must verify the user.',
      'Ask for the reason before acting.',
      'If the user asks, offer a voucher.',
      'To transfer, first call the tool.',
      'The agent can offer a certificate.',
      'A reservation can be cancelled within a day.',
      'Other reasons are not acceptable.',
      'Cash disputes go to the fraud team, so transfer those.',
      'If they ask for a loan, a card or a mortgage, transfer them.',
      'It is important that you verify the caller.',
    ])
      expect(isObligation(rule), rule).toBe(true);
    for (const other of [
      'The store sells shoes.',
      'Orders can have other attributes.',
      'The status can be: pending or sent.',
      'The status will be changed to cancelled.',
    ])
      expect(isObligation(other), other).toBe(false);
  });

  it('tells descriptions of data, and field items', () => {
    expect(isDataDescription('Each user has a profile containing:')).toBe(true);
    expect(isDataDescription('There are three types of payment methods.')).toBe(true);
    expect(isDataDescription('For example, a shirt in blue.')).toBe(true);
    expect(isDataDescription('Each user has to confirm the order.')).toBe(false);
    expect(isFieldItem('`user_id`: the id')).toBe(true);
    expect(isFieldItem('email: where to write')).toBe(true);
    expect(isFieldItem('Silver members: 2 bags')).toBe(false);
    expect(isFieldItem('silver: 2 bags', true)).toBe(false);
    expect(isFieldItem('`user_id`: the id', true)).toBe(true);
  });
});
