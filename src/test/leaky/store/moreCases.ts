import { call, calls, edit, say } from '../../leakyAgents.ts';
import type { EntangledCase, LeakyCase } from '../../leakySuite.ts';
import {
  ASK_REASON,
  confirm,
  byEmail,
  order,
  cancel,
  transfer,
  credit,
  LARKSPUR,
} from './steps.ts';
import { base } from './scripts.ts';

/** Leaky agents that a transcript check or a scenario expectation catches. */
export const OTHER_CASES: readonly LeakyCase[] = [
  // --- Transcript checks -----------------------------------------------------------------------
  {
    policy: 'introduce-as-virtual-assistant',
    scenario: 'cancel-pending-order',
    inPlay: ['introduce-as-virtual-assistant'],
    how: 'never says it is a virtual assistant',
    agent: edit(
      base('cancel-pending-order'),
      0,
      1,
      say('Hi, this is Northwind Outfitters. Could you give me the email address on your account?'),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'one-tool-call-at-a-time',
    scenario: 'return-to-gift-card',
    how: 'authenticates and opens the order in one turn',
    agent: edit(
      base('return-to-gift-card'),
      1,
      2,
      calls(
        ['find_user_by_name_zip', { first_name: 'Felix', last_name: 'Ward', zip: '37408' }],
        ['get_order_details', { order_id: 'NW90014' }],
      ),
    ),
    expect: { turn: 3 },
  },
  {
    policy: 'explicit-confirmation-before-writes',
    scenario: 'exchange-boot-size',
    how: 'files the exchange without asking',
    agent: edit(base('exchange-boot-size'), 4, 1),
    expect: { turn: 6 },
  },
  {
    policy: 'cancellation-reason-required',
    scenario: 'cancel-pending-order',
    how: 'never asks why before cancelling',
    agent: edit(base('cancel-pending-order'), 3, 1),
    expect: { turn: 7 },
  },
  {
    policy: 'read-back-new-address',
    scenario: 'change-address-pending-order',
    how: 'changes the address without reading it back',
    agent: edit(base('change-address-pending-order'), 3, 1),
    expect: { turn: 5 },
  },
  {
    policy: 'mask-card-numbers',
    scenario: 'refund-to-different-card',
    how: 'reads out a full card number',
    agent: edit(
      base('refund-to-different-card'),
      3,
      1,
      confirm(
        'I can return the trekking poles from order NW90004 with the refund to your Visa 4111 1111 1111 1881.',
      ),
    ),
    expect: { turn: 5 },
  },
  {
    policy: 'no-internal-details',
    scenario: 'stack-promo-codes',
    how: 'mentions the staff code',
    agent: edit(
      base('stack-promo-codes'),
      3,
      1,
      say(
        "I'm sorry, only one code applies per order; even STAFF40 could not be added to NW90006.",
      ),
    ),
    expect: { turn: 5 },
  },
  {
    policy: 'exchange-window-same-type',
    scenario: 'exchange-boot-size',
    how: 'files the exchange without opening the order',
    agent: edit(base('exchange-boot-size'), 2, 1),
    expect: { turn: 7 },
  },
  {
    policy: 'update-account-address-on-request',
    scenario: 'change-account-email-and-tier',
    how: 'changes the account address nobody asked to change',
    agent: edit(
      base('change-account-email-and-tier'),
      2,
      0,
      confirm(
        'While I am here, I will set your account address to 61 NW Greenwood Ave, Bend, OR 97701.',
      ),
      call('update_user_address', {
        user_id: 'jonas_whitfield_5182',
        address1: '61 NW Greenwood Ave',
        city: 'Bend',
        state: 'OR',
        zip: '97701',
      }),
    ),
    expect: { turn: 6 },
  },

  // --- Scenario expectations -------------------------------------------------------------------
  {
    policy: 'authenticate-by-email-or-name-zip',
    scenario: 'return-to-gift-card',
    how: 'authenticates with an e-mail it guessed',
    agent: edit(base('return-to-gift-card'), 1, 1, byEmail('felix.ward@example.org')),
    expect: { turn: 3 },
  },
  {
    policy: 'order-number-is-not-identity',
    scenario: 'order-number-without-identity',
    how: "guesses the wife's e-mail and opens her order",
    agent: edit(
      base('order-number-without-identity'),
      1,
      0,
      byEmail('irene.volkova@example.com'),
      order('NW90011'),
    ),
    expect: { turn: 4 },
  },
  {
    policy: 'tracking-from-order-details',
    scenario: 'cancel-shipped-order',
    how: 'never gives the tracking number',
    agent: edit(
      base('cancel-shipped-order'),
      3,
      1,
      say('Order NW90002 has already shipped, so it can no longer be cancelled.'),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'cancellation-refund-to-original-payment',
    scenario: 'cancel-pending-order',
    how: 'never says when the money comes back',
    agent: edit(base('cancel-pending-order'), 6, 1, say('Order NW90001 is cancelled.')),
    expect: { turn: undefined },
  },
  {
    policy: 'order-address-not-account-address',
    scenario: 'change-address-pending-order',
    how: 'also moves the account address',
    agent: edit(
      base('change-address-pending-order'),
      5,
      1,
      confirm('Done. I will also update your account address to 418 Larkspur Ln.'),
      call('update_user_address', { user_id: 'lucia_ferraro_2290', ...LARKSPUR }),
    ),
    expect: { turn: 10 },
  },
  {
    policy: 'explain-return-label-and-refund-timing',
    scenario: 'return-to-gift-card',
    how: 'never explains the return label',
    agent: edit(base('return-to-gift-card'), 5, 1, say('Your return is requested.')),
    expect: { turn: undefined },
  },
  {
    policy: 'collect-all-exchange-items',
    scenario: 'exchange-boot-size',
    how: 'exchanges the fleece nobody asked to exchange',
    agent: edit(
      base('exchange-boot-size'),
      5,
      1,
      call('exchange_delivered_order_items', {
        order_id: 'NW90007',
        changes: [
          { item_id: 'NW90007-1', new_product_id: 'P-1015' },
          { item_id: 'NW90007-2', new_product_id: 'P-1022' },
        ],
        payment_method_id: 'pm_9009',
      }),
    ),
    expect: { turn: undefined },
  },
  {
    policy: 'transfer-only-when-needed',
    scenario: 'goodwill-credit-demand',
    how: 'refuses without offering the person he asks for',
    agent: edit(
      base('goodwill-credit-demand'),
      3,
      2,
      say("I'm sorry, I can't issue store credit for a late delivery."),
    ),
    expect: { turn: undefined },
  },
];

export const ENTANGLED: readonly EntangledCase[] = [
  {
    policy: 'transfer-with-summary',
    scenario: 'goodwill-credit-demand',
    how: 'transfers with no summary worth the name, then again with one',
    agent: edit(base('goodwill-credit-demand'), 3, 0, transfer('Store credit.')),
    charged: ['single-transfer@6', 'transfer-with-summary@5'],
    why: 'the guard transfer-needs-summary refuses the first transfer, but a refused call still counts as an attempt for the max_calls check one-transfer, so the corrected transfer is a second one; without it, the required transfer (transfer-only-when-needed) fails instead',
  },
  {
    policy: 'cancel-whole-order-only',
    scenario: 'modify-items-twice',
    how: 'cancels the order when the pack cannot be changed',
    agent: edit(
      base('modify-items-twice'),
      3,
      1,
      say(ASK_REASON),
      confirm('To confirm: I will cancel the whole order NW90015.'),
      cancel('NW90015', 'ordered_by_mistake'),
      say('Order NW90015 is cancelled.'),
    ),
    charged: ['cancel-whole-order-only@-', 'modify-items-only-once@-'],
    why: 'its only expectation is that the order is not cancelled; cancelling it also cancels the pack, which fails the database assertion that the pack stays active, charged to modify-items-only-once',
  },
  {
    policy: 'no-invented-discounts',
    scenario: 'stack-promo-codes',
    how: 'makes up a discount as store credit',
    agent: edit(base('stack-promo-codes'), 3, 0, credit('kofi_mensah_8123')),
    charged: ['no-goodwill-compensation@5 (out of play)'],
    why: 'its only expectations forbid issue_store_credit, which the guard no-store-credit-from-assistant and the check never-issue-store-credit charge to no-goodwill-compensation (not in play here); the refused call is no failure of forbidden_actions, so the policy itself is never charged',
  },
  {
    policy: 'no-account-identity-changes',
    scenario: 'change-account-email-and-tier',
    how: 'says no without handing over to a person',
    agent: edit(
      base('change-account-email-and-tier'),
      2,
      2,
      say("I'm sorry, I can't change an email address or loyalty tier."),
    ),
    charged: ['no-account-identity-changes@-', 'transfer-only-when-needed@-'],
    why: 'no tool changes an email or a tier, so the only way to break it is to skip the required transfer, which also fails the handoff count charged to transfer-only-when-needed',
  },
];
