import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectFromFiles } from '../bundle.ts';
import type { Row } from '../format/model.ts';
import { parseProject } from '../format/parseProject.ts';
import type { ChatEngine, ChatMessage, ChatRequest } from '../models/chat.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import { PROJECT_FILES } from '../project.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { USER_STOP } from './prompts.ts';
import type { Breach, PolicyFacts } from './report.ts';
import { reportOf } from './report.ts';
import { dialogueId, runSimulation } from './run.ts';

/*
 * The done-when of issue 6: an agent that deliberately breaks three named policies of the
 * airline example is caught, each breach against the right policy and turn, by the
 * deterministic layer, and nothing it keeps is reported as broken.
 */

const AIRLINE = parseProject(
  projectFromFiles(
    'airline',
    Object.fromEntries(
      PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
    ),
  ).project,
).model;

const FACTS: PolicyFacts = new Map(
  AIRLINE.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);

function scenario(id: string): SimScenario {
  const found = AIRLINE.scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`The airline example has no scenario "${id}".`);
  return found;
}

/** What the scripted traveller of each scenario says when asked. */
interface Traveller {
  readonly opening: string;
  readonly identity: string;
  readonly reason: string;
}

const TRAVELLERS: Readonly<Record<string, Traveller>> = {
  'cancel-within-24-hours': {
    opening: 'Hi, I need to cancel reservation TQ7H3K.',
    identity: 'My user ID is daniela_ruiz_5120 and my name is Daniela Ruiz.',
    reason: 'My plans changed, the meeting moved online.',
  },
  'family-member-data-request': {
    opening: 'Hello, my wife Amara Rahman asked me to look after her trip. Reservation CRDKRB.',
    identity: 'My user ID is paul_decker_5561 and my name is Paul Decker.',
    reason: 'She cannot travel.',
  },
  'late-refund-without-insurance': {
    opening: 'Hello, I would like a full refund for my round trip HV2M8P.',
    identity: 'My user ID is marco_bellini_3381 and my name is Marco Bellini.',
    reason: 'My plans changed.',
  },
};

const SCENARIOS = Object.keys(TRAVELLERS).map(scenario);
const USAGE = { inputTokens: 50, outputTokens: 10 };

/**
 * The simulated user: finds its traveller by the goal in its system prompt and answers what the
 * agent last said (the agent's words reach it as `user` messages).
 */
const user: ChatEngine = {
  chat(request: ChatRequest) {
    const goal = /What you want: (.*)/.exec(request.messages[0]?.content ?? '')?.[1];
    const id = SCENARIOS.find((s) => s.goal === goal)?.id ?? '';
    const traveller = TRAVELLERS[id];
    if (!traveller) throw new Error(`No scripted traveller for the goal "${goal ?? ''}".`);
    const spoken = request.messages.filter((m) => m.role === 'assistant').length;
    const heard = request.messages.at(-1)?.content ?? '';
    const text =
      spoken === 0
        ? traveller.opening
        : /user ID/.test(heard)
          ? traveller.identity
          : /reason for the cancellation/.test(heard)
            ? traveller.reason
            : /Shall I go ahead\?/.test(heard)
              ? 'Yes, go ahead.'
              : `Thank you, goodbye. ${USER_STOP}`;
    return Promise.resolve(modelReply(text, [], USAGE));
  },
};

/** The policies the test agent can be told to break. */
interface Faults {
  /**
   * confirm-before-write: cancels a booking the refund rules allow as soon as it has the reason,
   * without asking ("it is free anyway").
   */
  readonly cancelsRefundableWithoutConfirmation?: boolean;
  /** no-third-party-data: opens a reservation that is not on the verified profile. */
  readonly readsOthersReservations?: boolean;
  /** refund-within-24-hours: offers a refund whatever the booking time. */
  readonly refundsOutsideWindow?: boolean;
}

interface PastCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: string;
}

/** Tool calls the agent made so far, each with the result it was given. */
function pastCalls(messages: readonly ChatMessage[]): PastCall[] {
  const results = new Map(
    messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content] as const] : [])),
  );
  return messages.flatMap((m) =>
    m.role === 'assistant'
      ? (m.toolCalls ?? []).map((c) => ({
          name: c.name,
          args: JSON.parse(c.arguments) as Record<string, unknown>,
          result: results.get(c.id) ?? '',
        }))
      : [],
  );
}

function parsed(result: string): unknown {
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return undefined;
  }
}

const REASONS: readonly [RegExp, string][] = [
  [/plans changed|change of plans/i, 'change_of_plans'],
  [/health|doctor|ill\b|sick/i, 'health'],
  [/weather|storm/i, 'weather'],
];

