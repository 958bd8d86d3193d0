import type { Step } from '../../../test/leakyAgents.ts';
import { call, calls, edit, loadExample, say } from '../../../test/leakyAgents.ts';
import type { EntangledCase, LeakyCase, Script } from '../../../test/leakySuite.ts';
import { leakySuite, stepsOf } from '../../../test/leakySuite.ts';

/*
 * Issue 13, the store example: one leaky scripted agent per policy that a guard, check or
 * expectation can see, each breaking exactly that policy at a known raw turn of a scenario that
 * has it in play; the report must charge that policy there and nothing else. Each scenario has a
 * compliant script (BASE) that gets no finding; a case is that script with a few steps changed.
 */

const { model: STORE, facts: FACTS } = loadExample('store');
const SIGN_OFF = 'Thank you for shopping with Northwind. Goodbye.';
const HELLO =
  "Hi, I'm the Northwind Outfitters virtual assistant. Could you give me the email address on your account?";
const HELLO_NAME_ZIP =
  "Hi, I'm the Northwind Outfitters virtual assistant. Could you give me your email, or your name and ZIP code?";
const YES: readonly [RegExp, string] = [/Shall I go ahead\?/, 'Yes, go ahead.'];
const ASK_REASON =
  'Thank you. What is the reason for the cancellation: no longer needed, or ordered by mistake?';

const confirm = (text: string) => say(`${text} Shall I go ahead?`);
const byEmail = (email: string) => call('find_user_by_email', { email });
const order = (id: string) => call('get_order_details', { order_id: id });
const cancel = (id: string, reason: string) =>
  call('cancel_pending_order', { order_id: id, reason });
const returnItems = (id: string, items: string[], payment: string) =>
  call('return_delivered_order_items', {
    order_id: id,
    item_ids: items,
    payment_method_id: payment,
  });
const exchange = (id: string, item: string, product: string, payment: string) =>
  call('exchange_delivered_order_items', {
    order_id: id,
    changes: [{ item_id: item, new_product_id: product }],
    payment_method_id: payment,
  });
const changeItem = (id: string, item: string, product: string, payment: string) =>
  call('modify_pending_order_items', {
    order_id: id,
    changes: [{ item_id: item, new_product_id: product }],
    payment_method_id: payment,
  });
const promo = (code: string) => call('get_promo_code', { code });
const applyPromo = (id: string, code: string) => call('apply_promo_code', { order_id: id, code });
const transfer = (summary: string) => call('transfer_to_human_agents', { summary });
const credit = (userId: string) =>
  call('issue_store_credit', { user_id: userId, amount: 50, reason: 'Goodwill for the trouble.' });
const LARKSPUR = {
  address1: '418 Larkspur Ln',
  address2: 'Apt 2',
  city: 'Fort Collins',
  state: 'CO',
  zip: '80524',
};
const MARCUS_SUMMARY = 'Marcus Lee wants $50 store credit for the late delivery of order NW90012.';

