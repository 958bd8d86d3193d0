import { describe, expect, it } from 'vitest';
import { costNote } from './cost.ts';

describe('costNote', () => {
  it('multiplies nested counts and ignores * and +', () => {
    // 20 × 20 copies: about 1,600 steps a character, past the budget at 1,875 characters.
    expect(costNote('(?:a{1,20}){1,20}')).toContain('repeats up to 400 times');
    expect(costNote('(?:a{1,20}){1,20}')).toContain('past about 1,875 characters');
    expect(costNote('(?:a+)*b')).toBeUndefined();
    expect(costNote('a{1,20}')).toBeUndefined();
  });

  it('takes the largest count of an alternation or a sequence, not their sum', () => {
    expect(costNote('a{1,100}|b{1,100}')).toBeUndefined();
    expect(costNote('x{1,160}y{1,10}')).toContain('repeats up to 160 times');
  });

  it('says nothing of a pattern it cannot read (check reports that on its own)', () => {
    expect(costNote('(a')).toBeUndefined();
  });
});
