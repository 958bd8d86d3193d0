import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVELS, MAX_LEVEL, formatLevelBand, parseLevelBand } from './levels.ts';

describe('level bands', () => {
  it('reads a band, a single level and spaces', () => {
    expect(parseLevelBand('4-8')).toEqual({ band: { min: 4, max: 8 } });
    expect(parseLevelBand(' 6 ')).toEqual({ band: { min: 6, max: 6 } });
    expect(parseLevelBand('3 - 12')).toEqual({ band: { min: 3, max: 12 } });
    expect(formatLevelBand(DEFAULT_LEVELS)).toBe('4-8');
  });

  it('refuses empty, reversed, zero and oversized bands with one message', () => {
    for (const text of ['', '8-4', '0-3', 'four', '4-', `1-${MAX_LEVEL + 1}`, '-3']) {
      const read = parseLevelBand(text);
      expect(read, text).toHaveProperty('problem');
      if ('problem' in read) expect(read.problem).toContain(`not "${text}"`);
    }
  });

  it('reads back every band it writes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_LEVEL }),
        fc.integer({ min: 0, max: 50 }),
        (min, extra) => {
          const band = { min, max: Math.min(MAX_LEVEL, min + extra) };
          expect(parseLevelBand(formatLevelBand(band))).toEqual({ band });
        },
      ),
    );
  });
});
