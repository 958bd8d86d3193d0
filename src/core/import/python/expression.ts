import type { PyToken } from './tokenize.ts';

/** A Python expression as a tree: the subset tool bodies use, read without running anything. */
export type PyExpr =
  | { readonly t: 'name'; readonly name: string }
  | { readonly t: 'num'; readonly text: string }
  | { readonly t: 'str'; readonly value: string; readonly fstring: boolean }
  | { readonly t: 'const'; readonly value: 'True' | 'False' | 'None' }
  | { readonly t: 'attr'; readonly obj: PyExpr; readonly name: string }
  | { readonly t: 'index'; readonly obj: PyExpr; readonly index: PyExpr }
  /** `obj[lower:upper]`; a bound left out is absent (a step is outside the subset). */
  | { readonly t: 'slice'; readonly obj: PyExpr; readonly lower?: PyExpr; readonly upper?: PyExpr }
  /** `lambda a, b: body` (plain parameters only). */
  | { readonly t: 'lambda'; readonly params: readonly string[]; readonly body: PyExpr }
  | {
      readonly t: 'call';
      readonly fn: PyExpr;
      readonly args: readonly PyExpr[];
      readonly kwargs: ReadonlyArray<readonly [string, PyExpr]>;
    }
  | { readonly t: 'bin'; readonly op: string; readonly left: PyExpr; readonly right: PyExpr }
  | { readonly t: 'cmp'; readonly op: string; readonly left: PyExpr; readonly right: PyExpr }
  | {
      readonly t: 'bool';
      readonly op: 'and' | 'or';
      readonly left: PyExpr;
      readonly right: PyExpr;
    }
  | { readonly t: 'not'; readonly x: PyExpr }
  | { readonly t: 'neg'; readonly x: PyExpr }
  | { readonly t: 'if'; readonly cond: PyExpr; readonly then: PyExpr; readonly else: PyExpr }
  | { readonly t: 'list' | 'tuple' | 'set'; readonly items: readonly PyExpr[] }
  | { readonly t: 'dict'; readonly entries: ReadonlyArray<readonly [PyExpr, PyExpr]> }
  | {
      /** `[item for vars in iter if cond]` (list) or `(item for …)` (generator). */
      readonly t: 'comp';
      readonly kind: 'list' | 'gen';
      readonly item: PyExpr;
      readonly vars: readonly string[];
      readonly iter: PyExpr;
      readonly cond?: PyExpr;
    };

/** Why an expression could not be read: a construct outside the subset, or bad syntax. */
export class PyExprError extends Error {}

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=']);

/**
 * Reads tokens as one Python expression (a tuple when they hold top-level commas). Throws
 * PyExprError for anything outside the subset: walrus, slices with a step, starred items,
 * chained comparisons, bit operators and the like.
 */
