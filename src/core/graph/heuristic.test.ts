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
    const start = performance.now();
    expect(heuristicEdges(many)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(500);
    // ... but what they share still adds to a pair that something rarer links.
    many[0] = p('p0', 'voucher expiry', ['lookup', 'refund'], ['orders']);
    many[1] = p('p1', 'voucher expiry', ['lookup', 'refund'], ['orders']);
    const [edge] = heuristicEdges(many);
    expect(edge?.reasons).toEqual([
      'tools lookup, refund',
      'table orders',
      'terms "voucher", "expiry"',
    ]);
  });

  it('never links pairs that share nothing, caps degrees, and is deterministic', () => {
    const vocabulary = ['refund', 'voucher', 'baggage', 'seat', 'upgrade', 'identity'];
    const policyArb = fc.record({
      text: fc.array(fc.constantFrom(...vocabulary, 'the', 'and', '42'), { maxLength: 6 }),
      tools: fc.uniqueArray(fc.constantFrom('t1', 't2', 't3', 't4'), { maxLength: 2 }),
      tables: fc.uniqueArray(fc.constantFrom('orders', 'users'), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(policyArb, { maxLength: 40 }), (raw) => {
        const policies = raw.map((r, i) => p(`p${i}`, r.text.join(' '), r.tools, r.tables));
        const edges = heuristicEdges(policies);
        expect(heuristicEdges(policies)).toEqual(edges);
        const degree = new Map<string, number>();
        for (const e of edges) {
          const a = raw[Number(e.source.slice(1))];
          const b = raw[Number(e.target.slice(1))];
          const shares =
            a !== undefined &&
            b !== undefined &&
            (a.tools.some((t) => b.tools.includes(t)) ||
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
