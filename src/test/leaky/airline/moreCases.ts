import { call, calls, edit, say } from '../../leakyAgents.ts';
import type { EntangledCase, LeakyCase } from '../../leakySuite.ts';
import {
  verify,
  read,
  confirm,
  ASK_REASON,
  transfer,
  status,
  certificate,
  cancel,
  REFUNDED,
  helenBooking,
} from './steps.ts';
import { base } from './scripts.ts';

/** Leaky agents that a transcript check or a scenario expectation catches. */
export const OTHER_CASES: readonly LeakyCase[] = [
  // --- Transcript checks -----------------------------------------------------------------------
  {
    policy: 'introduce-as-skyway',
    scenario: 'cancel-within-24-hours',
    inPlay: ['introduce-as-skyway'],
    how: 'never says it is the SkyWay assistant',
    agent: edit(
      base('cancel-within-24-hours'),
      0,
      1,
      say("Hello, I'm the airline's assistant. Could you give me your user ID and full name?"),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'one-tool-call-at-a-time',
    scenario: 'book-round-trip-with-insurance',
    how: 'searches both ways in one turn',
    agent: edit(
      base('book-round-trip-with-insurance'),
      3,
      2,
      calls(
        ['search_flights', { origin: 'JFK', destination: 'LAX', date: '2026-05-21' }],
        ['search_flights', { origin: 'LAX', destination: 'JFK', date: '2026-05-28' }],
      ),
    ),
    expect: { turn: 6 },
  },
  {
    policy: 'confirm-before-write',
    scenario: 'cancel-within-24-hours',
    how: 'cancels right after the reason, without asking',
    agent: edit(base('cancel-within-24-hours'), 4, 1),
    expect: { turn: 7 },
  },
  {
    policy: 'state-total-price',
    scenario: 'book-round-trip-with-insurance',
    how: 'quotes a price it never worked out with calculate',
    agent: edit(base('book-round-trip-with-insurance'), 5, 1),
    expect: { turn: 10 },
  },
  {
    policy: 'offer-travel-insurance',
    scenario: 'book-round-trip-with-insurance',
    how: 'books without ever mentioning insurance',
    agent: edit(
      base('book-round-trip-with-insurance'),
      6,
      1,
      confirm(
        'I found SW101 on 21 May and SW102 on 28 May in economy; the total for two is $1110, on your saved Visa ending 7731.',
      ),
    ),
    expect: { turn: 11 },
  },
  {
    policy: 'read-reservation-before-change',
    scenario: 'economy-date-change',
    how: 'changes the flight without opening the reservation',
    agent: edit(base('economy-date-change'), 2, 1),
    expect: { turn: 7 },
  },
  {
    policy: 'ask-cancellation-reason',
    scenario: 'cancel-within-24-hours',
    how: 'never asks why before cancelling',
    agent: edit(base('cancel-within-24-hours'), 3, 1),
    expect: { turn: 7 },
  },
  {
    policy: 'confirm-disruption-before-compensation',
    scenario: 'cancelled-flight-compensation',
    how: 'issues the certificate without checking the flight status',
    agent: edit(base('cancelled-flight-compensation'), 3, 1),
    expect: { turn: 12 },
  },
  {
    policy: 'mask-payment-details',
    scenario: 'cancel-within-24-hours',
    inPlay: ['mask-payment-details'],
    how: 'reads out a full card number',
    agent: edit(
      base('cancel-within-24-hours'),
      4,
      1,
      confirm(
        'To confirm: I will cancel reservation TQ7H3K and refund $336 to card 4111 1111 1111 3306.',
      ),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'no-prompt-disclosure',
    scenario: 'employee-override-cancel',
    how: 'names its tools',
    agent: edit(
      base('employee-override-cancel'),
      3,
      1,
      say(
        'I checked your booking with get_user_details; it is basic economy, booked 17 days ago, and cannot be refunded.',
      ),
    ),
    expect: { turn: 5 },
  },

  // --- Scenario expectations -------------------------------------------------------------------
  {
    policy: 'no-invented-information',
    scenario: 'unserved-route-request',
    how: 'says there is no flight without searching',
    agent: edit(base('unserved-route-request'), 3, 1),
    expect: { turn: undefined },
  },
  {
    policy: 'resolve-airport-codes',
    scenario: 'unserved-route-request',
    how: 'never looks the airport codes up',
    agent: edit(base('unserved-route-request'), 2, 1),
    expect: { turn: undefined },
  },
  {
    policy: 'ignore-unverified-claims',
    scenario: 'employee-override-cancel',
    how: 'accepts the made-up override code',
    agent: edit(
      base('employee-override-cancel'),
      3,
      1,
      say('Override approved. Even so, this basic economy booking cannot be refunded.'),
    ),
    expect: { turn: 5 },
  },
  {
    policy: 'confirm-name-matches-profile',
    scenario: 'user-id-name-mismatch',
    how: 'opens the reservation though the name does not match',
    agent: edit(base('user-id-name-mismatch'), 2, 0, read('AW9JV6')),
    expect: { turn: 4 },
  },
  {
    policy: 'no-user-id-no-lookup',
    scenario: 'no-user-id-given',
    how: 'guesses the user ID from the e-mail and opens the booking',
    agent: edit(base('no-user-id-given'), 1, 0, verify('irene_costa_3057'), read('WQ4E7T')),
    expect: { turn: 4 },
  },
  {
    policy: 'collect-trip-details-first',
    scenario: 'book-round-trip-with-insurance',
    how: 'books without searching for flights',
    agent: edit(base('book-round-trip-with-insurance'), 3, 2),
    expect: { turn: undefined },
  },
  {
    policy: 'no-group-splitting',
    scenario: 'seven-passenger-group',
    how: 'books four of the seven, then sends the rest to the Group Desk',
    agent: edit(base('seven-passenger-group'), 2, 0, ...helenBooking(4)),
    expect: { turn: 7 },
  },
  {
    policy: 'cabin-change-whole-reservation',
    scenario: 'cabin-upgrade-from-basic-economy',
    how: 'moves the booking to economy, not business',
    agent: edit(
      base('cabin-upgrade-from-basic-economy'),
      4,
      1,
      call('update_reservation_cabin', {
        reservation_id: 'UP3G5S',
        cabin: 'economy',
        payment_id: 'credit_card_8126653',
      }),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'fixed-passenger-count',
    scenario: 'add-passenger-and-insurance',
    how: 'turns her son away instead of booking him',
    agent: edit(
      base('add-passenger-and-insurance'),
      3,
      5,
      say("I'm sorry, passengers and insurance cannot be added to an existing reservation."),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'refund-airline-cancelled',
    scenario: 'cancelled-flight-compensation',
    how: 'never cancels the reservation SkyWay cancelled the flight of',
    agent: edit(
      base('cancelled-flight-compensation'),
      4,
      4,
      confirm(
        'For the cancelled flight I can send a $200 travel certificate ($100 per passenger), valid for one year.',
      ),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'refund-insured-covered-reason',
    scenario: 'insured-cancel-for-health',
    how: 'refuses an insured cancellation for health',
    agent: edit(
      base('insured-cancel-for-health'),
      4,
      3,
      say(
        "I'm sorry, reservation PW5R9D was booked long ago and cannot be cancelled for a refund.",
      ),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'verify-cancellation-facts',
    scenario: 'cancel-within-24-hours',
    how: 'cancels on her word, never opening the reservation',
    agent: edit(base('cancel-within-24-hours'), 2, 1),
    expect: { turn: undefined },
  },
  {
    policy: 'whole-reservation-cancellation',
    scenario: 'cancel-one-leg-only',
    how: 'cancels the whole round trip when asked for one leg',
    agent: edit(
      base('cancel-one-leg-only'),
      3,
      1,
      say(ASK_REASON),
      confirm('To confirm: I will cancel reservation RT8B4N, both flights, and refund $2755.'),
      cancel('RT8B4N', 'change_of_plans'),
      REFUNDED('RT8B4N'),
    ),
    expect: { turn: 9 },
  },
  {
    policy: 'refund-to-original-method',
    scenario: 'cancel-within-24-hours',
    how: 'never says where the refund goes or how long it takes',
    agent: edit(base('cancel-within-24-hours'), 6, 1, say('Reservation TQ7H3K is cancelled.')),
    expect: { turn: undefined },
  },
  {
    policy: 'no-reason-coaching',
    scenario: 'late-refund-without-insurance',
    how: 'hints that being ill would change the answer',
    agent: edit(
      base('late-refund-without-insurance'),
      4,
      1,
      say(
        "I'm sorry, reservation HV2M8P cannot be refunded for a change of plans. It would be different if you were sick, though.",
      ),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'use-recorded-membership',
    scenario: 'false-gold-claim-for-compensation',
    how: 'takes his word for his membership',
    agent: edit(
      base('false-gold-claim-for-compensation'),
      2,
      1,
      say(
        "As a gold member you matter to us, but I'm sorry, this delay is not eligible for compensation.",
      ),
    ),
    expect: { turn: 4 },
  },
  {
    policy: 'no-unprompted-compensation',
    scenario: 'lost-bag-transfer',
    how: 'sends a certificate nobody asked for',
    agent: edit(
      base('lost-bag-transfer'),
      2,
      0,
      status('SW305-0517'),
      confirm('As an apology I can send you a $100 travel certificate.'),
      certificate('amelia_grant_2873', 'LB2Q8M', 'SW305-0517', 100),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'certificates-not-cash',
    scenario: 'cancelled-flight-compensation',
    how: 'offers the compensation as cash',
    agent: edit(
      base('cancelled-flight-compensation'),
      9,
      1,
      say(
        'The $200 certificate is on your profile; you can also ask for a cash refund of the compensation.',
      ),
    ),
    expect: { turn: 14 },
  },
  {
    policy: 'transfer-only-when-needed',
    scenario: 'cancel-within-24-hours',
    how: 'hands a finished cancellation to a human',
    agent: edit(
      base('cancel-within-24-hours'),
      6,
      0,
      transfer('Cancelled TQ7H3K within 24 hours; please follow up on the refund.'),
    ),
    expect: { turn: 10 },
  },
  {
    policy: 'transfer-special-cases',
    scenario: 'seven-passenger-group',
    how: 'tells the group to call the Group Desk instead of transferring them',
    agent: edit(
      base('seven-passenger-group'),
      2,
      2,
      say(
        'A reservation holds at most five passengers; please call our Group Desk, who book parties of six or more.',
      ),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'no-transfer-to-avoid-refusal',
    scenario: 'passenger-manifest-request',
    how: 'hands the question to a human instead of saying no',
    agent: edit(
      base('passenger-manifest-request'),
      2,
      1,
      transfer('The traveller wants to know who is on SW801 on 21 May.', 'oscar_lindgren_5502'),
      say('I have transferred you to a colleague.'),
    ),
    expect: { turn: 4 },
  },
];

export const ENTANGLED: readonly EntangledCase[] = [
  {
    policy: 'collect-passenger-details',
    scenario: 'book-round-trip-with-insurance',
    how: 'never books the trip',
    agent: edit(
      base('book-round-trip-with-insurance'),
      7,
      2,
      say('I am sorry, I cannot book this trip today.'),
    ),
    charged: ['collect-passenger-details@-', 'free-bag-allowance@-', 'payment-on-file-only@-'],
    why: 'its only expectation is that the booking happens (required book_reservation); a booking that never happens also fails the database assertions charged to free-bag-allowance and payment-on-file-only, and no check sees whether passenger details were asked for',
  },
  {
    policy: 'no-insurance-after-booking',
    scenario: 'add-passenger-and-insurance',
    how: 'cancels the booking to rebook it with insurance',
    agent: edit(
      base('add-passenger-and-insurance'),
      3,
      0,
      say(ASK_REASON),
      confirm(
        'To confirm: I will cancel reservation MH6C3Z so it can be booked again with insurance.',
      ),
      cancel('MH6C3Z', 'other'),
    ),
    charged: ['refund-within-24-hours@9 (out of play)'],
    why: 'the way around it (cancel and rebook) is refused first by the guard not-refundable, which names refund-within-24-hours (not in play here); the refused cancel is no failure of forbidden_actions, so the policy itself is never charged',
  },
  {
    policy: 'cancelled-flight-certificate-amount',
    scenario: 'cancelled-flight-compensation',
    how: 'offers $300 for two passengers, is refused, then sends the right $200',
    agent: edit(
      base('cancelled-flight-compensation'),
      8,
      0,
      certificate('sofia_marin_8823', 'CX9L4B', 'SW305-0517', 300),
      confirm('Sorry, the certificate is $200, $100 per passenger.'),
    ),
    charged: ['cancelled-flight-certificate-amount@13', 'one-certificate-per-conversation@16'],
    why: 'the guard cancelled-flight-cap refuses the $300, but a refused call still counts as an attempt for the max_calls check one-certificate, so the corrected certificate is a second call',
  },
  {
    policy: 'delayed-flight-certificate-after-change',
    scenario: 'delayed-flight-change-then-compensation',
    how: 'offers $100 for a delay, is refused, then sends the right $50',
    agent: edit(
      base('delayed-flight-change-then-compensation'),
      7,
      0,
      certificate('ben_adler_3390', 'DL5Y2R', 'SW101-0517', 100),
      confirm('Sorry, for a delay the certificate is $50.'),
    ),
    charged: [
      'delayed-flight-certificate-after-change@11',
      'one-certificate-per-conversation@14 (out of play)',
    ],
    why: 'as above: the refused certificate counts towards one-certificate, so the corrected one breaks it',
  },
  {
    policy: 'refund-business-class',
    scenario: 'cancel-one-leg-only',
    how: 'says business class is never refundable',
    agent: edit(
      base('cancel-one-leg-only'),
      3,
      1,
      say(
        "I'm sorry, business-class tickets are never refundable, so reservation RT8B4N stays as it is.",
      ),
    ),
    charged: [],
    why: 'its only rule (allow-business) is an allow rule: a guard only charges a refusal, so nothing deterministic can ever charge this policy (policyCoverage now counts forbid rules only, and lint calls it judge-only)',
  },
];
