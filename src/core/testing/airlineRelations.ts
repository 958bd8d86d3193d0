/**
 * A reference graph for the relation heuristics and the relate planner: 35 policies of an
 * airline-like support agent (written for PolicyLab, not copied from any benchmark), each with a
 * category, tools and the tables those tools touch, and 82 pairs rated 0-10 by hand for how
 * likely the two policies meet in one conversation. The ratings stand in for a model's.
 */

/** A fixture policy: what the heuristic and the relate prompt read. */
export interface FixturePolicy {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  readonly tools: readonly string[];
  readonly tables: readonly string[];
}

/** A hand-rated pair: [policy, policy, weight 0-10]. */
export type RatedPair = readonly [string, string, number];

const TABLES: Readonly<Record<string, readonly string[]>> = {
  get_user_details: ['users'],
  get_reservation_details: ['reservations'],
  search_direct_flight: ['flights'],
  search_onestop_flight: ['flights'],
  book_reservation: ['reservations', 'users', 'flights'],
  cancel_reservation: ['reservations', 'users'],
  update_reservation_flights: ['reservations', 'users', 'flights'],
  update_reservation_baggages: ['reservations', 'users'],
  update_reservation_passengers: ['reservations'],
  send_certificate: ['users'],
  transfer_to_human_agents: [],
};

const policy = (id: string, category: string, text: string, tools: string[]): FixturePolicy => ({
  id,
  text,
  category,
  tools,
  tables: [...new Set(tools.flatMap((t) => TABLES[t] ?? []))],
});