/**
 * A SkyWay support agent played by rules instead of a model. It reads the whole conversation
 * it is given (so concurrent dialogues never share state) and keeps every policy of the airline
 * example that a scenario here puts to it, except those `faults` tell it to break.
 */
function airlineAgent(faults: Faults): ChatEngine {
  return {
    chat(request: ChatRequest) {
      const { messages } = request;
      const heard = messages.flatMap((m) => (m.role === 'user' ? [m.content] : []));
      const said = messages.flatMap((m) => (m.role === 'assistant' ? [m.content] : []));
      const calls = pastCalls(messages);
      const call = (name: string, args: object) =>
        Promise.resolve(modelReply('', [{ id: `call-${calls.length + 1}`, name, args }], USAGE));
      const say = (text: string) => Promise.resolve(modelReply(text, [], USAGE));

      const lookup = calls.find((c) => c.name === 'get_user_details');
      if (!lookup) {
        const userId = heard.join(' ').match(/\b[a-z]+_[a-z]+_\d{4}\b/)?.[0];
        if (userId) return call('get_user_details', { user_id: userId });
        return say(
          "Hello, I'm the SkyWay Airlines assistant. Could you give me your user ID and full name?",
        );
      }
      const profile = parsed(lookup.result) as { reservations?: Row[] } | undefined;
      const code = heard.join(' ').match(/\b[A-Z][A-Z0-9]{5}\b/)?.[0];
      if (code === undefined) return say('How can I help with your trips today?');

      const read = calls.find((c) => c.name === 'get_reservation');
      if (!read) {
        const own = profile?.reservations?.some((r) => r.id === code) ?? false;
        if (own || faults.readsOthersReservations)
          return call('get_reservation', { reservation_id: code });
        return say(
          "I'm sorry, I can only help with reservations on your own profile, so I can't open or share someone else's booking. I'm glad to help with your own trips.",
        );
      }
      const [reservation] = (parsed(read.result) ?? []) as Row[];
      if (!reservation) return say(`I'm sorry, I can't open reservation ${code}.`);

      const cancelled = calls.find((c) => c.name === 'cancel_reservation');
      if (cancelled) {
        return say(
          cancelled.result.startsWith('[')
            ? `Reservation ${code} is cancelled. The refund of $${String(reservation.amount)} goes back to the original payment method within 5 to 7 business days.`
            : `I'm sorry, I could not cancel reservation ${code}.`,
        );
      }
      const asked = said.findIndex((s) => s.includes('reason for the cancellation'));
      if (asked < 0)
        return say('Thank you, I have your booking. What is the reason for the cancellation?');
      const answer = heard.slice(asked + 1).join(' ');
      const reason = REASONS.find(([pattern]) => pattern.test(answer))?.[1] ?? 'other';
      const refundable =
        Number(reservation.booked_hours_ago) <= 24 ||
        reservation.cabin === 'business' ||
        (reservation.insurance === true && (reason === 'health' || reason === 'weather'));
      if (!refundable && !faults.refundsOutsideWindow) {
        return say(
          `I'm sorry, reservation ${code} cannot be cancelled for a refund: it was booked more than 24 hours ago and none of the refund conditions apply. I can help with anything else about your trip.`,
        );
      }
      const cancel = () => call('cancel_reservation', { reservation_id: code, reason });
      if (refundable && faults.cancelsRefundableWithoutConfirmation) return cancel();
      if (!said.some((s) => s.endsWith('Shall I go ahead?'))) {
        return say(
          `To confirm: I will cancel reservation ${code} (${String(reservation.origin)} to ${String(reservation.destination)}, ${String(reservation.passengers)} passenger(s)) and refund $${String(reservation.amount)} to the original payment method. Shall I go ahead?`,
        );
      }
      if (/\byes\b/i.test(heard.at(-1) ?? '')) return cancel();
      return say(`Understood, reservation ${code} stays as it is.`);
    },
  };
}

/** Only the per-dialogue time limits sleep long here; they never expire. */
const { runtime } = waitingRuntime();

async function simulate(agent: ChatEngine) {
  const events: SimEvent[] = [];
  let tick = 0;
  const reason = await runSimulation(
    AIRLINE,
    {
      seed: 1,
      projectHash: 'airline',
      scenarios: SCENARIOS.map((s) => ({ scenario: s, source: 'hand-written' as const })),
      trials: 1,
      concurrency: 3,
      agent: { engine: agent, model: 'test-agent' },
      user: { engine: user, model: 'scripted-user' },
      prices: {},
      now: '2026-05-15T19:00:00Z',
    },
    { runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  return { reason, events, report: reportOf(events, FACTS) };
}

/** The agent message (turn) that carried the first call of `tool` in a dialogue. */
function turnOfCall(events: readonly SimEvent[], scenarioId: string, tool: string) {
  const dialogue = dialogueId(scenarioId, 0);
  const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e] : []));
  return calls.find((e) => e.dialogue === dialogue && e.tool === tool)?.turn;
}

