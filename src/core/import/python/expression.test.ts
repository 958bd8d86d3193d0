import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePyExpr, PyExprError } from './expression.ts';
import { tokenizePython } from './tokenize.ts';

const parse = (text: string) => parsePyExpr(tokenizePython(text).tokens);

describe('parsePyExpr', () => {
  it('reads the expressions tool bodies use, with Python precedence', () => {
    expect(parse('a + b * c')).toEqual({
      t: 'bin',
      op: '+',
      left: { t: 'name', name: 'a' },
      right: { t: 'bin', op: '*', left: { t: 'name', name: 'b' }, right: { t: 'name', name: 'c' } },
    });
    expect(parse('not x in y')).toEqual({
      t: 'not',
      x: { t: 'cmp', op: 'in', left: { t: 'name', name: 'x' }, right: { t: 'name', name: 'y' } },
    });
    expect(parse('"p" if d > 0 else "r"')).toMatchObject({ t: 'if', cond: { t: 'cmp', op: '>' } });
    expect(parse('next((i for i in o.items if i.id == k), None)')).toMatchObject({
      t: 'call',
      fn: { t: 'name', name: 'next' },
      args: [
        { t: 'comp', kind: 'gen', vars: ['i'] },
        { t: 'const', value: 'None' },
      ],
    });
    expect(parse('Payment(kind="refund", amount=p.amount)')).toMatchObject({
      t: 'call',
      kwargs: [
        ['kind', { t: 'str', value: 'refund' }],
        ['amount', { t: 'attr', name: 'amount' }],
      ],
    });
    expect(parse('x is not None')).toMatchObject({ t: 'cmp', op: 'is not' });
    expect(parse('[a.b for a in xs]')).toMatchObject({ t: 'comp', kind: 'list' });
    expect(parse('a, b')).toMatchObject({ t: 'tuple', items: [{}, {}] });
    expect(parse('xs[:n]')).toEqual({
      t: 'slice',
      obj: { t: 'name', name: 'xs' },
      upper: { t: 'name', name: 'n' },
    });
    expect(parse('xs[-2:]')).toMatchObject({ t: 'slice', lower: { t: 'neg' } });
    expect(parse('xs[:]')).toEqual({ t: 'slice', obj: { t: 'name', name: 'xs' } });
    expect(parse('sorted(bs, key=lambda b: b.d, reverse=True)[:limit]')).toMatchObject({
      t: 'slice',
      obj: {
        t: 'call',
        kwargs: [
          ['key', { t: 'lambda', params: ['b'], body: { t: 'attr', name: 'd' } }],
          ['reverse', { t: 'const', value: 'True' }],
        ],
      },
    });
  });

  it('refuses what it does not read, by name', () => {
    expect(() => parse('lambda (x): x')).toThrow(PyExprError);
    expect(() => parse('a[1:2:3]')).toThrow(/a slice with a step/);
    expect(() => parse('a[]')).toThrow(PyExprError);
    expect(() => parse('a < b < c')).toThrow(/a chained comparison/);
    expect(() => parse('f(*args)')).toThrow(/a starred argument/);
    expect(() => parse('a +')).toThrow(/ends early/);
  });

  it('never throws anything but PyExprError, whatever the tokens (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b.c',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      '+',
      '-',
      '*',
      '==',
      'in',
      'not',
      'is',
      'None',
      'if',
      'else',
      'for',
      'and',
      'or',
      '1',
      '2.5',
      '"s"',
      'f"{x}"',
      'lambda',
      '=',
      '.',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        try {
          parse(parts.join(' '));
        } catch (error) {
          expect(error).toBeInstanceOf(PyExprError);
        }
      }),
    );
  });
});
