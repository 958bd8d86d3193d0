import { createRng } from '../graph/random.ts';
import type { Finding, SimEvent, TerminationReason } from '../sim/events.ts';
import { BIG_LOG_POLICIES, logBuilder, pad, startingData } from './bigLogParts.ts';

/*
 * Big synthetic run logs in the current format, for benchmarks and for tests of what folds a
 * log (the report, replay, the dialogue list): one very long dialogue, and thousands of short
 * ones. Deterministic (a seeded generator and index arithmetic) and quick to build: 5,000
 * dialogues take tens of milliseconds.
 */

export { BIG_LOG_POLICIES } from './bigLogParts.ts';

/** What the long dialogue is known to hold, for tests and benchmarks to assert against. */
export const LONG_DIALOGUE = {
  dialogue: 'long-haul#1',
  scenario: 'long-haul',
  messages: 60,
  toolCalls: 30,
  startingRows: 400,
  /** Raw turns of the two calls a guard refuses. */
  refusedTurns: [21, 45],
  /** The failed findings, at their raw turns (a cancellation unasked, a card number said). */
  failedFindings: [
    { id: 'confirm-before-write', policy: 'confirm-before-write', turn: 7 },
    { id: 'no-card-numbers', policy: 'mask-payment-details', turn: 51 },
  ],
  ending: 'user-done' as TerminationReason,
} as const;

const LONG_POLICIES = [
  'verify-identity',
  'confirm-before-write',
  'refund-window',
  'mask-payment-details',
  'introduce-yourself',
];

/** The rule that refuses the call at a refused turn of the long dialogue. */
const LONG_REFUSALS: Readonly<Record<number, { rule: string; policy: string }>> = {
  21: { rule: 'refund-within-30-days', policy: 'refund-window' },
  45: { rule: 'verify-before-refund', policy: 'verify-identity' },
};

/** What the agent says at `turn` of the long dialogue, about order `id`. */
function longReply(turn: number, id: string): string {
  if (turn === 7) return `I have cancelled order ${id} for you right away.`;
  if (turn === 51) return `Your card 4111 1111 1111 1111 will be refunded for order ${id}.`;
  return `Let me check order ${id} in our system; one moment please.`;
}

/**
 * A run of one dialogue of 60 messages (user and agent alternating) in which every agent reply
 * makes one tool call (30: reads, writes that cancel an order, and two a guard refuses), over a
 * starting database of 400 rows in four tables, with checks that fail at two known turns, the
 * judge's opinion per policy (its evidence quoted from the messages) and its ending.
 * `LONG_DIALOGUE` says what it holds.
 */
export function longDialogueLog(): SimEvent[] {
  const log = logBuilder();
  const database = startingData({ customers: 100, products: 100, orders: 150, tickets: 50 });
  const orders = database.tables.find((t) => t.name === 'orders')?.rows ?? [];
  const { dialogue, scenario } = LONG_DIALOGUE;
  log.start(database, 1);
  log.scenario(scenario, LONG_POLICIES);
  log.add({ type: 'dialogue-started', dialogue, scenario, trial: 0 });
  for (let k = 0; k < LONG_DIALOGUE.toolCalls; k++) {
    const order = orders[k * 5] ?? {};
    const id = String(order.id);
    const turn = 2 * k + 1;
    log.message(dialogue, turn - 1, 'user', `Next, could you look at order ${id}? It is late.`);
    log.message(dialogue, turn, 'agent', longReply(turn, id));
    const refused = LONG_REFUSALS[turn];
    const write = k % 3 === 0;
    log.toolCall({
      dialogue,
      turn,
      call: `call-${k}`,
      tool: refused ? 'refund_order' : write ? 'update_order' : 'get_order',
      args: { order_id: id },
      ...(refused && { refused: { ...refused, fallback: 'message' } }),
      result: JSON.stringify(order),
      changes: write
        ? [
            {
              table: 'orders',
              key: id,
              kind: 'update',
              before: order,
              after: { ...order, status: 'cancelled' },
            },
          ]
        : [],
    });
  }
  const detail = 'The simulated user ended the conversation.';
  log.add({ type: 'dialogue-ended', dialogue, reason: LONG_DIALOGUE.ending, detail });
  const held: Finding = {
    id: 'introduces-itself',
    policy: 'introduce-yourself',
    passed: true,
    detail: 'Said.',
  };
  const failed = LONG_DIALOGUE.failedFindings.map((f): Finding => ({
    ...f,
    passed: false,
    detail: `${f.id} failed at turn ${f.turn}.`,
  }));
  log.add({ type: 'checks', dialogue, findings: [held, ...failed] });
  for (const policy of LONG_POLICIES) {
    const broke = policy === 'confirm-before-write';
    log.add({
      type: 'judge',
      dialogue,
      policy,
      violated: broke,
      ...(broke && { turn: 7 }),
      reason: broke ? 'It cancelled an order without asking first.' : 'Nothing breaks it.',
      evidence: broke ? 'I have cancelled order' : 'Let me check order',
    });
  }
  log.add({ type: 'run-ended', reason: 'done' });
  return log.events;
}

