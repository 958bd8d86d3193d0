import { describe, expect, it } from 'vitest';
import type { ChatEngine, Usage } from '../models/chat.ts';
import type { UsageLedger } from '../models/usage.ts';
import { requestTokens } from '../models/usageCheck.ts';
import {
  REFUND_PLAN as PLAN,
  goalUser,
  mini,
  refundAgent,
  simulateRefunds as simulate,
} from '../../test/refundDesk.ts';
import { usageEvent } from './events.ts';
import { reportOf } from './report.ts';
import { reportMarkdown } from './reportText.ts';

/*
 * A run against providers that lie about money: no counts, negative counts, ten million tokens
 * for a short answer, and a model the price table does not know. No figure of the report is NaN
 * or negative, and the spend never passes the budget by more than one capped call per lane.
 */

/** The agent of the refund desk, its usage replaced by what `usage` says of each call. */
const lying = (usage: (maxTokens: number | undefined, input: number) => Usage): ChatEngine => ({
  chat: async (request, options) => ({
    ...(await refundAgent.chat(request, options)),
    usage: usage(request.maxTokens, requestTokens(request)),
  }),
});
const facts = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);
const PRICED = { inputPerMillion: 2, outputPerMillion: 8 };

function expectSane(ledger: Omit<UsageLedger, 'byRole'>) {
  for (const figure of [ledger.calls, ledger.inputTokens, ledger.outputTokens, ledger.cost ?? 0]) {
    expect(Number.isFinite(figure) && figure >= 0).toBe(true);
  }
}

describe('a run against a hostile provider', () => {
  it('never logs counts that cannot be true, even from an engine no check saw', () => {
    const event = usageEvent(
      {
        role: 'agent',
        model: 'm',
        usage: { inputTokens: NaN, outputTokens: -5 },
        start: 0,
        end: 1,
      },
      { m: PRICED },
    );
    expect(event).toMatchObject({ inputTokens: 0, outputTokens: 0, cost: 0 });
    expect(event.estimated).toMatch(/cannot be true/);
  });

  it.each<[string, Usage]>([
    ['no counts', { inputTokens: NaN, outputTokens: NaN }],
    ['negative counts', { inputTokens: -400_000, outputTokens: -99_990_000 }],
    ['ten million tokens', { inputTokens: 20, outputTokens: 10_000_000 }],
  ])('reporting %s: every figure is a true count, estimated and said so', async (_, usage) => {
    const { events } = await simulate({
      ...PLAN,
      agent: { engine: lying(() => usage), model: 'agent-model' },
      prices: { 'agent-model': PRICED, 'user-model': PRICED },
      budget: { dollars: 1 },
    });
    const report = reportOf(events, facts);
    expectSane(report.usage);
    expectSane(report.usage.byRole.agent ?? report.usage);
    expect(report.usage.byRole.agent?.estimated).toBe(report.usage.byRole.agent?.calls);
    expect(report.usage.cost).toBeGreaterThan(0);
    const text = reportMarkdown(report, 'Hostile');
    expect(text).not.toMatch(/NaN|\$-|-\d+ tokens/);
    const agentUsage = events.filter((e) => e.type === 'usage' && e.role === 'agent');
    expect(agentUsage.every((e) => e.type === 'usage' && e.estimated !== undefined)).toBe(true);
  });

  it('with four dialogues at once and a provider that spends every token allowed, stays within the budget and one capped call per lane', async () => {
    const lanes = 4;
    const budget = 0.1;
    let dearest = 0;
    const greedy: ChatEngine = {
      chat: async (request, options) => {
        const input = requestTokens(request);
        const output = request.maxTokens ?? 0;
        dearest = Math.max(dearest, (input * 2 + output * 8) / 1_000_000);
        return {
          ...(await refundAgent.chat(request, options)),
          usage: { inputTokens: input, outputTokens: output },
        };
      },
    };
    const { reason, events } = await simulate({
      ...PLAN,
      trials: 40,
      concurrency: lanes,
      agent: { engine: greedy, model: 'agent-model' },
      user: { engine: goalUser, model: 'user-model' },
      // Dear enough that the budget runs out after a few dialogues.
      prices: {
        'agent-model': { inputPerMillion: 200, outputPerMillion: 800 },
        'user-model': PRICED,
      },
      budget: { dollars: budget },
    });
    expect(reason).toBe('budget');
    const spent = reportOf(events, facts).usage.cost ?? Infinity;
    expect(spent).toBeGreaterThan(budget / 2);
    expect(spent).toBeLessThanOrEqual(budget + lanes * dearest);
    const caps = events.flatMap((e) =>
      e.type === 'usage' && e.role === 'agent' ? [e.outputTokens] : [],
    );
    expect(Math.max(...caps)).toBeLessThanOrEqual(600);
    expect(Math.min(...caps)).toBeLessThan(600);
  });

  it('does not blame the agent for an answer its budget cap cut short', async () => {
    // Below its own cap, the agent's tool call is cut mid-way, as a provider cuts an answer at
    // max_tokens: all of it used, and JSON that does not parse.
    const cut: ChatEngine = {
      chat: async (request, options) => {
        const answer = await refundAgent.chat(request, options);
        const capped = (request.maxTokens ?? 600) < 600;
        const calls = answer.message.toolCalls ?? [];
        return capped && calls.length > 0
          ? {
              ...answer,
              usage: { ...answer.usage, outputTokens: request.maxTokens ?? 0 },
              message: {
                ...answer.message,
                toolCalls: calls.map((c) => ({ ...c, arguments: '{"order' })),
              },
            }
          : answer;
      },
    };
    const { events } = await simulate({
      ...PLAN,
      trials: 20,
      concurrency: 2,
      agent: { engine: cut, model: 'agent-model' },
      prices: {
        'agent-model': { inputPerMillion: 200, outputPerMillion: 800 },
        'user-model': PRICED,
      },
      budget: { dollars: 0.05 },
    });
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings).toContain('budget');
    expect(endings).not.toContain('agent-error');
  });

  it('with a model the price table does not know, stops at the token budget', async () => {
    const { reason, events } = await simulate({
      ...PLAN,
      trials: 40,
      concurrency: 4,
      agent: {
        engine: lying((max, input) => ({ inputTokens: input, outputTokens: max ?? 0 })),
        model: 'openai/gpt-4.1',
      },
      prices: {},
      budget: { dollars: 1, tokens: 20_000 },
    });
    expect(reason).toBe('budget');
    const usage = reportOf(events, facts).usage;
    expect(usage.cost).toBeNull();
    expect(usage.unpriced).toContain('openai/gpt-4.1');
    expect(usage.inputTokens + usage.outputTokens).toBeLessThanOrEqual(20_000 + 4 * 2000);
  });
});
