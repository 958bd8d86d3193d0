import type { Row } from '../format/model.ts';
import type { RowChange, SimEvent, StartingData } from '../sim/events.ts';
import { LOG_VERSION, NOTHING_EXPECTED } from '../sim/events.ts';
import type { PolicyFacts } from '../sim/reportTypes.ts';
import type { Draft } from './reportLogs.ts';

/* The pieces bigLogs.ts builds its synthetic logs from. */

/** The policies the big logs name, with categories and challenges, for `reportOf`. */
export const BIG_LOG_POLICIES: PolicyFacts = new Map(
  (
    [
      ['verify-identity', 'identity', 2],
      ['confirm-before-write', 'consent', 2],
      ['refund-window', 'refunds', 3],
      ['refund-to-original-method', 'refunds', 2],
      ['mask-payment-details', 'privacy', 3],
      ['no-third-party-data', 'privacy', 4],
      ['one-change-at-a-time', 'process', 1],
      ['escalate-when-stuck', 'process', 3],
      ['no-unprompted-discounts', 'compensation', 3],
      ['cap-goodwill-credit', 'compensation', 4],
      ['introduce-yourself', 'tone', 1],
      ['no-blame', 'tone', 2],
    ] as const
  ).map(([id, category, challenge]) => [id, { category, challenge }]),
);

/** A whole number written with leading zeros: `pad(7)` is `007`. */
export const pad = (n: number, width = 3): string => String(n).padStart(width, '0');

/** Tokens, cost and time of every model call the big logs record. */
const TOKENS = { inputTokens: 120, outputTokens: 30, cost: 0.0002, ms: 40 };

/** A tool call as the big logs record it: refused by a rule, or run with these changes. */
export interface BigCall {
  readonly dialogue: string;
  readonly turn: number;
  readonly call: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly refused?: {
    readonly rule: string;
    readonly policy: string;
    readonly fallback: 'message' | 'end';
  };
  readonly result?: string;
  readonly changes?: readonly RowChange[];
}

/**
 * A log under construction: `add` stamps each event 10 ms after the one before; the others add
 * the usual groups of events (a run's start, a scenario, a message with its model call, a tool
 * call with the guard's decision and its result).
 */
export function logBuilder() {
  const events: SimEvent[] = [];
  const add = (draft: Draft) => {
    events.push({ ...draft, at: events.length * 10 });
  };
  return {
    events,
    add,
    start(database: StartingData, trials: number) {
      add({
        type: 'run-started',
        version: LOG_VERSION,
        seed: 1,
        projectHash: 'big-log',
        models: { agent: 'bench-agent', user: 'bench-user', judge: 'bench-judge' },
        trials,
        prompts: [],
        now: '2026-05-15T19:00:00Z',
        database,
      });
    },
    scenario(
      id: string,
      policies: readonly string[],
      source: 'hand-written' | 'generated' = 'hand-written',
      level?: number,
    ) {
      add({
        type: 'scenario',
        source,
        scenario: {
          id,
          policies,
          ...(level !== undefined && { level }),
          persona: `A customer of ${id}.`,
          goal: `Sort out the request of ${id}.`,
          knows: [],
          unknown: [],
          rows: {},
          expected: NOTHING_EXPECTED,
        },
      });
    },
    message(dialogue: string, turn: number, speaker: 'user' | 'agent', text: string) {
      add({ type: 'message', dialogue, turn, speaker, text });
      const role = speaker === 'agent' ? 'agent' : 'user';
      add({ type: 'usage', dialogue, role, model: `bench-${role}`, ...TOKENS });
    },
    toolCall(c: BigCall) {
      const { dialogue, call, refused } = c;
      add({ type: 'tool-call', dialogue, turn: c.turn, call, tool: c.tool, args: c.args });
      if (refused) {
        const reason = `${refused.rule} refused it.`;
        add({ type: 'guard', dialogue, call, allowed: false, ...refused, reason });
        add({ type: 'tool-result', dialogue, call, ok: false, result: reason, changes: [] });
        return;
      }
      add({ type: 'guard', dialogue, call, allowed: true, reason: 'No rule forbids it.' });
      const result = c.result ?? '{}';
      add({ type: 'tool-result', dialogue, call, ok: true, result, changes: c.changes ?? [] });
    },
  };
}

const ROW_MAKERS: Readonly<Record<string, (i: number) => Row>> = {
  customers: (i) => ({
    id: `C${pad(i)}`,
    name: `Customer ${i}`,
    tier: ['gold', 'silver', 'regular'][i % 3],
    email: `customer${i}@example.com`,
  }),
  products: (i) => ({ id: `P${pad(i)}`, title: `Product ${i}`, price: 10 + (i % 40) * 5 }),
  orders: (i) => ({
    id: `O${pad(i)}`,
    customer_id: `C${pad(i % 100)}`,
    product_id: `P${pad((i * 7) % 100)}`,
    status: ['delivered', 'shipped', 'pending'][i % 3],
    total: 20 + (i % 50) * 3,
  }),
  tickets: (i) => ({
    id: `T${pad(i)}`,
    customer_id: `C${pad((i * 3) % 100)}`,
    subject: `Ticket ${i}`,
    status: 'open',
  }),
};

/** A starting database with `sizes[table]` rows in each table (customers, products, orders, tickets), keyed by `id`. */
export function startingData(sizes: Readonly<Record<string, number>>): StartingData {
  return {
    tables: Object.entries(sizes).map(([name, size]) => ({
      name,
      key: 'id',
      rows: Array.from({ length: size }, (_, i) => ROW_MAKERS[name]?.(i) ?? { id: `${name}${i}` }),
    })),
  };
}
