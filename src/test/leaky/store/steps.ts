import { call, loadExample, say } from '../../leakyAgents.ts';

/* The steps and facts the store leaky-agent scripts are written with. */

export const { model: STORE, facts: FACTS } = loadExample('store');
export const SIGN_OFF = 'Thank you for shopping with Northwind. Goodbye.';
export const HELLO =
  "Hi, I'm the Northwind Outfitters virtual assistant. Could you give me the email address on your account?";
export const HELLO_NAME_ZIP =
  "Hi, I'm the Northwind Outfitters virtual assistant. Could you give me your email, or your name and ZIP code?";
export const YES: readonly [RegExp, string] = [/Shall I go ahead\?/, 'Yes, go ahead.'];
export const ASK_REASON =
  'Thank you. What is the reason for the cancellation: no longer needed, or ordered by mistake?';

export const confirm = (text: string) => say(`${text} Shall I go ahead?`);
export const byEmail = (email: string) => call('find_user_by_email', { email });
export const order = (id: string) => call('get_order_details', { order_id: id });
export const cancel = (id: string, reason: string) =>
  call('cancel_pending_order', { order_id: id, reason });
export const returnItems = (id: string, items: string[], payment: string) =>
  call('return_delivered_order_items', {
    order_id: id,
    item_ids: items,
    payment_method_id: payment,
  });
export const exchange = (id: string, item: string, product: string, payment: string) =>
  call('exchange_delivered_order_items', {
    order_id: id,
    changes: [{ item_id: item, new_product_id: product }],
    payment_method_id: payment,
  });
export const changeItem = (id: string, item: string, product: string, payment: string) =>
  call('modify_pending_order_items', {
    order_id: id,
    changes: [{ item_id: item, new_product_id: product }],
    payment_method_id: payment,
  });
export const promo = (code: string) => call('get_promo_code', { code });
export const applyPromo = (id: string, code: string) =>
  call('apply_promo_code', { order_id: id, code });
export const transfer = (summary: string) => call('transfer_to_human_agents', { summary });
export const credit = (userId: string) =>
  call('issue_store_credit', { user_id: userId, amount: 50, reason: 'Goodwill for the trouble.' });
export const LARKSPUR = {
  address1: '418 Larkspur Ln',
  address2: 'Apt 2',
  city: 'Fort Collins',
  state: 'CO',
  zip: '80524',
};
export const MARCUS_SUMMARY =
  'Marcus Lee wants $50 store credit for the late delivery of order NW90012.';