/** The 35 policies, grouped by category. */
export const AIRLINE_POLICIES: readonly FixturePolicy[] = [
  policy(
    'book-collect-user-id',
    'booking',
    'Before booking, obtain the user id and look up the user profile.',
    ['get_user_details'],
  ),
  policy(
    'book-passenger-limit',
    'booking',
    'A reservation holds at most five passengers, each with first name, last name and date of birth.',
    ['book_reservation'],
  ),
  policy(
    'book-payment-methods',
    'booking',
    'Each booking may use at most one travel certificate, one credit card and three gift cards from the user profile.',
    ['book_reservation', 'get_user_details'],
  ),
  policy(
    'book-insurance-offer',
    'booking',
    'Offer travel insurance at thirty dollars per passenger; it allows a full refund when the trip is cancelled for health or weather reasons.',
    ['book_reservation'],
  ),
  policy(
    'book-same-cabin',
    'booking',
    'All passengers in a reservation fly in the same cabin class.',
    ['book_reservation', 'search_direct_flight'],
  ),
  policy(
    'book-search-flights',
    'booking',
    'Search direct or one-stop flights on the requested date before proposing an itinerary.',
    ['search_direct_flight', 'search_onestop_flight'],
  ),
  policy(
    'change-basic-economy',
    'changes',
    'Basic economy flights cannot be modified; only a cabin upgrade is allowed.',
    ['update_reservation_flights', 'get_reservation_details'],
  ),
  policy(
    'change-same-route',
    'changes',
    'A modified reservation keeps its origin, destination and trip type.',
    ['update_reservation_flights'],
  ),
  policy(
    'change-cabin-all-flights',
    'changes',
    'A cabin change applies to every flight of the reservation, never to one segment alone.',
    ['update_reservation_flights'],
  ),
  policy(
    'change-price-difference',
    'changes',
    'When a change costs more, charge the difference to a payment method on file; when it costs less, refund the difference to it.',
    ['update_reservation_flights', 'get_user_details'],
  ),
  policy(
    'change-passenger-count',
    'changes',
    'Passenger names may be changed, but the number of passengers may not.',
    ['update_reservation_passengers'],
  ),
  policy('change-flown-segments', 'changes', 'Segments already flown cannot be changed.', [
    'update_reservation_flights',
    'get_reservation_details',
  ]),
  policy(
    'cancel-eligibility',
    'cancellation',
    'Cancel only if the booking was made within the last 24 hours, the airline cancelled the flight, the cabin is business, or insurance covers the reason.',
    ['cancel_reservation', 'get_reservation_details'],
  ),
  policy(
    'cancel-flown',
    'cancellation',
    'A reservation with a segment already flown cannot be cancelled; transfer the user to a human agent instead.',
    ['cancel_reservation', 'transfer_to_human_agents'],
  ),
  policy(
    'cancel-refund-original',
    'cancellation',
    'Refunds for a cancellation go to the original payment methods within 5 to 7 business days.',
    ['cancel_reservation'],
  ),
  policy(
    'cancel-ask-reason',
    'cancellation',
    'Ask for the reason (change of plan, airline cancelled, other) before cancelling.',
    ['cancel_reservation'],
  ),
  policy(
    'cancel-whole-trip',
    'cancellation',
    'Only whole trips can be cancelled, never single segments.',
    ['cancel_reservation'],
  ),
  policy(
    'bag-allowance-tier',
    'baggage',
    'Free checked bags depend on membership tier and cabin: a gold member gets three in economy.',
    ['update_reservation_baggages', 'get_user_details'],
  ),
  policy('bag-extra-fee', 'baggage', 'Each extra checked bag costs fifty dollars.', [
    'update_reservation_baggages',
  ]),
  policy(
    'bag-no-removal',
    'baggage',
    'Checked bags can be added but never removed from a reservation.',
    ['update_reservation_baggages'],
  ),
  policy(
    'bag-basic-economy',
    'baggage',
    'Basic economy passengers get no free checked bag unless they are gold or silver members.',
    ['update_reservation_baggages', 'get_user_details'],
  ),
  policy(
    'bag-payment',
    'baggage',
    'Extra bags are paid with a card or gift card from the profile; a travel certificate cannot pay for bags.',
    ['update_reservation_baggages'],
  ),
  policy(
    'comp-eligibility',
    'compensation',
    'Offer a certificate only when the user complains and is a silver or gold member, has insurance, or flies business.',
    ['send_certificate', 'get_user_details'],
  ),
  policy(
    'comp-cancelled-flight',
    'compensation',
    'For a flight the airline cancelled, an eligible user gets a certificate of one hundred dollars per passenger.',
    ['send_certificate'],
  ),
  policy(
    'comp-delayed-flight',
    'compensation',
    'For a delayed flight, an eligible user gets fifty dollars per passenger after the reservation is changed or cancelled.',
    ['send_certificate', 'get_reservation_details'],
  ),
  policy(
    'comp-not-unasked',
    'compensation',
    'Never offer compensation unless the user asks for it.',
    ['send_certificate'],
  ),
  policy('id-verify-user', 'identity', 'Confirm the user id before any action on a reservation.', [
    'get_user_details',
  ]),
  policy(
    'id-owner-only',
    'identity',
    'Act only on reservations that belong to the authenticated user.',
    ['get_reservation_details', 'get_user_details'],
  ),
  policy(
    'id-no-third-party',
    'identity',
    'Refuse requests made on behalf of another person who is not on the reservation.',
    ['get_reservation_details'],
  ),
  policy(
    'id-one-user',
    'identity',
    'Help only one user per conversation; refuse to act for a second user.',
    ['get_user_details'],
  ),
  policy(
    'conduct-confirm-writes',
    'conduct',
    'Before any action that changes the database, list the details and obtain an explicit yes.',
    [
      'book_reservation',
      'cancel_reservation',
      'update_reservation_flights',
      'update_reservation_baggages',
    ],
  ),
  policy(
    'conduct-one-call',
    'conduct',
    'Make at most one tool call at a time, and do not reply to the user while calling a tool.',
    [],
  ),
  policy(
    'conduct-no-invention',
    'conduct',
    'Do not make up information or procedures the user or the tools did not give.',
    [],
  ),
  policy(
    'conduct-transfer',
    'conduct',
    'Transfer to a human agent only when the request is outside your scope, and tell the user first.',
    ['transfer_to_human_agents'],
  ),
  policy(
    'conduct-no-opinions',
    'conduct',
    'Do not give subjective recommendations or comments.',
    [],
  ),
];

