import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RelationRating } from './relate.ts';
import { relatePairKey } from './relate.ts';
import {
  RELATE_CACHE_MAX_CHARS,
  RELATE_CACHE_MAX_PAIRS,
  keptRelateCache,
  pairKeysOf,
  readRelateCache,
  writeRelateCache,
} from './relateCacheStore.ts';

const hex16 = fc.stringMatching(/^[0-9a-f]{16}$/);
const pairKey = fc.tuple(hex16, hex16).map(([x, y]) => (x < y ? `${x}|${y}` : `${y}|${x}`));
const rating = fc.record({
  weight: fc.integer({ min: 0, max: 10 }),
  reason: fc.string({ unit: 'binary', maxLength: 300 }),
});

/** The `i`-th made-up pair key. */
const keyOf = (i: number) => `${i.toString(16).padStart(16, '0')}|${'f'.repeat(16)}`;

describe('the kept relation ratings', () => {
  it('read back exactly what was written, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(pairKey, rating), { maxLength: 40 }), (entries) => {
        const cache = new Map<string, RelationRating>(entries);
        const back = readRelateCache(writeRelateCache(cache));
        expect([...back]).toEqual([...cache]);
      }),
    );
  });

  it('read a hostile or broken stored value as nothing, without throwing', () => {
    const hostile = [
      null,
      '',
      'null',
      '{',
      '[]',
      '"text"',
      JSON.stringify({ v: 2, pairs: [[keyOf(1), 5, 'a newer version']] }),
      '{"v":1,"pairs":{"length":3}}',
      '{"v":1}',
      '{"__proto__":{"v":1,"pairs":[]}}',
    ];
    for (const raw of hostile) expect(readRelateCache(raw).size).toBe(0);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (raw) => {
          expect(() => readRelateCache(raw)).not.toThrow();
        },
      ),
    );
  });

  it('keep the good entries of a stored value and leave out the bad ones', () => {
    const good = keyOf(1);
    const raw = JSON.stringify({
      v: 1,
      pairs: [
        [good, 7, 'often together'],
        ['not-a-key', 5, 'x'],
        [keyOf(2), 11, 'too heavy'],
        [keyOf(3), 3.5, 'not whole'],
        [keyOf(4), '4', 'a string'],
        [keyOf(5), 4, { toString: 1 }],
        [keyOf(6), 4],
        'junk',
        null,
        [keyOf(7), 0, 'never'],
      ],
    });
    expect([...readRelateCache(raw)]).toEqual([
      [good, { weight: 7, reason: 'often together' }],
      [keyOf(7), { weight: 0, reason: 'never' }],
    ]);
  });

  it('are bounded: the oldest go first, today’s pairs last', () => {
    const many = new Map<string, RelationRating>();
    for (let i = 0; i < RELATE_CACHE_MAX_PAIRS + 500; i++) {
      many.set(keyOf(i), { weight: i % 11, reason: 'r' });
    }
    const kept = keptRelateCache(new Map(), many, [keyOf(3)]);
    expect(kept.size).toBe(RELATE_CACHE_MAX_PAIRS);
    expect(kept.has(keyOf(3))).toBe(true);
    expect(kept.has(keyOf(4))).toBe(false);
    expect(kept.has(keyOf(RELATE_CACHE_MAX_PAIRS + 499))).toBe(true);
    expect(readRelateCache(writeRelateCache(kept)).size).toBe(RELATE_CACHE_MAX_PAIRS);
    // Long reasons: bounded by size as well.
    const wordy = new Map<string, RelationRating>();
    for (let i = 0; i < 10_000; i++) wordy.set(keyOf(i), { weight: 5, reason: 'w'.repeat(300) });
    const text = writeRelateCache(keptRelateCache(new Map(), wordy));
    expect(text.length).toBeLessThanOrEqual(RELATE_CACHE_MAX_CHARS);
    expect(readRelateCache(text).has(keyOf(9_999))).toBe(true);
    expect(readRelateCache(text).has(keyOf(0))).toBe(false);
  });

  it('merge what another tab kept, this page’s ratings winning', () => {
    const theirs = new Map([
      [keyOf(1), { weight: 1, reason: 'theirs' }],
      [keyOf(2), { weight: 2, reason: 'theirs' }],
    ]);
    const ours = new Map([[keyOf(2), { weight: 9, reason: 'ours' }]]);
    expect([...keptRelateCache(theirs, ours)]).toEqual([
      [keyOf(1), { weight: 1, reason: 'theirs' }],
      [keyOf(2), { weight: 9, reason: 'ours' }],
    ]);
  });

  it('name every pair of today’s policies by the key a rating is kept under', () => {
    const p = (id: string) => ({ id, text: id, category: 'c', tools: [] });
    const [a, b, c] = [p('a'), p('b'), p('c')];
    expect(pairKeysOf([a, b, c, a])).toEqual([
      relatePairKey(a, b),
      relatePairKey(a, c),
      relatePairKey(b, c),
    ]);
  });
});
