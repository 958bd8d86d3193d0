import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CELL_LIMIT, cellText, cellTitle } from './cellText.ts';

describe('a database value in a replay table cell', () => {
  it('shows text as written, scalars as JSON, and lists and objects as JSON text', () => {
    expect(cellText('<b>hi</b>')).toBe('<b>hi</b>');
    expect(cellText(null)).toBe('');
    expect(cellText(4.5)).toBe('4.5');
    expect(cellText(false)).toBe('false');
    expect(cellText({ city: 'Leeds', tags: ['a'] })).toBe('{"city":"Leeds","tags":["a"]}');
    expect(cellTitle({ city: 'Leeds' })).toBe('{\n  "city": "Leeds"\n}');
    expect(cellTitle('Leeds')).toBeUndefined();
  });

  it('cuts a long structured value to the limit and keeps the whole of it in the title', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1 }), (value) => {
        const shown = cellText(value);
        const whole = JSON.stringify(value);
        expect(shown.length).toBeLessThanOrEqual(CELL_LIMIT);
        if (whole.length <= CELL_LIMIT) expect(shown).toBe(whole);
        else expect(shown).toBe(`${whole.slice(0, CELL_LIMIT - 1)}…`);
        expect(JSON.parse(cellTitle(value) ?? '')).toEqual(JSON.parse(whole));
      }),
    );
  });
});