/** How the many-dialogue log spreads its dialogues, and a rare word to search for. */
export const MANY_DIALOGUES = {
  scenarios: 50,
  /** Said in the opening message of dialogue i exactly when i % 100 is 7. */
  word: 'lighthouse',
  /** How many of `count` dialogues say `word`. */
  withWord: (count: number): number => Math.floor((count + 92) / 100),
} as const;

/** Words the messages are made of, so a search has something to find. */
const WORDS =
  'refund baggage upgrade invoice voucher delay seat receipt passport meal window aisle transfer discount complaint address'.split(
    ' ',
  );
/** Endings drawn for the short dialogues: mostly the user finishing, every other kind too. */
const ENDINGS: readonly TerminationReason[] = [
  ...Array.from({ length: 6 }, () => 'user-done' as const),
  'guard-end',
  'max-turns',
  'agent-error',
  'provider-error',
  'time-limit',
  'user-error',
];
/** The drawn endings that make a dialogue an error, and whose call failed. */
const ERRORS: Readonly<Partial<Record<TerminationReason, 'agent' | 'user' | null>>> = {
  'provider-error': 'agent',
  'time-limit': null,
  'user-error': 'user',
};

/**
 * A run of `count` short dialogues (four messages, and a tool call in three of four) across 50
 * scenarios (1 to 3 of 12 policies each) and as many trials as it takes, with varied verdicts
 * (pass, fail, error, suspect), endings, guard refusals and judge opinions, and messages made of
 * searchable words (`MANY_DIALOGUES.word` in a known number of them). One seeded pass.
 */
export function manyDialoguesLog(count = 5000): SimEvent[] {
  const log = logBuilder();
  const rng = createRng(7);
  const word = () => WORDS[rng.int(WORDS.length)] ?? '';
  const policyIds = [...BIG_LOG_POLICIES.keys()];
  const scenarios = Math.max(1, Math.min(MANY_DIALOGUES.scenarios, count));
  log.start(startingData({ customers: 20, orders: 30 }), Math.ceil(count / scenarios));
  const playing = Array.from({ length: scenarios }, (_, s) =>
    [0, 3, 6].slice(0, 1 + (s % 3)).map((j) => policyIds[(s * 5 + j) % policyIds.length] ?? ''),
  );
  playing.forEach((policies, s) => {
    log.scenario(
      `scenario-${pad(s, 2)}`,
      policies,
      s % 4 === 0 ? 'generated' : 'hand-written',
      2 + (s % 9),
    );
  });
  for (let i = 0; i < count; i++) {
    const s = i % scenarios;
    const scenario = `scenario-${pad(s, 2)}`;
    const trial = Math.floor(i / scenarios);
    const dialogue = `${scenario}#${trial + 1}`;
    const policies = playing[s] ?? [];
    const reason = ENDINGS[rng.int(ENDINGS.length)] ?? 'user-done';
    const marked = i % 100 === 7 ? ` by the ${MANY_DIALOGUES.word}` : '';
    log.add({ type: 'dialogue-started', dialogue, scenario, trial });
    log.message(dialogue, 0, 'user', `I need help with my ${word()} and ${word()}${marked}.`);
    log.message(dialogue, 1, 'agent', `Let me look at your ${word()} now.`);
    if (i % 4 !== 3) {
      const refused = reason === 'guard-end' || rng.int(10) === 0;
      log.toolCall({
        dialogue,
        turn: 1,
        call: 'call-1-0',
        tool: refused ? 'refund_order' : 'get_order',
        args: { order_id: `O${pad(i % 30)}` },
        ...(refused && {
          refused: {
            rule: `guard-${policies[0] ?? ''}`,
            policy: policies[0] ?? '',
            fallback: reason === 'guard-end' ? 'end' : 'message',
          },
        }),
      });
    }
    log.message(dialogue, 2, 'user', `And the ${word()}?`);
    log.message(dialogue, 3, 'agent', `Your ${word()} is sorted.`);
    const role = ERRORS[reason] ?? (reason === 'agent-error' ? 'agent' : null);
    log.add({
      type: 'dialogue-ended',
      dialogue,
      reason,
      detail: `Ended: ${reason}.`,
      ...(role && { role }),
    });
    const findings = policies.map((policy, j): Finding => {
      const passed = rng.int(5) !== 0;
      return {
        id: `check-${j}`,
        policy,
        passed,
        ...(!passed && { turn: 3 }),
        detail: passed ? 'Held.' : 'Broken.',
      };
    });
    log.add({ type: 'checks', dialogue, findings });
    const error = reason in ERRORS;
    if (!error && i % 37 === 5)
      log.add({ type: 'suspect', dialogue, reasons: ['The simulated user left early.'] });
    if (error || i % 2 === 1) continue;
    for (const policy of policies) {
      const violated = rng.int(4) === 0;
      const opinion = violated
        ? { turn: 1, reason: 'Broken.', evidence: 'Let me look at your' }
        : { reason: 'Kept.', evidence: '' };
      log.add({ type: 'judge', dialogue, policy, violated, ...opinion });
    }
  }
  log.add({ type: 'run-ended', reason: 'done' });
  return log.events;
}
