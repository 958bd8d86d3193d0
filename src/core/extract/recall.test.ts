import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CandidatePolicy } from '../extract.ts';
import { extractPolicies } from '../extract.ts';
import type { ToolInfo } from './toolLinks.ts';

// A policy document written for these tests in tau2-bench's prose style: an intro list,
// paragraphs of rules, a "domain basics" part that only describes data, nested lists whose items
// need their parent, and lists opened by a paragraph ("… only if one of these holds:").
const POLICY = readFileSync('src/core/extract/testdata/hotelPolicy.md', 'utf8');

const TOOLS: readonly ToolInfo[] = [
  {
    name: 'get_guest_profile',
    description:
      'Get a guest profile by guest id: name, email, date of birth, loyalty tier, saved payment methods and bookings.',
  },
  {
    name: 'find_guest_by_email',
    description: 'Find the guest id that goes with an email address and a date of birth.',
  },
  {
    name: 'search_rooms',
    description:
      'Search the free rooms of a hotel between an arrival and a departure date, with nightly rates.',
  },
  {
    name: 'book_room',
    description:
      'Book a room for a guest and up to three others, paid with a saved payment method; flexible cancellation may be added.',
  },
  {
    name: 'get_booking',
    description:
      'Get one booking: hotel, room type, dates, guests, extras, rate, status and payments.',
  },
  {
    name: 'change_booking',
    description:
      'Move a confirmed booking to other dates or another room type at the same hotel, charging or refunding the difference.',
  },
  {
    name: 'cancel_booking',
    description:
      'Cancel a confirmed booking and refund what the rules allow to the original payment method.',
  },
  { name: 'add_extras', description: 'Add breakfast or late checkout to a booking.' },
  {
    name: 'issue_voucher',
    description: 'Give a guest a compensation voucher for a booking, for an amount in dollars.',
  },
  {
    name: 'transfer_to_front_desk',
    description: 'Hand the conversation over to a human agent at the front desk.',
  },
];

interface Rule {
  /** Every one of these appears in the candidate's text (case aside) when it states this rule. */
  readonly keys: readonly string[];
  /** The tools the rule concerns, where the link is clear; rules without this are not scored. */
  readonly tools?: readonly string[];
  /** Tools that are not expected but are fair to link too (they do not count as wrong). */
  readonly accept?: readonly string[];
}

