import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { ModelError } from '../core/index.ts';
import type { Customer, Step } from './leakyAgents.ts';
import { call, say, scriptedUser } from './leakyAgents.ts';
import { modelReply } from './scriptedModels.ts';

/*
 * The scripted agent, customers and judge of the recorded airline run (airlineRun.ts): four
 * scenarios of public/examples/airline, each played so its outcome is known before it runs.
 */

/** What the agent does in place of an answer: its provider fails (an outside error). */
export const PROVIDER_DOWN = 'provider-down';

/** One answer of the scripted agent, or its provider failing at that point. */
type AgentStep = Step | typeof PROVIDER_DOWN;

/** A scenario as the recorded run plays it: its customer, and the agent's steps per attempt. */
interface Played {
  readonly customer: Customer;
  /** The agent's answers in the first trial, and in the second where they differ. */
  readonly attempts: readonly (readonly AgentStep[])[];
}

const YES: readonly [RegExp, string] = [/Shall I go ahead\?/, 'Yes, go ahead.'];
const HELLO = 'Hello, this is the SkyWay Airlines assistant. Let me look up your profile.';
const ASK_REASON = 'Thank you. What is the reason for the cancellation?';
const verify = (userId: string) => call('get_user_details', { user_id: userId }, HELLO);
const read = (code: string) => call('get_reservation', { reservation_id: code });
const cancel = (code: string, reason: string) =>
  call('cancel_reservation', { reservation_id: code, reason });
const confirm = (text: string) => say(`${text} Shall I go ahead?`);
const refunded = (code: string) =>
  say(
    `Reservation ${code} is cancelled. The refund goes back to the original payment method within 5 to 7 business days.`,
  );

/** The scripts by scenario id, in the order the run plays them. */
export const PLAYED: Readonly<Record<string, Played>> = {
  // Kept in both trials: verified, read, asked why, confirmed, cancelled within 24 hours.
  'cancel-within-24-hours': {
    customer: {
      opening:
        'Hi, I need to cancel reservation TQ7H3K. My user ID is daniela_ruiz_5120, I am Daniela Ruiz.',
      answers: [YES, [/reason/, 'My plans changed, the meeting moved online.']],
    },
    attempts: [
      [
        verify('daniela_ruiz_5120'), // 1
        read('TQ7H3K'), // 2
        say(ASK_REASON), // 3
        confirm(
          'To confirm: I will cancel reservation TQ7H3K (Boston to Chicago, 2 passengers) and refund $336 to the original payment method.',
        ), // 5
        cancel('TQ7H3K', 'change_of_plans'), // 7
        refunded('TQ7H3K'), // 8
      ],
    ],
  },
  // Trial 1 tries to cancel a booking made four days ago and the guard refuses it; trial 2
  // declines at once. They part at the agent's 4th reply.
  'late-refund-without-insurance': {
    customer: {
      opening:
        'Hello, I would like a full refund for my round trip HV2M8P. My user ID is marco_bellini_3381.',
      answers: [YES, [/reason/, 'My plans changed.']],
    },
    attempts: [
      [
        verify('marco_bellini_3381'), // 1
        read('HV2M8P'), // 2
        say(ASK_REASON), // 3
        confirm(
          'To confirm: I will cancel reservation HV2M8P and refund $324 to the original payment method.',
        ), // 5
        cancel('HV2M8P', 'change_of_plans'), // 7: refused by not-refundable
        say(
          "I'm sorry, I could not cancel reservation HV2M8P: it was booked more than 24 hours ago, so it cannot be refunded. Your trip stays as it is.",
        ), // 8
      ],
      [
        verify('marco_bellini_3381'), // 1
        read('HV2M8P'), // 2
        say(ASK_REASON), // 3
        say(
          "I'm sorry, reservation HV2M8P cannot be cancelled for a refund: it was booked more than 24 hours ago and none of the refund conditions apply. You can keep the trip as it is.",
        ), // 5
      ],
    ],
  },
  // Asked to cancel one leg, the agent cancels the whole business-class trip: the guard allows
  // it (business class is refundable), but the reservation should have stayed active.
  'cancel-one-leg-only': {
    customer: {
      opening:
        'Hi, I want to cancel only the return flight of my round trip RT8B4N and get that half refunded. My user ID is samir_qureshi_2604.',
      answers: [YES, [/reason/, 'I am staying longer in London.']],
    },
    attempts: [
      [
        verify('samir_qureshi_2604'), // 1
        read('RT8B4N'), // 2
        say(ASK_REASON), // 3
        confirm('To confirm: I will cancel reservation RT8B4N, both flights, and refund $2755.'), // 5
        cancel('RT8B4N', 'change_of_plans'), // 7
        refunded('RT8B4N'), // 8
      ],
    ],
  },
  // The agent's provider fails (503, after its retries) once the reason is given.
  'insured-cancel-for-health': {
    customer: {
      opening: 'Hello, I need to cancel my flight PW5R9D. My user ID is grace_whitfield_6604.',
      answers: [YES, [/reason/, 'My doctor told me not to fly, it is my health.']],
    },
    attempts: [
      [
        verify('grace_whitfield_6604'), // 1
        read('PW5R9D'), // 2
        say(ASK_REASON), // 3
        PROVIDER_DOWN, // 5: never written
      ],
    ],
  },
};

