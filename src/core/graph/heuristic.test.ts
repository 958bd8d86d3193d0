import { cpuMs } from '../../test/bounded.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HeuristicPolicy } from './heuristic.ts';
import { HEURISTIC, Pairs, heuristicEdges } from './heuristic.ts';

const p = (
  id: string,
  text = '',
  tools: string[] = [],
  tables: string[] = [],
): HeuristicPolicy => ({
  id,
  text,
  tools,
  tables,
});

const ids = (policies: HeuristicPolicy[], written?: (i: number, j: number) => boolean) =>
  heuristicEdges(policies, written)
    .map((e) => e.id)
    .sort();

describe('heuristicEdges', () => {
  it('links policies that share a tool, with the reason in words, and no others', () => {
    const edges = heuristicEdges([
      p('refund-window', 'Refunds within thirty days.', ['refund_order'], ['orders']),
      p('greeting', 'Greet the customer warmly.', ['get_user'], ['users']),
      p('refund-approval', 'A manager approves large payouts.', ['refund_order'], ['orders']),
    ]);
    expect(edges).toEqual([
      {
        id: 'refund-approval|refund-window',
        source: 'refund-approval',
        target: 'refund-window',
        weight: expect.any(Number) as number,
        origin: 'heuristic',
        reasons: ['tool refund_order', 'table orders'],
      },
    ]);
    expect(edges[0]?.weight).toBeGreaterThanOrEqual(HEURISTIC.minWeight);
  });

  it('counts rare words but not stop words, short words or numbers', () => {
    const words = ['voucher expiry', 'the of and to rule 12 ok', 'voucher expiry'];
    expect(ids(words.map((text, i) => p(`p${i}`, text)))).toEqual(['p0|p2']);
    expect(heuristicEdges(words.map((text, i) => p(`p${i}`, text)))[0]?.reasons).toEqual([
      'terms "voucher", "expiry"',
    ]);
    // One shared word is too little on its own.
    expect(ids([p('a', 'voucher'), p('b', 'voucher'), p('c', 'other')])).toEqual([]);
    expect(ids([p('a', 'the rule 12 of it'), p('b', 'the rule 12 of it')])).toEqual([]);
  });

  it('weighs a rarer shared tool more than a common one', () => {
    const policies = [
      p('a', '', ['rare']),
      p('b', '', ['rare']),
      ...['c', 'd', 'e', 'f', 'g'].map((id) => p(id, '', ['common'])),
      ...Array.from({ length: 20 }, (_, i) => p(`x${i}`)),
    ];
    const edges = heuristicEdges(policies);
    const weight = (id: string) => edges.find((e) => e.id === id)?.weight ?? 0;
    expect(weight('a|b')).toBeGreaterThan(weight('c|d'));
    expect(weight('c|d')).toBeGreaterThan(0);
  });

  it('leaves out pairs that already have a written relation', () => {
    const policies = [p('a', '', ['t']), p('b', '', ['t']), p('c', '', ['t'])];
    expect(ids(policies)).toEqual(['a|b', 'a|c', 'b|c']);
    expect(ids(policies, (i, j) => i === 0 && j === 2)).toEqual(['a|b', 'b|c']);
  });

  it('keeps each policy to its strongest neighbours', () => {
    // "hub" shares one tool with 10 policies, and a second tool with 3 of them.
    const policies = [
      p('hub', '', ['t', 'u']),
      ...Array.from({ length: 10 }, (_, i) => p(`n${i}`, '', i < 3 ? ['t', 'u'] : ['t'])),
      ...Array.from({ length: 30 }, (_, i) => p(`x${i}`)),
    ];
    const hub = heuristicEdges(policies).filter((e) => e.source === 'hub' || e.target === 'hub');
    expect(hub).toHaveLength(HEURISTIC.maxNeighbours);
    expect(hub.map((e) => e.id).slice(0, 3)).toEqual(['hub|n0', 'hub|n1', 'hub|n2']);
    expect(hub[0]?.reasons).toEqual(['tools t, u']);
  });

  it('does not pair policies through something nearly all of them share', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      p(`p${i}`, `policy number ${i}`, ['lookup'], ['orders']),
    );
    // Pairing 2,000 policies through the one table they share would be 2 million pairs.
    const { ms, value } = cpuMs(() => heuristicEdges(many));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(500);
    // ... nor adds anything to a pair that something rarer links, nor shows in its reasons.
    many[0] = p('p0', 'voucher expiry', ['lookup', 'refund'], ['orders']);
    many[1] = p('p1', 'voucher expiry', ['lookup', 'refund'], ['orders']);
    const [edge] = heuristicEdges(many);
    expect(edge?.reasons).toEqual(['tool refund', 'terms "voucher", "expiry"']);
    const alone = heuristicEdges([
      p('p0', 'voucher expiry', ['refund']),
      p('p1', 'voucher expiry', ['refund']),
      ...Array.from({ length: 1998 }, (_, i) => p(`x${i}`, `policy number ${i}`)),
    ]);
    expect(alone[0]?.weight).toBe(edge?.weight);
  });

  it('adds what a common tool shares when fewer than most policies have it', () => {
    // 60 of 100 policies share "lookup": too many to propose pairs, few enough to count.
    const policies = Array.from({ length: 100 }, (_, i) =>
      p(`p${i}`, `policy number ${i}`, i < 60 ? ['lookup'] : [], []),
    );
    policies[0] = p('p0', 'voucher expiry', ['lookup', 'refund']);
    policies[1] = p('p1', 'voucher expiry', ['lookup', 'refund']);
    expect(heuristicEdges(policies)[0]?.reasons).toEqual([
      'tools lookup, refund',
      'terms "voucher", "expiry"',
    ]);
  });

  it('links policies of one category, and weighs a shared category in', () => {
    const c = (id: string, category: string, tools: string[] = []): HeuristicPolicy => ({
      ...p(id, '', tools),
      category,
    });
    const policies = [
      c('bag-fee', 'baggage', ['bags']),
      c('bag-limit', 'baggage'),
      c('bag-tier', 'baggage', ['bags']),
      c('cancel-window', 'cancellation', ['bags']),
      c('cancel-reason', 'cancellation'),
      c('id-check', 'identity'),
      c('id-owner', 'identity'),
      c('tone', 'conduct'),
    ];
    const edges = heuristicEdges(policies);
    const weight = (id: string) => edges.find((e) => e.id === id)?.weight ?? 0;
    expect(edges.find((e) => e.id === 'bag-fee|bag-limit')?.reasons).toEqual(['category baggage']);
    expect(weight('bag-fee|bag-tier')).toBeGreaterThan(weight('bag-fee|cancel-window'));
    expect(weight('bag-fee|bag-tier')).toBeGreaterThan(weight('bag-fee|bag-limit'));
    expect(weight('cancel-reason|id-check')).toBe(0);
    // A category every policy has tells nothing.
    const one = policies.map((x) => ({ ...x, category: 'general' }));
    const none = policies.map(({ category: _, ...x }) => x);
    expect(heuristicEdges(one)).toEqual(heuristicEdges(none));
  });

  it('does not link through generic words or words spread over most categories', () => {
    const c = (id: string, category: string, text: string): HeuristicPolicy => ({
      ...p(id, text),
      category,
    });
    const policies = [
      c('a1', 'alpha', 'last voucher'),
      c('a2', 'beta', 'original itinerary booking'),
      c('b1', 'gamma', 'last voucher'),
      c('b2', 'delta', 'original itinerary'),
      c('c1', 'epsilon', 'booking luggage'),
      c('d1', 'zeta', 'booking luggage'),
      c('e1', 'eta', 'booking greeting'),
      c('f1', 'theta', 'booking seats'),
      ...Array.from({ length: 6 }, (_, i) => c(`x${i}`, ['alpha', 'beta'][i % 2] ?? '', 'tone')),
    ];
    const edges = heuristicEdges(policies);
    // "last" and "original" are generic; "booking" is in five of eight categories.
    expect(edges.map((e) => e.id).filter((id) => !id.includes('x'))).toEqual([]);
    // Each of them would make an edge with the one rarer word its pair shares.
    const plain = (from: string, to: string) =>
      policies.map((x) => ({ ...x, text: x.text.replace(from, to) }));
    for (const [from, to] of [
      ['last', 'refund'],
      ['original', 'refund'],
    ] as const) {
      expect(heuristicEdges(plain(from, to)).length, from).toBeGreaterThan(edges.length);
    }
    // Among fourteen categories, five are not most of them: "booking" links again.
    const wider = policies.map((x, i) => (i < 8 ? x : { ...x, category: `other${i}` }));
    expect(heuristicEdges(wider).map((e) => e.id)).toContain('c1|d1');
  });

  it('never links pairs that share nothing, caps degrees, and is deterministic', () => {
    const vocabulary = ['refund', 'voucher', 'baggage', 'seat', 'upgrade', 'identity'];
    const policyArb = fc.record({
      text: fc.array(fc.constantFrom(...vocabulary, 'the', 'and', '42'), { maxLength: 6 }),
      tools: fc.uniqueArray(fc.constantFrom('t1', 't2', 't3', 't4'), { maxLength: 2 }),
      tables: fc.uniqueArray(fc.constantFrom('orders', 'users'), { maxLength: 2 }),
      category: fc.option(fc.constantFrom('refunds', 'baggage', 'identity', 'tone', 'seats')),
    });
    fc.assert(
      fc.property(fc.array(policyArb, { maxLength: 40 }), (raw) => {
        const policies = raw.map((r, i) => ({
          ...p(`p${i}`, r.text.join(' '), r.tools, r.tables),
          ...(r.category !== null && { category: r.category }),
        }));
        const edges = heuristicEdges(policies);
        expect(heuristicEdges(policies)).toEqual(edges);
        const degree = new Map<string, number>();
        for (const e of edges) {
          const a = raw[Number(e.source.slice(1))];
          const b = raw[Number(e.target.slice(1))];
          const shares =
            a !== undefined &&
            b !== undefined &&
            ((a.category !== null && a.category === b.category) ||
              a.tools.some((t) => b.tools.includes(t)) ||
              a.tables.some((t) => b.tables.includes(t)) ||
              a.text.some((w) => vocabulary.includes(w) && b.text.includes(w)));
          expect(shares).toBe(true);
          expect(e.reasons.length).toBeGreaterThan(0);
          expect(Number.isInteger(e.weight)).toBe(true);
          expect(e.weight).toBeGreaterThanOrEqual(HEURISTIC.minWeight);
          expect(e.weight).toBeLessThanOrEqual(10);
          expect(e.source < e.target).toBe(true);
          for (const id of [e.source, e.target]) degree.set(id, (degree.get(id) ?? 0) + 1);
        }
        for (const d of degree.values()) expect(d).toBeLessThanOrEqual(HEURISTIC.maxNeighbours);
        expect(new Set(edges.map((e) => e.id)).size).toBe(edges.length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('Pairs', () => {
  it('keeps the strongest pairs offered, strongest first', () => {
    const pairArb = fc.tuple(fc.nat(50), fc.nat(50), fc.integer({ min: 0, max: 20 }));
    fc.assert(
      fc.property(
        fc.array(pairArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (offers, limit) => {
          const kept = new Pairs(limit);
          const all = new Pairs(offers.length);
          for (const [a, b, score] of offers) {
            kept.offer(a, b + 51, score);
            all.push(a, b + 51, score);
          }
          const order = [...Array(all.size).keys()].sort((x, y) =>
            all.before(x, y) ? -1 : all.before(y, x) ? 1 : 0,
          );
          const expected = order.slice(0, limit).map((k) => [all.a[k], all.b[k], all.score[k]]);
          const actual = [...Array(kept.size).keys()].map((k) => [
            kept.a[k],
            kept.b[k],
            kept.score[k],
          ]);
          expect(actual).toEqual(expected);
        },
      ),
    );
  });
});