export function parsePyExpr(tokens: readonly PyToken[]): PyExpr {
  const list = tokens.filter((t) => t.type !== 'newline' && t.type !== 'eof');
  let at = 0;
  const peek = (offset = 0): PyToken | undefined => list[at + offset];
  const is = (value: string, offset = 0) => {
    const t = peek(offset);
    return t !== undefined && (t.type === 'op' || t.type === 'name') && t.value === value;
  };
  const expect = (value: string) => {
    if (!is(value)) throw new PyExprError(`expected "${value}"`);
    at++;
  };

  const tuple = (close?: string): PyExpr => {
    const first = test();
    if (!is(',')) return first;
    const items = [first];
    while (is(',')) {
      at++;
      if (peek() === undefined || (close !== undefined && is(close))) break;
      items.push(test());
    }
    return { t: 'tuple', items };
  };
  const test = (): PyExpr => {
    if (is('lambda')) return lambda();
    const body = orTest();
    if (!is('if')) return body;
    at++;
    const cond = orTest();
    expect('else');
    return { t: 'if', cond, then: body, else: test() };
  };
  const lambda = (): PyExpr => {
    at++;
    const params: string[] = [];
    while (!is(':')) {
      const name = peek();
      if (name?.type !== 'name') throw new PyExprError('a lambda with a parameter that is no name');
      params.push(name.value);
      at++;
      if (!is(':')) expect(',');
    }
    at++;
    return { t: 'lambda', params, body: test() };
  };
  const orTest = (): PyExpr => {
    let left = andTest();
    while (is('or')) {
      at++;
      left = { t: 'bool', op: 'or', left, right: andTest() };
    }
    return left;
  };
  const andTest = (): PyExpr => {
    let left = notTest();
    while (is('and')) {
      at++;
      left = { t: 'bool', op: 'and', left, right: notTest() };
    }
    return left;
  };
  const notTest = (): PyExpr => {
    if (is('not')) {
      at++;
      return { t: 'not', x: notTest() };
    }
    return comparison();
  };
  const comparison = (): PyExpr => {
    const left = arith();
    let op: string | undefined;
    if (peek()?.type === 'op' && COMPARE.has(peek()?.value ?? '')) op = peek()?.value;
    else if (is('in')) op = 'in';
    else if (is('not') && is('in', 1)) op = 'not in';
    else if (is('is') && is('not', 1)) op = 'is not';
    else if (is('is')) op = 'is';
    if (op === undefined) return left;
    at += op.includes(' ') ? 2 : 1;
    const right = arith();
    if (peek()?.type === 'op' && COMPARE.has(peek()?.value ?? ''))
      throw new PyExprError('a chained comparison');
    return { t: 'cmp', op, left, right };
  };
  const arith = (): PyExpr => {
    let left = term();
    while (is('+') || is('-')) {
      const op = peek()?.value ?? '+';
      at++;
      left = { t: 'bin', op, left, right: term() };
    }
    return left;
  };
  const term = (): PyExpr => {
    let left = unary();
    while (is('*') || is('/') || is('%') || is('//')) {
      const op = peek()?.value ?? '*';
      at++;
      left = { t: 'bin', op, left, right: unary() };
    }
    return left;
  };
  const unary = (): PyExpr => {
    if (is('-')) {
      at++;
      return { t: 'neg', x: unary() };
    }
    if (is('+')) {
      at++;
      return unary();
    }
    return postfix();
  };
  const postfix = (): PyExpr => {
    let value = atom();
    for (;;) {
      if (is('.') && peek(1)?.type === 'name') {
        value = { t: 'attr', obj: value, name: peek(1)?.value ?? '' };
        at += 2;
      } else if (is('[')) {
        at++;
        const index = is(':') ? undefined : tuple(']');
        if (is(':')) {
          at++;
          const upper = is(']') ? undefined : test();
          if (is(':')) throw new PyExprError('a slice with a step');
          expect(']');
          value = {
            t: 'slice',
            obj: value,
            ...(index !== undefined && { lower: index }),
            ...(upper !== undefined && { upper }),
          };
          continue;
        }
        if (index === undefined) throw new PyExprError('an empty subscript');
        expect(']');
        value = { t: 'index', obj: value, index };
      } else if (is('(')) {
        at++;
        value = call(value);
      } else return value;
    }
  };
  const call = (fn: PyExpr): PyExpr => {
    const args: PyExpr[] = [];
    const kwargs: [string, PyExpr][] = [];
    while (!is(')')) {
      if (is('*') || is('**')) throw new PyExprError('a starred argument');
      if (peek()?.type === 'name' && is('=', 1)) {
        const name = peek()?.value ?? '';
        at += 2;
        kwargs.push([name, test()]);
      } else {
        const arg = test();
        args.push(is('for') ? comprehension(arg, 'gen', ')') : arg);
      }
      if (!is(')')) expect(',');
    }
    at++;
    return { t: 'call', fn, args, kwargs };
  };
  const comprehension = (item: PyExpr, kind: 'list' | 'gen', close: string): PyExpr => {
    expect('for');
    const vars: string[] = [];
    do {
      if (is(',')) at++;
      const name = peek();
      if (name?.type !== 'name') throw new PyExprError('a comprehension over a pattern');
      vars.push(name.value);
      at++;
    } while (is(','));
    expect('in');
    const iter = orTest();
    let cond: PyExpr | undefined;
    if (is('if')) {
      at++;
      cond = orTest();
    }
    if (!is(close)) throw new PyExprError('a comprehension with more than one clause');
    return { t: 'comp', kind, item, vars, iter, ...(cond && { cond }) };
  };
  const atom = (): PyExpr => {
    const t = peek();
    if (t === undefined) throw new PyExprError('an expression ends early');
    at++;
    if (t.type === 'number') return { t: 'num', text: t.value };
    if (t.type === 'string') {
      // Adjacent literals join, as in Python. Joined to an f-string, a plain one's braces are
      // text: they are doubled, as the f-string's own literal braces are written.
      const joined = [t];
      while (peek()?.type === 'string') {
        const next = peek();
        if (next) joined.push(next);
        at++;
      }
      const fstring = joined.some((s) => s.fstring === true);
      const value = joined
        .map((s) => (fstring && s.fstring !== true ? s.value.replace(/[{}]/g, '$&$&') : s.value))
        .join('');
      return { t: 'str', value, fstring };
    }
    if (t.type === 'name') {
      if (t.value === 'True' || t.value === 'False' || t.value === 'None')
        return { t: 'const', value: t.value };
      if (['lambda', 'yield', 'await'].includes(t.value)) throw new PyExprError(`"${t.value}"`);
      return { t: 'name', name: t.value };
    }
    if (t.value === '(') {
      if (is(')')) {
        at++;
        return { t: 'tuple', items: [] };
      }
      const first = test();
      if (is('for')) {
        const comp = comprehension(first, 'gen', ')');
        expect(')');
        return comp;
      }
      if (!is(',')) {
        expect(')');
        return first;
      }
      const items = [first];
      while (is(',')) {
        at++;
        if (is(')')) break;
        items.push(test());
      }
      expect(')');
      return { t: 'tuple', items };
    }
    if (t.value === '[') {
      if (is(']')) {
        at++;
        return { t: 'list', items: [] };
      }
      const first = test();
      if (is('for')) {
        const comp = comprehension(first, 'list', ']');
        expect(']');
        return comp;
      }
      const items = [first];
      while (is(',')) {
        at++;
        if (is(']')) break;
        items.push(test());
      }
      expect(']');
      return { t: 'list', items };
    }
    if (t.value === '{') {
      if (is('}')) {
        at++;
        return { t: 'dict', entries: [] };
      }
      const first = test();
      if (is(':')) {
        at++;
        const entries: [PyExpr, PyExpr][] = [[first, test()]];
        while (is(',')) {
          at++;
          if (is('}')) break;
          const key = test();
          expect(':');
          entries.push([key, test()]);
        }
        expect('}');
        return { t: 'dict', entries };
      }
      const items = [first];
      while (is(',')) {
        at++;
        if (is('}')) break;
        items.push(test());
      }
      expect('}');
      return { t: 'set', items };
    }
    throw new PyExprError(`"${t.value}"`);
  };

  const expr = tuple();
  if (at !== list.length) throw new PyExprError(`"${peek()?.value ?? ''}" after the expression`);
  return expr;
}
