import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { setRelations } from './edits.ts';

const FILE = `# Policies of the desk.
policies:
  - id: a # first
    text: A.
    category: c
    challenge: 1
  - id: b
    text: B.
    category: c
    challenge: 1
  - id: c
    text: C.
    category: c
    challenge: 1

relations:
  # Written by hand.
  - between: [a, b]
    weight: 2 # we know better
    origin: manual
  - between: [c, a]
    weight: 4
    origin: heuristic
  - { between: [b, c], weight: 1 }
# The end.
`;

interface Plain {
  relations: { between: string[]; weight: number; origin?: string }[];
}

const relationsOf = (text: string) => (parseDocument(text).toJS() as Plain).relations;

describe('setRelations', () => {
  it('writes model ratings, keeps hand-written ones and every comment', () => {
    const result = setRelations(FILE, [
      { a: 'a', b: 'b', weight: 9 },
      { a: 'a', b: 'c', weight: 7 },
      { a: 'b', b: 'c', weight: 8 },
    ]);
    if (!result.ok) return expect.fail(result.message);
    expect(result).toMatchObject({ written: 1, kept: 2, skipped: 0 });
    expect(relationsOf(result.text)).toEqual([
      { between: ['a', 'b'], weight: 2, origin: 'manual' },
      { between: ['c', 'a'], weight: 7, origin: 'model' },
      { between: ['b', 'c'], weight: 1 },
    ]);
    for (const comment of [
      '# Policies',
      '# first',
      '# Written by hand.',
      '# we know better',
      '# The end.',
    ]) {
      expect(result.text).toContain(comment);
    }
  });

  it('appends new pairs in the list’s style, leaves out new zeros, skips unknown policies', () => {
    const text = FILE.replace('  - { between: [b, c], weight: 1 }\n', '');
    const result = setRelations(text, [
      { a: 'b', b: 'c', weight: 6 },
      { a: 'a', b: 'c', weight: 0 },
      { a: 'a', b: 'ghost', weight: 5 },
      { a: 'a', b: 'a', weight: 5 },
      { a: 'c', b: 'b', weight: 3 },
    ]);
    if (!result.ok) return expect.fail(result.message);
    expect(result).toMatchObject({ written: 2, kept: 0, skipped: 3 });
    expect(relationsOf(result.text)).toEqual([
      { between: ['a', 'b'], weight: 2, origin: 'manual' },
      { between: ['c', 'a'], weight: 0, origin: 'model' },
      { between: ['b', 'c'], weight: 6, origin: 'model' },
    ]);
    expect(result.text.endsWith('# The end.\n')).toBe(true);
  });

  it('creates relations: when the file has none, and refuses a broken file', () => {
    const bare =
      'policies:\n  - { id: a, text: A., category: c, challenge: 1 }\n  - { id: b, text: B., category: c, challenge: 1 }\n';
    const result = setRelations(bare, [{ a: 'a', b: 'b', weight: 5 }]);
    if (!result.ok) return expect.fail(result.message);
    expect(relationsOf(result.text)).toEqual([{ between: ['a', 'b'], weight: 5, origin: 'model' }]);
    expect(setRelations('policies: [', [{ a: 'a', b: 'b', weight: 5 }]).ok).toBe(false);
    expect(setRelations(bare, [{ a: 'a', b: 'b', weight: 0 }])).toMatchObject({
      ok: true,
      text: bare,
      written: 0,
    });
  });

  it('rewrites the first relation of a pair written twice', () => {
    const twice = FILE.replace(
      '# The end.',
      '  - { between: [a, c], weight: 5, origin: manual }\n# The end.',
    );
    const result = setRelations(twice, [{ a: 'c', b: 'a', weight: 9 }]);
    if (!result.ok) return expect.fail(result.message);
    expect(relationsOf(result.text).map((r) => r.weight)).toEqual([2, 9, 1, 5]);
  });

  it('leaves every hand-written relation as it was, whatever is rated', () => {
    const ids = ['a', 'b', 'c'];
    const rating = fc.record({
      a: fc.constantFrom(...ids),
      b: fc.constantFrom(...ids),
      weight: fc.integer({ min: 0, max: 10 }),
    });
    fc.assert(
      fc.property(fc.array(rating, { maxLength: 12 }), (ratings) => {
        const result = setRelations(FILE, ratings);
        if (!result.ok) return expect.fail(result.message);
        const after = relationsOf(result.text);
        expect(after[0]).toEqual({ between: ['a', 'b'], weight: 2, origin: 'manual' });
        expect(after[2]).toEqual({ between: ['b', 'c'], weight: 1 });
        expect(result.text).toContain('# we know better');
        const first = ratings.find((r) => [r.a, r.b].sort().join() === 'a,c');
        expect(after[1]?.weight).toBe(first ? first.weight : 4);
      }),
      { numRuns: 100 },
    );
  });
});