// The atomic rules of the document, written by hand from it. A rule is what tells the agent what
// to do, not to do, or what is allowed; descriptions of data, examples, the date line and what a
// tool does on its own ("the status will be changed") are not rules.
const RULES: readonly Rule[] = [
  { keys: ['help guests', 'book a room'], tools: ['book_room'] },
  { keys: ['help guests', 'change or cancel an existing booking'] },
  { keys: ['help guests', 'add breakfast or late checkout'], tools: ['add_extras'] },
  { keys: ['help guests', 'answer questions about their own profile'] },
  {
    keys: ['identify the guest', 'email and date of birth'],
    tools: ['find_guest_by_email', 'get_guest_profile'],
  },
  { keys: ['even when the guest says they are already known'] },
  { keys: ['one guest per conversation'] },
  { keys: ["refuse any request about another guest's bookings"] },
  { keys: ['before any action that changes a booking', 'explicit "yes"'] },
  { keys: ['should not invent prices'] },
  { keys: ['do not give personal opinions'] },
  { keys: ['at most one tool call at a time'] },
  { keys: ['while a tool call is running', 'do not send the guest a message'] },
  { keys: ['refuse requests that this policy does not allow'] },
  { keys: ['tell the guest what you can do instead'] },
  {
    keys: ['transfer the guest to a human agent if and only if'],
    tools: ['transfer_to_front_desk'],
  },
  { keys: ['first call transfer_to_front_desk'], tools: ['transfer_to_front_desk'] },
  { keys: ['collect the hotel', 'number of guests before you search'], tools: ['search_rooms'] },
  { keys: ['at most four guests in one room'] },
  { keys: ['more than three rooms', 'events team'] },
  { keys: ['never split a group'] },
  { keys: ['payment must come from a method saved on the profile'] },
  { keys: ['gift voucher must cover the full amount'] },
  { keys: ['collect for every guest', 'first name', 'last name', 'date of birth'] },
  { keys: ['offer flexible cancellation at 15 dollars'] },
  { keys: ['can only be added when the room is booked'] },
  { keys: ['blue', 'free wi-fi'] },
  { keys: ['blue', 'late checkout until 12:00'] },
  { keys: ['silver', 'free breakfast for one person'] },
  { keys: ['silver', 'late checkout until 14:00'] },
  { keys: ['platinum', 'free breakfast for everyone'] },
  { keys: ['platinum', 'free upgrade'] },
  { keys: ['platinum', 'late checkout until 16:00'] },
  { keys: ["do not apply a benefit to a booking paid by someone else's account"] },
  { keys: ['check the tier on the profile'], tools: ['get_guest_profile'] },
  { keys: ["can only be changed if its status is 'confirmed'"], tools: ['change_booking'] },
  { keys: ['check its status before you change anything'] },
  { keys: ['may move to other dates at the same hotel'], tools: ['change_booking'] },
  { keys: ['room type may change at the same time'] },
  { keys: ['move to a different hotel is not a change'] },
  { keys: ['number of guests cannot go above'] },
  { keys: ['costs more', 'pays the difference'] },
  { keys: ['costs less', 'goes back to the original payment method'] },
  { keys: ['non-refundable rate cannot be changed or cancelled'] },
  { keys: ['cancelled with a full refund only if', 'last 48 hours'], tools: ['cancel_booking'] },
  { keys: ['cancelled with a full refund only if', 'more than 7 days away'] },
  { keys: ['cancelled with a full refund only if', 'has flexible cancellation'] },
  { keys: ['cancelled with a full refund only if', 'closed the room for repairs'] },
  { keys: ['first night is charged'] },
  { keys: ['ask the guest for the reason before you cancel'], tools: ['cancel_booking'] },
  {
    keys: ["check the booking's dates and extras"],
    tools: ['get_booking'],
    accept: ['cancel_booking'],
  },
  { keys: ['never offer compensation unless'], tools: ['issue_voucher'] },
  { keys: ['silver or platinum', 'voucher of 30 dollars'], tools: ['issue_voucher'] },
  { keys: ['blue member complains', 'do not offer a voucher'], tools: ['issue_voucher'] },
  { keys: ['must not offer compensation for problems that the guest caused'] },
  { keys: ['at most one voucher per booking'], tools: ['issue_voucher'] },
];

// A second document, in another domain, written and its rules listed before extraction was
// run on it (it found 79% of them then; the misses led to general fixes: more command verbs,
// conditions with commas of their own, "it is important that", "not refundable").
const BANK_POLICY = readFileSync('src/core/extract/testdata/bankPolicy.md', 'utf8');

