import { call, loadExample, say } from '../../leakyAgents.ts';

/* The steps and facts the airline leaky-agent scripts are written with. */

export const { model: AIRLINE, facts: FACTS } = loadExample('airline');
export const SIGN_OFF = 'Thank you for flying SkyWay. Goodbye.';
export const HELLO =
  "Hello, I'm the SkyWay Airlines assistant. Could you give me your user ID and full name?";
export const YES: readonly [RegExp, string] = [/Shall I go ahead\?/, 'Yes, go ahead.'];

export const verify = (userId: string) => call('get_user_details', { user_id: userId });
export const read = (code: string) => call('get_reservation', { reservation_id: code });

export const confirm = (text: string) => say(`${text} Shall I go ahead?`);
export const ASK_REASON = 'Thank you. What is the reason for the cancellation?';
export const transfer = (summary: string, userId?: string) =>
  call(
    'transfer_to_human_agents',
    userId === undefined ? { summary } : { summary, user_id: userId },
  );
export const status = (flightId: string) => call('get_flight_status', { flight_id: flightId });
export const certificate = (userId: string, code: string, flightId: string, amount: number) =>
  call('send_certificate', { user_id: userId, reservation_id: code, flight_id: flightId, amount });
export const cancel = (code: string, reason: string) =>
  call('cancel_reservation', { reservation_id: code, reason });
export const REFUNDED = (code: string) =>
  say(
    `Reservation ${code} is cancelled. The refund goes back to the original payment method within 5 to 7 business days.`,
  );

/** Hannah's booking, as book-round-trip-with-insurance wants it. */
export const HANNAH_BOOKING = {
  user_id: 'hannah_lee_1187',
  flight_id: 'SW101-0521',
  return_flight_id: 'SW102-0528',
  cabin: 'economy',
  passengers: 2,
  total_baggages: 3,
  nonfree_baggages: 0,
  insurance: true,
  payment_id: 'credit_card_1196402',
};
export const book = (changes: object = {}) =>
  call('book_reservation', { ...HANNAH_BOOKING, ...changes });
export const HANNAH_PRICE =
  'I found SW101 on 21 May and SW102 on 28 May in economy. With travel insurance at $30 per passenger the total for two is $1110, and your three bags are free as a silver member. I will charge your saved Visa ending 7731.';
/** After a refused booking: the right one, asked again. */
export const REBOOK = [
  confirm(
    'I am sorry, that did not work. I will book SW101 and SW102 in economy for $1110 with insurance instead.',
  ),
  book(),
  say('Your round trip is booked: SW101 on 21 May and SW102 on 28 May.'),
];
export const helenBooking = (passengers: number) => [
  call('calculate', { a: 601, operator: '*', b: passengers }),
  confirm(
    `SW801 on 21 May in economy is $601 per passenger, $${601 * passengers} for ${passengers}. Travel insurance would be $30 per passenger; I have left it out as you asked.`,
  ),
  call('book_reservation', {
    user_id: 'helen_park_7012',
    flight_id: 'SW801-0521',
    cabin: 'economy',
    passengers,
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: false,
    payment_id: 'credit_card_9031187',
  }),
];
export const GROUP_DESK = 'Group of seven from JFK to London on 21 May; needs the Group Desk.';
export const LOST_BAG =
  'Missing checked bag after SW914 on reservation LB2Q8M; the traveller wants it traced.';
