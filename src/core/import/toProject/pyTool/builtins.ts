import type { JsonSchema } from '../../domain.ts';
import type { PyExpr } from '../../python/expression.ts';
import type { CelValue, Numeric, Value } from './values.ts';
import { Unreadable, itemSchema } from './values.ts';

/** What reading a builtin needs of the reader: building a CEL value, and Python's `str()`. */
export interface BuiltinContext {
  readonly cel: (
    text: string,
    from: readonly CelValue[],
    schema?: JsonSchema,
    numeric?: Numeric,
  ) => CelValue;
  /** A value as `str()` writes it in Python; undefined when its type is not known. */
  readonly text: (value: CelValue) => string | undefined;
}

const STRING = { type: 'string' } as const;

/**
 * Python's builtins that only compute a value from values, as CEL: `len`, `round`, `abs`,
 * `sorted`, `sum`/`min`/`max` of a list, `list`, `str`, `float`, and `eval` of arithmetic (the
 * CEL function `arithmetic`, which fails the call on anything that is not a number, an operator
 * or a parenthesis). Undefined for any other builtin, or a call of one these cannot read.
 */
export function builtin(
  name: string,
  count: number,
  values: () => CelValue[],
  context: BuiltinContext,
): CelValue | undefined {
  const { cel } = context;
  const one = (): CelValue | undefined => (count === 1 ? values()[0] : undefined);
  switch (name) {
    case 'len': {
      const x = one();
      return x && cel(`size(${x.cel})`, [x], undefined, 'int');
    }
    case 'round': {
      if (count !== 2) return undefined;
      const [x, digits] = values();
      if (!x || !digits) return undefined;
      return cel(`round(${x.cel}, ${digits.cel})`, [x, digits], undefined, 'double');
    }
    case 'abs': {
      const x = one();
      return x && cel(`abs(${x.cel})`, [x], undefined, x.numeric);
    }
    case 'sorted': {
      const x = one();
      return x && cel(`sorted(${x.cel})`, [x], x.schema);
    }
    case 'sum':
    case 'min':
    case 'max': {
      const x = one();
      return x && cel(`${name}(${x.cel})`, [x], undefined, 'double');
    }
    case 'list':
      return one();
    case 'str': {
      const x = one();
      const text = x && context.text(x);
      return x && text !== undefined ? cel(text, [x], STRING) : undefined;
    }
    case 'float': {
      const x = one();
      return x && cel(`double(${x.cel})`, [x], undefined, 'double');
    }
    case 'eval': {
      // eval(text, globals, locals): the globals and locals only matter to names, which
      // arithmetic has none of.
      if (count < 1 || count > 3) return undefined;
      const [x] = values();
      return x && cel(`arithmetic(${x.cel})`, [x]);
    }
    default:
      return undefined;
  }
}

/** What reading `sorted(…, key=…)` needs of the reader. */
export interface SortContext {
  readonly cel: BuiltinContext['cel'];
  /** An expression read as a list, or as a value, with these locals when given. */
  readonly list: (e: PyExpr, locals?: Map<string, Value>) => CelValue;
  readonly value: (e: PyExpr, locals?: Map<string, Value>) => CelValue;
  readonly bool: (e: PyExpr) => CelValue;
  readonly fresh: (base: string) => string;
  readonly locals: ReadonlyMap<string, Value>;
  readonly line: number;
}

/**
 * `sorted(xs, key=lambda x: e, reverse=…)`: the items ordered by `e` as Python orders them, a
 * stable sort (items with equal keys keep their order, reversed or not): CEL's `sortedBy` of
 * `[key, item]` pairs.
 */
export function sortedBy(
  args: readonly PyExpr[],
  kwargs: ReadonlyArray<readonly [string, PyExpr]>,
  context: SortContext,
): CelValue {
  const { cel } = context;
  const [listExpr] = args;
  const named = new Map(kwargs);
  const key = named.get('key');
  const others = [...named.keys()].some((k) => k !== 'key' && k !== 'reverse');
  if (args.length !== 1 || listExpr === undefined || others)
    throw new Unreadable(`a sorted() call it cannot follow (line ${context.line})`);
  const list = context.list(listExpr);
  const reverseExpr = named.get('reverse');
  const reverse = reverseExpr ? context.bool(reverseExpr) : cel('false', []);
  if (key === undefined)
    return cel(
      `sortedBy(${list.cel}.map(i, [i, i]), ${reverse.cel})`,
      [list, reverse],
      list.schema,
    );
  if (key.t !== 'lambda' || key.params.length !== 1)
    throw new Unreadable(
      `sorted() by a key that is no one-parameter lambda (line ${context.line})`,
    );
  const name = context.fresh('s');
  const locals = new Map(context.locals);
  locals.set(key.params[0] ?? '', cel(name, [list], itemSchema(list.schema)));
  const by = context.value(key.body, locals);
  return cel(
    `sortedBy(${list.cel}.map(${name}, [dyn(${by.cel}), dyn(${name})]), ${reverse.cel})`,
    [list, by, reverse],
    list.schema,
  );
}