const BANK_RULES: readonly Rule[] = [
  { keys: ['help the customer', 'report a lost or stolen card'] },
  { keys: ['help the customer', 'dispute a card transaction'] },
  { keys: ['help the customer', 'change the spending limit'] },
  { keys: ['help the customer', 'explain charges, fees and statements'] },
  { keys: ['verify the customer before you discuss any account'] },
  { keys: ['full name and the last four digits'] },
  { keys: ['look the customer up with find_customer'] },
  { keys: ['do not match', 'ask once more'] },
  { keys: ['after two failed attempts', 'end the conversation'] },
  { keys: ['not permitted to read out full card numbers'] },
  { keys: ['keep your answers short'] },
  { keys: ['do not use banking jargon'] },
  { keys: ['only one customer per conversation'] },
  { keys: ["someone else's card", 'refuse'] },
  { keys: ['outside card support', 'transfer them with transfer_to_branch'] },
  { keys: ['outside card support', 'how long the wait usually is'] },
  { keys: ['freeze the card with freeze_card'] },
  { keys: ['do not wait for the customer to confirm the loss'] },
  { keys: ['never send it to a new address'] },
  { keys: ['under no circumstances should you change the address'] },
  { keys: ['standard', 'first replacement in a year is free'] },
  { keys: ['standard', 'further replacement costs 10 dollars'] },
  { keys: ['premier', 'all replacements are free'] },
  { keys: ['premier', 'express delivery at no charge'] },
  { keys: ['only be disputed within 60 days'] },
  { keys: ['check the date with get_transactions'] },
  { keys: ['collect', 'transaction id', 'amount', 'reason'] },
  { keys: ['must confirm the amount and the merchant'] },
  { keys: ['should not promise that the money will be returned'] },
  { keys: ['cash withdrawals', 'transfer those'] },
  { keys: ['raised by at most 50% per month'] },
  { keys: ['premier customer can raise it by up to 100%'] },
  { keys: ['cannot be raised on a frozen card'] },
  { keys: ['lowering a limit is always allowed'] },
  { keys: ['explain a fee before you offer to refund it'] },
  { keys: ['one late payment fee per year for a standard customer'] },
  { keys: ['two per year for a premier customer'] },
  { keys: ['never refund interest charges'] },
  { keys: ['foreign transaction fees are not refundable'] },
];

const states = (candidate: CandidatePolicy, rule: Rule) =>
  rule.keys.every((key) => candidate.text.toLowerCase().includes(key.toLowerCase()));

/**
 * The matching rule: a candidate states a rule when it holds every one of the rule's keys, and
 * candidates and rules are paired one to one (a maximum bipartite matching). A candidate that
 * merges two rules therefore finds only one, and one that states a rule twice counts once, so
 * recall = paired rules / rules and precision = paired candidates / candidates.
 */
function pair(candidates: readonly CandidatePolicy[], rules: readonly Rule[]): Map<number, number> {
  const ruleOf = new Map<number, number>(); // candidate -> rule
  const candidateOf = new Map<number, number>(); // rule -> candidate
  const tryRule = (r: number, seen: Set<number>): boolean => {
    const rule = rules[r];
    if (!rule) return false;
    for (let c = 0; c < candidates.length; c++) {
      const candidate = candidates[c];
      if (!candidate || seen.has(c) || !states(candidate, rule)) continue;
      seen.add(c);
      const held = ruleOf.get(c);
      if (held === undefined || tryRule(held, seen)) {
        ruleOf.set(c, r);
        candidateOf.set(r, c);
        return true;
      }
    }
    return false;
  };
  for (let r = 0; r < rules.length; r++) tryRule(r, new Set());
  return candidateOf;
}