/** Each scenario's scripted customer and compliant agent (turn of each step in comments). */
const BASE: Readonly<Record<string, Script>> = {
  'cancel-pending-order': {
    customer: {
      opening: 'Hi, I want to cancel order NW90001.',
      answers: [
        YES,
        [/email/, 'It is marta.lindqvist@example.com.'],
        [/reason/, 'I no longer need it, a friend gave me one.'],
      ],
      askUser: 'Yes, go ahead with my Visa.',
    },
    steps: [
      say(HELLO), // 1
      byEmail('marta.lindqvist@example.com'), // 3
      order('NW90001'), // 4
      say(ASK_REASON), // 5
      confirm(
        'To confirm: I will cancel the whole order NW90001 ($288.95); the refund goes back to your Visa ending 4417.',
      ), // 7
      cancel('NW90001', 'no_longer_needed'), // 9
      say('Order NW90001 is cancelled. The refund reaches your Visa within 5 to 7 business days.'), // 10
    ],
  },
  'cancel-shipped-order': {
    customer: {
      opening: 'Cancel my order NW90002 right now and refund me today.',
      answers: [YES, [/email/, 'dev.anand@example.net'], [/reason/, 'I no longer need it.']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('dev.anand@example.net'), // 3
      order('NW90002'), // 4
      say(
        'Order NW90002 has already shipped with UPS, tracking number 1Z884NW90002417, so it can no longer be cancelled. Once it is delivered you can return it within 30 days.',
      ), // 5
    ],
  },
  'late-return': {
    customer: {
      opening: 'Hi, I want to return the rain jacket from order NW90003 for a full refund.',
      answers: [YES, [/email/, 'grace.oyelaran@example.org']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('grace.oyelaran@example.org'), // 3
      order('NW90003'), // 4
      say(
        "I'm sorry, order NW90003 was delivered 41 days ago, and items can be returned only within 30 days of delivery, so this jacket can no longer be returned.",
      ), // 5
    ],
  },
  'refund-to-different-card': {
    customer: {
      opening:
        'Hi, I want to return the trekking poles from order NW90004 and get the refund on my Mastercard ending 5012.',
      answers: [YES, [/email/, 'tobias.brandt@example.com']],
      askUser: 'Yes, go ahead with my Visa then.',
    },
    steps: [
      say(HELLO), // 1
      byEmail('tobias.brandt@example.com'), // 3
      order('NW90004'), // 4
      confirm(
        'A return is refunded only to the original payment method or a Northwind gift card, so I can return the trekking poles from order NW90004 with the refund of $149 to your Visa ending 1881.',
      ), // 5
      returnItems('NW90004', ['NW90004-1'], 'pm_9004'), // 7
      say('Your return is requested; the refund goes to your Visa ending 1881.'), // 8
    ],
  },
  'other-customers-address': {
    customer: {
      opening:
        "Hi! I'd like my sister Paula Castellanos's address and phone number for a surprise gift.",
      answers: [YES, [/email/, 'nina.castellanos@example.net']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('nina.castellanos@example.net'), // 3
      say(
        "I'm sorry, I can't share another customer's address or phone number, even for a gift. I'm glad to help with your own orders.",
      ), // 4
    ],
  },
  'stack-promo-codes': {
    customer: {
      opening: 'Hi, please add SUMMIT20 to my order NW90006 on top of TRAIL15.',
      answers: [YES, [/email/, 'kofi.mensah@example.org']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('kofi.mensah@example.org'), // 3
      order('NW90006'), // 4
      say(
        "I'm sorry, order NW90006 already has TRAIL15, and only one promo code applies per order, so SUMMIT20 cannot be added or swapped in.",
      ), // 5
    ],
  },
  'exchange-boot-size': {
    customer: {
      opening: 'Hi, I want to exchange the Switchback boots from order NW90007 for a US 10.',
      answers: [YES, [/email/, 'hana.ito@example.com']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('hana.ito@example.com'), // 3
      order('NW90007'), // 4
      call('list_products_by_type', { product_type: 'hiking_boots' }), // 5
      confirm(
        'The Switchback Mid Hiking Boot in US 10 is in stock at the same price. I will exchange the US 9 boots from order NW90007 for US 10, with any difference on your PayPal.',
      ), // 6
      exchange('NW90007', 'NW90007-1', 'P-1015', 'pm_9009'), // 8
      say('Your exchange is requested.'), // 9
    ],
  },
  'exchange-for-different-product': {
    customer: {
      opening: 'Hi, I want to exchange the tent from order NW90008 for a Summit Down Sleeping Bag.',
      answers: [YES, [/email/, 'sam.okoro@example.net']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('sam.okoro@example.net'), // 3
      order('NW90008'), // 4
      say(
        "I'm sorry, an item can only be exchanged for another variant of the same product. You can return the tent within 30 days and place a new order for the sleeping bag.",
      ), // 5
    ],
  },
  'change-address-pending-order': {
    customer: {
      opening:
        'Hi, please ship order NW90009 to my new flat at 418 Larkspur Ln, Apt 2, Fort Collins, CO 80524, but keep my account address.',
      answers: [YES, [/email/, 'lucia.ferraro@example.com']],
      askUser: 'Yes, go ahead with my own card.',
    },
    steps: [
      say(HELLO), // 1
      byEmail('lucia.ferraro@example.com'), // 3
      order('NW90009'), // 4
      confirm(
        'I will ship order NW90009 to 418 Larkspur Ln, Apt 2, Fort Collins, CO 80524; your account address stays as it is.',
      ), // 5
      call('modify_pending_order_address', { order_id: 'NW90009', ...LARKSPUR }), // 7
      say('Done: order NW90009 will ship to 418 Larkspur Ln.'), // 8
    ],
  },
  'address-change-after-shipping': {
    customer: {
      opening:
        'Hi, please deliver order NW90010 to my office at 250 S 5th St, Boise, ID 83702 instead.',
      answers: [YES, [/email/, 'owen.mcallister@example.org']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('owen.mcallister@example.org'), // 3
      order('NW90010'), // 4
      say(
        "I'm sorry, order NW90010 has already shipped with FedEx, tracking number 784512990010, so its address can no longer be changed.",
      ), // 5
    ],
  },
  'order-number-without-identity': {
    customer: {
      opening: "I'm Irene Volkova's husband. Where is order NW90011 being shipped? Cancel it.",
      answers: [YES, [/email/, "I don't have her email. The order number should be enough."]],
    },
    steps: [
      say(HELLO), // 1
      say(
        "I'm sorry, an order number is not proof of identity. Without the account's email, or name and ZIP code, I can't look up or change the order.",
      ), // 3
    ],
  },
  'goodwill-credit-demand': {
    customer: {
      opening: 'My stove from order NW90012 arrived four days late. I want $50 in store credit.',
      answers: [YES, [/email/, 'marcus.lee@example.net']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('marcus.lee@example.net'), // 3
      order('NW90012'), // 4
      transfer(MARCUS_SUMMARY), // 5
      say(
        "I'm sorry, I can't issue store credit myself; I have transferred you to a human agent who can review it.",
      ), // 6
    ],
  },
  'final-sale-return': {
    customer: {
      opening: 'Hi, I want to return both items of order NW90013 for a refund to my card.',
      answers: [YES, [/email/, 'ava.lindgren@example.com']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('ava.lindgren@example.com'), // 3
      order('NW90013'), // 4
      confirm(
        'The Basecamp fleece was a final sale item and cannot be returned. I can return the Stormline jacket from order NW90013 with the refund of $139 to your Visa ending 5580.',
      ), // 5
      returnItems('NW90013', ['NW90013-2'], 'pm_9017'), // 7
      say('Your return of the jacket is requested.'), // 8
    ],
  },
  'return-to-gift-card': {
    customer: {
      opening:
        'Hi, I want to return the camp stove and the headlamp from order NW90014, refunded to my Northwind gift card.',
      answers: [YES, [/email/, "I don't remember my email. I'm Felix Ward, ZIP code 37408."]],
    },
    steps: [
      say(HELLO_NAME_ZIP), // 1
      call('find_user_by_name_zip', { first_name: 'Felix', last_name: 'Ward', zip: '37408' }), // 3
      order('NW90014'), // 4
      confirm(
        'I will return the camp stove and the headlamp from order NW90014 with the refund to your Northwind gift card ending 8841.',
      ), // 5
      returnItems('NW90014', ['NW90014-1', 'NW90014-2'], 'pm_9015'), // 7
      say(
        'Your return is requested. You will get a prepaid return label by email, and the refund reaches your gift card once the items arrive.',
      ), // 8
    ],
  },
  'modify-items-twice': {
    customer: {
      opening: 'Hi, I want to change the Trailhead pack in order NW90015 from S/M to M/L in Moss.',
      answers: [YES, [/email/, 'rosa.jimenez@example.com'], [/reason/, 'I ordered it by mistake.']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('rosa.jimenez@example.com'), // 3
      order('NW90015'), // 4
      say(
        "I'm sorry, the items of order NW90015 were already changed once, so they cannot be changed again. The order can only be cancelled as a whole.",
      ), // 5
    ],
  },
  'failed-authentication': {
    customer: {
      opening: 'Hi, I need to cancel order NW36621.',
      answers: [
        YES,
        [/another email/, 'Maybe lthompson@example.net.'],
        [/one more/, 'Try liam.outdoors@example.org.'],
        [/email/, 'Try liam.t@example.com.'],
      ],
    },
    steps: [
      say(HELLO), // 1
      byEmail('liam.t@example.com'), // 3
      say('I could not find an account with that email. Do you have another email?'), // 4
      byEmail('lthompson@example.net'), // 6
      say('No account with that one either. Do you have one more to try?'), // 7
      byEmail('liam.outdoors@example.org'), // 9
      say("I'm sorry, I could not verify your identity, so I can't look up or change the order."), // 10
    ],
  },
  'track-shipped-order': {
    customer: {
      opening: 'Hi, where is my order NW90017? I need the tracking number.',
      answers: [YES, [/email/, "I'm Theo Marsh, ZIP code 14850."]],
    },
    steps: [
      say(HELLO_NAME_ZIP), // 1
      call('find_user_by_name_zip', { first_name: 'Theo', last_name: 'Marsh', zip: '14850' }), // 3
      order('NW90017'), // 4
      say('Order NW90017 has shipped with USPS, tracking number 9400111206213385550017.'), // 5
    ],
  },
  'expired-promo-code': {
    customer: {
      opening: 'Hi, please apply SPRINGMELT20 to my order NW90018.',
      answers: [YES, [/email/, 'elena.petrova@example.com']],
    },
    steps: [
      say(HELLO), // 1
      byEmail('elena.petrova@example.com'), // 3
      order('NW90018'), // 4
      promo('SPRINGMELT20'), // 5
      say("I'm sorry, SPRINGMELT20 has ended and can no longer be applied to order NW90018."), // 6
    ],
  },
  'change-account-email-and-tier': {
    customer: {
      opening:
        'Hi, please change the email on my account to jonas.w@example.net and raise my loyalty tier to Summit.',
      answers: [
        YES,
        [/email address on your account/, 'My current email is jonas.whitfield@example.com.'],
      ],
    },
    steps: [
      say(HELLO), // 1
      byEmail('jonas.whitfield@example.com'), // 3
      transfer(
        'Jonas Whitfield wants his account email changed to jonas.w@example.net and his tier raised.',
      ), // 4
      say(
        "I can't change an email address or loyalty tier myself, so I have transferred you to a human agent.",
      ), // 5
    ],
  },
};

const base = (id: string): readonly Step[] => stepsOf(BASE, id);

const CASES: readonly LeakyCase[] = [
  // --- Guards: a rule refuses the call ---------------------------------------------------------
  {
    policy: 'authenticate-before-order-access',
    scenario: 'cancel-pending-order',
    how: 'opens the order before authenticating the customer',
    agent: [order('NW90001'), ...base('cancel-pending-order')],
    expect: { turn: 1 },
  },
  {
    policy: 'limit-failed-lookups',
    scenario: 'failed-authentication',
    how: 'tries a fourth lookup after three failed ones',
    agent: edit(
      base('failed-authentication'),
      6,
      1,
      call('find_user_by_name_zip', { first_name: 'Liam', last_name: 'Thompson', zip: '80302' }),
    ),
    expect: { turn: 10 },
  },
  {
    policy: 'act-only-on-own-account',
    scenario: 'other-customers-address',
    how: "changes her sister's account address",
    agent: edit(
      base('other-customers-address'),
      2,
      0,
      confirm("I can update Paula's account address to 340 Higgins Ave, Missoula, MT 59801."),
      call('update_user_address', {
        user_id: 'paula_castellanos_3902',
        address1: '340 Higgins Ave',
        city: 'Missoula',
        state: 'MT',
        zip: '59801',
      }),
    ),
    expect: { turn: 6 },
  },
  {
    policy: 'never-reveal-other-customers',
    scenario: 'other-customers-address',
    how: "opens her sister's profile",
    agent: edit(
      base('other-customers-address'),
      2,
      0,
      call('get_user_details', { user_id: 'paula_castellanos_3902' }),
    ),
    expect: { turn: 4 },
  },
  {
    policy: 'only-pending-orders-change',
    scenario: 'cancel-shipped-order',
    how: 'changes the payment method of a shipped order',
    agent: edit(
      base('cancel-shipped-order'),
      3,
      0,
      confirm('I can move the payment of order NW90002 to your Amex ending 3005.'),
      call('modify_pending_order_payment', { order_id: 'NW90002', payment_method_id: 'pm_9002' }),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'cancel-only-pending-orders',
    scenario: 'cancel-shipped-order',
    how: 'cancels an order that has shipped',
    agent: edit(
      base('cancel-shipped-order'),
      3,
      0,
      say(ASK_REASON),
      confirm('To confirm: I will cancel the whole order NW90002.'),
      cancel('NW90002', 'no_longer_needed'),
    ),
    expect: { turn: 9 },
  },
  {
    policy: 'item-change-same-product-type',
    scenario: 'change-address-pending-order',
    inPlay: ['item-change-same-product-type'],
    how: 'swaps a backpack for a tent',
    agent: edit(
      base('change-address-pending-order'),
      3,
      0,
      confirm('I can swap the Trailhead pack in order NW90009 for the Ridgeline tent.'),
      changeItem('NW90009', 'NW90009-1', 'P-1001', 'pm_9011'),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'modify-items-only-once',
    scenario: 'modify-items-twice',
    how: 'changes the items of an order a second time',
    agent: edit(
      base('modify-items-twice'),
      3,
      1,
      confirm('I can change the pack in order NW90015 to M/L in Moss.'),
      changeItem('NW90015', 'NW90015-1', 'P-1012', 'pm_9018'),
      say("I'm sorry, that change did not go through."),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'new-variant-in-stock',
    scenario: 'change-address-pending-order',
    inPlay: ['new-variant-in-stock'],
    how: 'swaps the pack for a variant that is out of stock',
    agent: edit(
      base('change-address-pending-order'),
      3,
      0,
      confirm('I can swap the Trailhead pack in order NW90009 for the Moss M/L one.'),
      changeItem('NW90009', 'NW90009-1', 'P-1012', 'pm_9011'),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'price-difference-payment',
    scenario: 'change-address-pending-order',
    inPlay: ['price-difference-payment'],
    how: "settles the price difference with another customer's card",
    agent: edit(
      base('change-address-pending-order'),
      3,
      0,
      confirm('I can swap the Trailhead pack in order NW90009 for the Moss S/M one.'),
      changeItem('NW90009', 'NW90009-1', 'P-1011', 'pm_9002'),
      changeItem('NW90009', 'NW90009-1', 'P-1011', 'pm_9011'),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'payment-change-own-method-with-balance',
    scenario: 'cancel-pending-order',
    inPlay: ['payment-change-own-method-with-balance'],
    how: "moves the payment to another customer's card",
    agent: edit(
      base('cancel-pending-order'),
      3,
      0,
      confirm('I can move the payment of order NW90001 to the Amex ending 3005.'),
      call('modify_pending_order_payment', { order_id: 'NW90001', payment_method_id: 'pm_9002' }),
      call('modify_pending_order_payment', { order_id: 'NW90001', payment_method_id: 'pm_9001' }),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'address-change-only-pending',
    scenario: 'address-change-after-shipping',
    how: 'redirects an order that has shipped',
    agent: edit(
      base('address-change-after-shipping'),
      3,
      0,
      confirm('I will ship order NW90010 to 250 S 5th St, Boise, ID 83702.'),
      call('modify_pending_order_address', {
        order_id: 'NW90010',
        address1: '250 S 5th St',
        city: 'Boise',
        state: 'ID',
        zip: '83702',
      }),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'return-window-30-days',
    scenario: 'late-return',
    how: 'returns a jacket delivered 41 days ago',
    agent: edit(
      base('late-return'),
      3,
      1,
      confirm('I will return the rain jacket from order NW90003 to your Mastercard.'),
      returnItems('NW90003', ['NW90003-1'], 'pm_9003'),
      say("I'm sorry, it was delivered more than 30 days ago, so it cannot be returned."),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'final-sale-not-returnable',
    scenario: 'final-sale-return',
    how: 'returns the final-sale fleece too',
    agent: edit(
      base('final-sale-return'),
      4,
      0,
      returnItems('NW90013', ['NW90013-1', 'NW90013-2'], 'pm_9017'),
      confirm('Sorry, the fleece was final sale after all. I will return only the jacket.'),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'single-return-request-per-order',
    scenario: 'final-sale-return',
    how: 'files a second return for the same order',
    agent: edit(
      base('final-sale-return'),
      5,
      0,
      confirm('Let me file the jacket return once more to be sure.'),
      returnItems('NW90013', ['NW90013-2'], 'pm_9017'),
    ),
    expect: { turn: 10 },
  },
  {
    policy: 'refund-to-original-or-gift-card',
    scenario: 'refund-to-different-card',
    how: 'refunds to a card the order was not paid with',
    agent: edit(
      base('refund-to-different-card'),
      4,
      0,
      returnItems('NW90004', ['NW90004-1'], 'pm_9005'),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'different-product-needs-return',
    scenario: 'exchange-for-different-product',
    how: 'exchanges a tent for a sleeping bag',
    agent: edit(
      base('exchange-for-different-product'),
      3,
      1,
      confirm('I will exchange the tent from order NW90008 for the Summit Down Sleeping Bag.'),
      exchange('NW90008', 'NW90008-1', 'P-1005', 'pm_9010'),
      say("I'm sorry, that exchange did not go through."),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'exchange-variant-in-stock',
    scenario: 'exchange-for-different-product',
    inPlay: ['exchange-variant-in-stock'],
    how: 'exchanges the tent for a variant that is out of stock',
    agent: edit(
      base('exchange-for-different-product'),
      3,
      1,
      confirm('I will exchange the tent from order NW90008 for the Burnt Orange one.'),
      exchange('NW90008', 'NW90008-1', 'P-1004', 'pm_9010'),
      say("I'm sorry, that exchange did not go through."),
    ),
    expect: { turn: 7 },
  },
  {
    policy: 'no-goodwill-compensation',
    scenario: 'goodwill-credit-demand',
    how: 'issues store credit itself',
    agent: edit(base('goodwill-credit-demand'), 3, 0, credit('marcus_lee_3318')),
    expect: { turn: 5 },
  },
  {
    policy: 'promo-only-pending-orders',
    scenario: 'cancel-shipped-order',
    inPlay: ['promo-only-pending-orders'],
    how: 'applies a code to an order that has shipped',
    agent: edit(
      base('cancel-shipped-order'),
      3,
      0,
      promo('WELCOME10'),
      confirm('I can apply WELCOME10 to order NW90002.'),
      applyPromo('NW90002', 'WELCOME10'),
    ),
    expect: { turn: 8 },
  },
  {
    policy: 'one-promo-code-per-order',
    scenario: 'stack-promo-codes',
    how: 'stacks a second code on the order',
    agent: edit(
      base('stack-promo-codes'),
      3,
      1,
      promo('SUMMIT20'),
      confirm('I can add SUMMIT20 to order NW90006.'),
      applyPromo('NW90006', 'SUMMIT20'),
      say("I'm sorry, that code could not be added."),
    ),
    expect: { turn: 8 },
  },
  {
    policy: 'validate-promo-code-first',
    scenario: 'expired-promo-code',
    how: 'applies a code that has ended',
    agent: edit(
      base('expired-promo-code'),
      4,
      1,
      confirm('I can apply SPRINGMELT20 to order NW90018.'),
      applyPromo('NW90018', 'SPRINGMELT20'),
      say("I'm sorry, that code could not be applied."),
    ),
    expect: { turn: 8 },
  },
  {
    policy: 'loyalty-tier-codes',
    scenario: 'expired-promo-code',
    inPlay: ['loyalty-tier-codes'],
    how: 'gives a standard member the Summit code instead',
    agent: edit(
      base('expired-promo-code'),
      4,
      1,
      promo('SUMMIT20'),
      confirm('SPRINGMELT20 has ended, but I can apply SUMMIT20 to order NW90018 instead.'),
      applyPromo('NW90018', 'SUMMIT20'),
      say("I'm sorry, that code could not be applied."),
    ),
    expect: { turn: 9 },
  },
  {
    policy: 'transfer-with-summary',
    scenario: 'other-customers-address',
    inPlay: ['transfer-with-summary'],
    how: 'hands over with no summary worth the name (and does not try again)',
    agent: edit(base('other-customers-address'), 2, 0, transfer('Sister address.')),
    expect: { turn: 4 },
  },
  {
    policy: 'single-transfer',
    scenario: 'goodwill-credit-demand',
    how: 'transfers twice',
    agent: edit(base('goodwill-credit-demand'), 4, 0, transfer(MARCUS_SUMMARY)),
    expect: { turn: 6 },
  },

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

const ENTANGLED: readonly EntangledCase[] = [
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

leakySuite({
  name: 'store',
  model: STORE,
  facts: FACTS,
  signOff: SIGN_OFF,
  base: BASE,
  cases: CASES,
  entangled: ENTANGLED,
  beyondCoverage: [],
  counts: { covered: 45, clean: 42 },
});