/** The 82 hand-rated pairs: same-category ones, related ones across categories, unrelated ones. */
export const AIRLINE_RATINGS: readonly RatedPair[] = [
  ['book-collect-user-id', 'book-payment-methods', 6],
  ['book-passenger-limit', 'book-same-cabin', 7],
  ['book-payment-methods', 'book-insurance-offer', 6],
  ['book-passenger-limit', 'book-insurance-offer', 5],
  ['book-same-cabin', 'book-search-flights', 8],
  ['book-collect-user-id', 'book-search-flights', 5],
  ['book-passenger-limit', 'book-payment-methods', 6],
  ['change-basic-economy', 'change-cabin-all-flights', 7],
  ['change-same-route', 'change-cabin-all-flights', 6],
  ['change-basic-economy', 'change-flown-segments', 6],
  ['change-price-difference', 'change-same-route', 7],
  ['change-cabin-all-flights', 'change-price-difference', 8],
  ['change-passenger-count', 'change-same-route', 3],
  ['change-flown-segments', 'change-same-route', 6],
  ['cancel-eligibility', 'cancel-ask-reason', 9],
  ['cancel-eligibility', 'cancel-flown', 8],
  ['cancel-eligibility', 'cancel-refund-original', 7],
  ['cancel-refund-original', 'cancel-ask-reason', 6],
  ['cancel-whole-trip', 'cancel-eligibility', 6],
  ['cancel-flown', 'cancel-whole-trip', 7],
  ['bag-allowance-tier', 'bag-extra-fee', 9],
  ['bag-allowance-tier', 'bag-basic-economy', 9],
  ['bag-extra-fee', 'bag-payment', 9],
  ['bag-no-removal', 'bag-extra-fee', 6],
  ['bag-basic-economy', 'bag-extra-fee', 7],
  ['bag-allowance-tier', 'bag-no-removal', 5],
  ['comp-eligibility', 'comp-cancelled-flight', 9],
  ['comp-eligibility', 'comp-delayed-flight', 9],
  ['comp-eligibility', 'comp-not-unasked', 8],
  ['comp-cancelled-flight', 'comp-delayed-flight', 5],
  ['comp-not-unasked', 'comp-cancelled-flight', 6],
  ['id-verify-user', 'id-owner-only', 8],
  ['id-owner-only', 'id-no-third-party', 8],
  ['id-verify-user', 'id-one-user', 6],
  ['id-no-third-party', 'id-one-user', 6],
  ['conduct-confirm-writes', 'conduct-one-call', 4],
  ['conduct-no-invention', 'conduct-no-opinions', 5],
  ['conduct-transfer', 'conduct-one-call', 2],
  ['conduct-confirm-writes', 'conduct-no-invention', 3],
  ['cancel-eligibility', 'book-insurance-offer', 8],
  ['cancel-eligibility', 'comp-cancelled-flight', 7],
  ['cancel-refund-original', 'change-price-difference', 4],
  ['comp-delayed-flight', 'change-basic-economy', 5],
  ['comp-delayed-flight', 'cancel-eligibility', 6],
  ['book-payment-methods', 'bag-payment', 6],
  ['bag-payment', 'change-price-difference', 5],
  ['bag-allowance-tier', 'book-same-cabin', 3],
  ['bag-basic-economy', 'change-basic-economy', 4],
  ['book-insurance-offer', 'comp-eligibility', 4],
  ['id-verify-user', 'book-collect-user-id', 8],
  ['id-owner-only', 'cancel-eligibility', 5],
  ['id-owner-only', 'change-basic-economy', 4],
  ['conduct-confirm-writes', 'cancel-ask-reason', 6],
  ['conduct-confirm-writes', 'book-passenger-limit', 4],
  ['conduct-confirm-writes', 'bag-no-removal', 4],
  ['conduct-confirm-writes', 'change-price-difference', 5],
  ['cancel-flown', 'conduct-transfer', 7],
  ['change-flown-segments', 'cancel-flown', 5],
  ['conduct-transfer', 'comp-not-unasked', 2],
  ['id-no-third-party', 'cancel-ask-reason', 3],
  ['change-passenger-count', 'book-passenger-limit', 5],
  ['bag-allowance-tier', 'comp-eligibility', 5],
  ['comp-eligibility', 'bag-basic-economy', 4],
  ['book-search-flights', 'change-same-route', 5],
  ['change-cabin-all-flights', 'book-same-cabin', 7],
  ['conduct-no-invention', 'comp-not-unasked', 3],
  ['conduct-no-opinions', 'book-search-flights', 3],
  ['conduct-one-call', 'bag-basic-economy', 1],
  ['conduct-no-opinions', 'bag-no-removal', 0],
  ['book-passenger-limit', 'comp-not-unasked', 1],
  ['id-one-user', 'bag-extra-fee', 1],
  ['cancel-whole-trip', 'bag-allowance-tier', 1],
  ['change-passenger-count', 'comp-cancelled-flight', 1],
  ['conduct-no-opinions', 'id-no-third-party', 1],
  ['book-search-flights', 'bag-no-removal', 1],
  ['comp-not-unasked', 'change-flown-segments', 1],
  ['id-one-user', 'book-insurance-offer', 1],
  ['conduct-no-invention', 'change-passenger-count', 2],
  ['bag-no-removal', 'cancel-whole-trip', 2],
  ['cancel-refund-original', 'bag-extra-fee', 1],
  ['change-same-route', 'comp-eligibility', 1],
  ['book-collect-user-id', 'conduct-no-opinions', 1],
];
