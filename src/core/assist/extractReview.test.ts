import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidatePolicy } from '../extract.ts';
import type { Policy } from '../format/model.ts';
import type { ModelCandidate } from './extractByModel.ts';
import { sameRule } from './extractByModel.ts';
import { reviewProposals } from './extractReview.ts';

function proposal(id: string, text: string, line = 1): ModelCandidate {
  return {
    id,
    text,
    category: 'general',
    challenge: 2,
    tools: [],
    source: { line, endLine: line },
    sharesLine: false,
    flows: [],
    placed: 'exact',
  };
}

function rule(id: string, text: string, line = 1): CandidatePolicy {
  return {
    id,
    text,
    category: 'general',
    challenge: 2,
    tools: [],
    source: { line, endLine: line },
    sharesLine: false,
  };
}

function policy(id: string, text: string, line?: number): Policy {
  return {
    path: ['policies', 0],
    id,
    text,
    category: 'general',
    challenge: 2,
    tools: [],
    ...(line !== undefined && { source: { line } }),
  };
}

describe('reviewProposals', () => {
  it('names the rules-based candidate that states the same rule, and the ones no proposal states', () => {
    const review = reviewProposals(
      [
        proposal('verify-identity', 'Always verify the identity of the customer.', 3),
        proposal('no-shipped-changes', 'Never change an order that has shipped.', 7),
      ],
      [
        rule('verify-customer', 'You must verify the customer identity.', 3),
        rule('friendly', 'Answer in a friendly voice.', 9),
      ],
      [],
    );
    expect(review.proposals.map((p) => [p.candidate.id, p.ruleBased, p.existing])).toEqual([
      ['verify-identity', 'verify-customer', null],
      ['no-shipped-changes', null, null],
    ]);
    expect(review.missed.map((r) => r.id)).toEqual(['friendly']);
  });

  it('names the policy that already holds a proposal: same rule, or its source lines', () => {
    const review = reviewProposals(
      [
        proposal('a', 'Refund only within thirty days.', 12),
        proposal('b', 'Escalate threats to a supervisor.', 5),
        proposal('c', 'Offer a voucher after a delay.', 20),
      ],
      [],
      [
        policy('refund-window', 'Refund only within thirty days of purchase.'),
        policy('escalate', 'x', 5),
      ],
    );
    expect(review.proposals.map((p) => p.existing)).toEqual(['refund-window', 'escalate', null]);
  });

  it('splits the rules-based candidates into stated and missed, whatever the texts', () => {
    const text = fc.array(fc.constantFrom('verify', 'refund', 'order', 'days', 'never', 'the'), {
      minLength: 1,
      maxLength: 5,
    });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), fc.array(text, { maxLength: 5 }), (ps, rs) => {
        const proposals = ps.map((w, i) => proposal(`p${i}`, w.join(' ')));
        const rules = rs.map((w, i) => rule(`r${i}`, w.join(' ')));
        const review = reviewProposals(proposals, rules, []);
        const stated = new Set(review.proposals.flatMap((p) => p.ruleBased ?? []));
        for (const r of rules) {
          const matched = proposals.some((p) => sameRule(p.text, r.text));
          expect(review.missed.includes(r)).toBe(!matched);
          if (stated.has(r.id)) expect(matched).toBe(true);
        }
        expect(review.proposals.map((p) => p.candidate)).toEqual(proposals);
      }),
    );
  });
});
