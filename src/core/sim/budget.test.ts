import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../models/chat.ts';
import type { PriceTable } from '../models/usage.ts';
import { requestTokens } from '../models/usageCheck.ts';
import type { BudgetGrant } from './budget.ts';
import { MIN_CALL_OUTPUT, createBudget } from './budget.ts';
import { usageEvent } from './events.ts';

const PRICES: PriceTable = { dear: { inputPerMillion: 2, outputPerMillion: 8 } };
const request = (chars: number, maxTokens = 600): Pick<ChatRequest, 'messages' | 'maxTokens'> => ({
  messages: [{ role: 'user', content: 'x'.repeat(chars) }],
  maxTokens,
});
const logged = (model: string, inputTokens: number, outputTokens: number) =>
  usageEvent(
    { role: 'agent', model, usage: { inputTokens, outputTokens }, start: 0, end: 1 },
    PRICES,
  );

describe('createBudget', () => {
  it('leaves a call its own cap while plenty is left', () => {
    const budget = createBudget({ dollars: 1 }, PRICES, 4);
    expect(budget.admit('dear', request(400)).maxTokens).toBe(600);
  });

  it('caps a call by its lane’s share of what is left, and holds it until logged', () => {
    // $0.01 over 4 lanes: $0.0025 each; 100 input tokens cost $0.0002; $0.000008 an output token.
    const budget = createBudget({ dollars: 0.01 }, PRICES, 4);
    const first = budget.admit('dear', request(400));
    expect(first.maxTokens).toBe(287);
    const second = budget.admit('dear', request(400));
    expect(second.maxTokens).toBeLessThan(first.maxTokens ?? 0);
    first.release();
    second.release();
    expect(budget.admit('dear', request(400)).maxTokens).toBe(first.maxTokens);
  });

  it('is spent once what is left cannot pay for the smallest call, and stays spent', () => {
    const budget = createBudget({ tokens: 1000 }, PRICES, 1);
    expect(budget.spent()).toBe(false);
    budget.record(logged('dear', 900, 80));
    expect(budget.spent()).toBe(true);
    expect(budget.spent()).toBe(true);
  });

  it('limits an unpriced model by tokens, never by a dollar figure it cannot know', () => {
    const budget = createBudget({ dollars: 0.01, tokens: 5000 }, PRICES, 1);
    const grant = budget.admit('openai/gpt-4.1', request(4000));
    expect(grant.maxTokens).toBe(600);
    grant.release();
    budget.record(logged('openai/gpt-4.1', 4000, 600));
    expect(budget.admit('openai/gpt-4.1', request(400)).maxTokens).toBe(400 - 100);
  });

  it('never lets the spend pass the budget by more than one capped call per lane', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.oneof(
          fc.record({ dollars: fc.double({ min: 1e-4, max: 0.05, noNaN: true }) }),
          fc.record({ tokens: fc.integer({ min: 100, max: 50_000 }) }),
        ),
        fc.array(fc.tuple(fc.nat(3000), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat()), {
          minLength: 1,
          maxLength: 200,
        }),
        (lanes, limits, calls) => {
          const budget = createBudget(limits, PRICES, lanes);
          const flying: { grant: BudgetGrant; input: number; share: number }[] = [];
          let spent = 0;
          let worst = 0;
          const land = (index: number) => {
            const [call] = flying.splice(index % flying.length, 1);
            if (!call) return;
            // The provider keeps to the cap, using any part of it.
            const output = Math.floor((call.grant.maxTokens ?? 0) * call.share);
            const event = logged('dear', call.input, output);
            spent += 'dollars' in limits ? (event.cost ?? 0) : call.input + output;
            budget.record(event);
            call.grant.release();
          };
          for (const [chars, share, pick] of calls) {
            if (budget.spent()) break;
            if (flying.length === lanes) land(pick);
            const asked = request(chars);
            const input = requestTokens(asked);
            const grant = budget.admit('dear', asked);
            expect(grant.maxTokens).toBeLessThanOrEqual(600);
            expect(grant.maxTokens).toBeGreaterThanOrEqual(MIN_CALL_OUTPUT);
            const capped = input + (grant.maxTokens ?? 0);
            worst = Math.max(
              worst,
              'dollars' in limits ? input * 2e-6 + (grant.maxTokens ?? 0) * 8e-6 : capped,
            );
            flying.push({ grant, input, share });
          }
          while (flying.length > 0) land(0);
          const limit = 'dollars' in limits ? limits.dollars : limits.tokens;
          expect(spent).toBeLessThanOrEqual(limit + lanes * worst + 1e-9);
          expect(Number.isFinite(spent) && spent >= 0).toBe(true);
        },
      ),
    );
  });
});
