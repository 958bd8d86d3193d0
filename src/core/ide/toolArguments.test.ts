import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyArguments } from './toolArguments.ts';

describe('emptyArguments', () => {
  it('gives each required parameter an empty value of its type', () => {
    expect(
      emptyArguments({
        type: 'object',
        properties: {
          id: { type: 'string' },
          count: { type: 'integer' },
          insured: { type: 'boolean' },
          bags: { type: 'array' },
          note: { type: 'string' },
        },
        required: ['id', 'count', 'insured', 'bags'],
      }),
    ).toEqual({ id: '', count: 0, insured: false, bags: [] });
  });

  it('offers every parameter when none is required, and {} for what is not a schema', () => {
    expect(emptyArguments({ properties: { a: { type: 'number' }, b: {} } })).toEqual({
      a: 0,
      b: '',
    });
    expect(emptyArguments(null)).toEqual({});
    expect(emptyArguments({ properties: 3, required: 'x' })).toEqual({});
  });

  it('never throws, whatever the schema', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(typeof emptyArguments(value)).toBe('object');
      }),
    );
  });
});