/** What the agent says once its script is spent. */
const SIGN_OFF = 'Thank you for flying SkyWay. Goodbye.';

/**
 * The scripted agent under test. It knows its scenario by the customer's opening words and
 * counts its attempts at each (a new attempt starts with a request holding no answer of its
 * own), so the run must play one dialogue at a time. Its n-th answer is the n-th step of that
 * attempt's script (the last script for later attempts); `PROVIDER_DOWN` fails as a 503 does.
 */
export function airlineAgent(): ChatEngine {
  const attempts = new Map<string, number>();
  return {
    chat(request: ChatRequest) {
      const opening = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const played = Object.values(PLAYED).find((p) => p.customer.opening === opening);
      if (!played) return Promise.reject(new Error(`No script opens with "${opening}".`));
      const n = request.messages.filter((m) => m.role === 'assistant').length;
      if (n === 0) attempts.set(opening, (attempts.get(opening) ?? 0) + 1);
      const attempt = (attempts.get(opening) ?? 1) - 1;
      const steps = played.attempts[Math.min(attempt, played.attempts.length - 1)] ?? [];
      const step = steps[n] ?? say(SIGN_OFF);
      if (step === PROVIDER_DOWN)
        return Promise.reject(
          new ModelError('server', 'The provider answered 503 Service Unavailable.', {
            status: 503,
          }),
        );
      const calls = (step.calls ?? []).map((c, i) => ({
        id: `call-${n}-${i}`,
        name: c.tool,
        args: c.args,
      }));
      return Promise.resolve(modelReply(step.say ?? '', calls));
    },
  };
}

/** Each scenario's goal, as the user simulator's brief states it. */
const GOALS: Readonly<Record<string, RegExp>> = {
  'cancel-within-24-hours': /Cancel reservation TQ7H3K/,
  'late-refund-without-insurance': /round trip HV2M8P/,
  'cancel-one-leg-only': /round trip RT8B4N/,
  'insured-cancel-for-health': /insured flight PW5R9D/,
};

/** The simulated user: each scenario's customer, known by the goal in its brief. */
export function airlineUser(): ChatEngine {
  const users = Object.entries(PLAYED).map(([id, p]) => ({ id, engine: scriptedUser(p.customer) }));
  return {
    chat(request: ChatRequest) {
      const brief = request.messages[0]?.content ?? '';
      const found = users.find((u) => GOALS[u.id]?.test(brief));
      if (!found) return Promise.reject(new Error('No customer for this brief.'));
      return found.engine.chat(request);
    },
  };
}

/** A refused call as the judge's transcript shows it: its turn and the call as written. */
const REFUSED_CANCEL =
  /\[(\d+)\] agent: \(no words\)\n {4}calls (cancel_reservation\(\{[^\n]*\}\))\n {4}guard: refused/;

/**
 * The judge: it sees the refused cancellation as a breach of the 24-hour refund window (its turn,
 * the call quoted), wrongly finds the whole-trip cancellation of cancel-one-leg-only kept (the
 * customer said yes), and finds every other policy kept.
 */
export const airlineJudge: ChatEngine = {
  chat(request: ChatRequest) {
    const prompt = request.messages[0]?.content ?? '';
    const policy = /The policy \(([^)]+)\)/.exec(prompt)?.[1] ?? '';
    const refused = REFUSED_CANCEL.exec(prompt);
    const verdict =
      policy === 'refund-within-24-hours' && refused
        ? {
            violated: true,
            turn: Number(refused[1]),
            reason:
              'It tried to cancel for a refund a booking made four days ago, without insurance.',
            evidence: refused[2],
          }
        : policy === 'whole-reservation-cancellation' && prompt.includes('RT8B4N, both flights')
          ? {
              violated: false,
              turn: null,
              reason:
                'The customer agreed to cancel both flights, so nothing was cancelled against his wish.',
              evidence: 'I will cancel reservation RT8B4N, both flights',
            }
          : {
              violated: false,
              turn: null,
              reason: 'Nothing in the conversation breaks it.',
              evidence: '',
            };
    return Promise.resolve(modelReply(JSON.stringify(verdict)));
  },
};