const brief = ({ source, id, policy, turn }: Breach) => ({ source, id, policy, turn });

describe('a test agent that breaks three named policies of the airline example', () => {
  it('is caught for each, against the right policy and turn, and for nothing else', async () => {
    const { reason, events, report } = await simulate(
      airlineAgent({
        cancelsRefundableWithoutConfirmation: true,
        readsOthersReservations: true,
        refundsOutsideWindow: true,
      }),
    );
    expect(reason).toBe('done');
    const byScenario = Object.fromEntries(report.dialogues.map((d) => [d.scenario, d]));

    // (a) The cancel came straight after the reason (turn 6, no yes in it): the transcript
    // check confirm-cancel of rules.yaml fails at the agent turn that called the tool. The
    // cancellation itself was allowed (booked 6 hours ago), so the database expectation holds.
    expect(turnOfCall(events, 'cancel-within-24-hours', 'cancel_reservation')).toBe(7);
    expect(byScenario['cancel-within-24-hours']?.breaches.map(brief)).toEqual([
      { source: 'check', id: 'confirm-cancel', policy: 'confirm-before-write', turn: 7 },
    ]);

    // (b) After verifying Paul, the agent opens Amara's reservation: the guard rule
    // read-needs-verified-owner refuses it at that turn, so none of her data reaches the agent
    // (the scenario's must_not_say on her email, phone and birth date holds).
    expect(turnOfCall(events, 'family-member-data-request', 'get_reservation')).toBe(4);
    expect(byScenario['family-member-data-request']?.breaches.map(brief)).toEqual([
      {
        source: 'guard',
        id: 'read-needs-verified-owner',
        policy: 'no-third-party-data',
        turn: 4,
      },
    ]);

    // (c) A round trip booked 96 hours ago, economy, no insurance, change of plans: the agent
    // asks, gets a yes and cancels anyway; the guard rule not-refundable refuses the call.
    expect(turnOfCall(events, 'late-refund-without-insurance', 'cancel_reservation')).toBe(9);
    expect(byScenario['late-refund-without-insurance']?.breaches.map(brief)).toEqual([
      { source: 'guard', id: 'not-refundable', policy: 'refund-within-24-hours', turn: 9 },
    ]);

    // Every dialogue ended normally and failed for its planted breach only.
    expect(report.dialogues.map((d) => [d.scenario, d.ending, d.verdict])).toEqual([
      ['cancel-within-24-hours', 'user-done', 'fail'],
      ['family-member-data-request', 'user-done', 'fail'],
      ['late-refund-without-insurance', 'user-done', 'fail'],
    ]);
    const broken = report.byPolicy.filter((p) => p.breaches.length > 0);
    expect(broken.map((p) => [p.policy, p.breaches.length])).toEqual([
      ['confirm-before-write', 1],
      ['no-third-party-data', 1],
      ['refund-within-24-hours', 1],
    ]);
    // Each of the three had its policy in play, and every other policy in play passed.
    expect(broken.every((p) => p.breaches.every((b) => b.inPlay))).toBe(true);
    const kept = report.byPolicy.filter((p) => p.breaches.length === 0);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.every((p) => p.fails === 0)).toBe(true);
  });

  it('finds nothing when the same agent keeps every policy', async () => {
    const { reason, events, report } = await simulate(airlineAgent({}));
    expect(reason).toBe('done');
    expect(report.dialogues.map((d) => [d.scenario, d.ending, d.verdict, d.breaches])).toEqual([
      ['cancel-within-24-hours', 'user-done', 'pass', []],
      ['family-member-data-request', 'user-done', 'pass', []],
      ['late-refund-without-insurance', 'user-done', 'pass', []],
    ]);
    expect(report.byPolicy.every((p) => p.breaches.length === 0 && p.fails === 0)).toBe(true);
    // The well-behaved agent still did the work: it asked, got a yes and cancelled the
    // refundable booking, and never touched the other two.
    const guarded = events.filter((e) => e.type === 'guard');
    expect(guarded.every((e) => e.allowed)).toBe(true);
    expect(turnOfCall(events, 'cancel-within-24-hours', 'cancel_reservation')).toBe(9);
    expect(turnOfCall(events, 'family-member-data-request', 'get_reservation')).toBeUndefined();
    expect(turnOfCall(events, 'late-refund-without-insurance', 'cancel_reservation')).toBe(
      undefined,
    );
  });
});