describe('extraction on a policy written in prose (tau2-bench style)', () => {
  const candidates = extractPolicies(POLICY, TOOLS);
  const paired = pair(candidates, RULES);

  it('finds at least 90% of the rules with at least 85% precision', () => {
    const recall = paired.size / RULES.length;
    const precision = paired.size / candidates.length;
    const missed = RULES.filter((_, r) => !paired.has(r)).map((rule) => rule.keys.join(' + '));
    const paired_ = new Set(paired.values());
    const extra = candidates.filter((_, c) => !paired_.has(c)).map((c) => c.text);
    const report = JSON.stringify({ recall, precision, missed, extra }, null, 2);
    expect(recall, report).toBeGreaterThanOrEqual(0.9);
    expect(precision, report).toBeGreaterThanOrEqual(0.85);
    expect(RULES.length).toBeGreaterThanOrEqual(40);
  });

  it('finds at least 90% of the rules of a second document with at least 85% precision', () => {
    const found = extractPolicies(BANK_POLICY);
    const matched = pair(found, BANK_RULES);
    const missed = BANK_RULES.filter((_, r) => !matched.has(r)).map((rule) =>
      rule.keys.join(' + '),
    );
    const report = JSON.stringify({ missed, candidates: found.map((c) => c.text) }, null, 2);
    expect(matched.size / BANK_RULES.length, report).toBeGreaterThanOrEqual(0.9);
    expect(matched.size / found.length, report).toBeGreaterThanOrEqual(0.85);
    for (const data of ['customer id', 'card_id', 'two segments', 'active, frozen or closed'])
      expect(found.filter((c) => c.text.includes(data))).toEqual([]);
  });

  it('gives nothing for descriptions of data, examples or field lists', () => {
    const texts = candidates.map((c) => c.text.toLowerCase());
    for (const phrase of [
      'profile containing',
      'unique guest id',
      'following attributes',
      'payment history',
      'three loyalty tiers',
      'for example',
      'can be: confirmed',
    ])
      expect(texts.filter((t) => t.includes(phrase))).toEqual([]);
  });

  it('keeps the parent of a nested item, so each benefit names its tier', () => {
    const breakfast = candidates.filter((c) => c.text.includes('free breakfast'));
    expect(breakfast.map((c) => c.text)).toEqual([
      'Benefits depend on the tier of the guest who holds the booking: Silver members: free breakfast for one person per night',
      'Benefits depend on the tier of the guest who holds the booking: Platinum members: free breakfast for everyone in the room',
    ]);
    expect(breakfast.map((c) => [c.category, c.source.line])).toEqual([
      ['loyalty-benefits', 90],
      ['loyalty-benefits', 93],
    ]);
  });

  it('links tools by name and by description, rarely wrongly', () => {
    let expected = 0;
    let found = 0;
    let linked = 0;
    let right = 0;
    const wrong: string[] = [];
    RULES.forEach((rule, r) => {
      const c = paired.get(r);
      const candidate = c === undefined ? undefined : candidates[c];
      if (!rule.tools || !candidate) return;
      expected += rule.tools.length;
      found += rule.tools.filter((t) => candidate.tools.includes(t)).length;
      linked += candidate.tools.length;
      const fair = [...rule.tools, ...(rule.accept ?? [])];
      right += candidate.tools.filter((t) => fair.includes(t)).length;
      for (const t of candidate.tools)
        if (!fair.includes(t)) wrong.push(`${t} on "${candidate.text}"`);
    });
    // Scored on the rules whose tools are clear (those with `tools` above): recall counts the
    // expected links made, precision the links made that are expected or acceptable.
    const report = JSON.stringify({ found, expected, right, linked, wrong }, null, 2);
    expect(found / expected, report).toBeGreaterThanOrEqual(0.85);
    expect(right / linked, report).toBeGreaterThanOrEqual(0.8);
    const linkedCandidates = candidates.filter((c) => c.tools.length > 0).length;
    expect(linkedCandidates).toBeGreaterThanOrEqual(15);
  });
});

const TAU2_RETAIL = '../shared/tau2/retail/data/policy.md';

describe.skipIf(!existsSync(TAU2_RETAIL))("tau2-bench's retail policy (from ../shared)", () => {
  it('finds the paragraph rules and no data descriptions', () => {
    const candidates = extractPolicies(readFileSync(TAU2_RETAIL, 'utf8'));
    const texts = candidates.map((c) => c.text.toLowerCase());
    expect(texts.some((t) => t.includes('one tool call at a time'))).toBe(true);
    expect(texts.some((t) => t.includes('explicit user confirmation'))).toBe(true);
    expect(texts.filter((t) => t.includes('unique') || t.includes('attributes'))).toEqual([]);
  });
});

if (!existsSync(TAU2_RETAIL))
  console.warn(`Skipped the tau2-bench retail measure: ${TAU2_RETAIL} is not there.`);
