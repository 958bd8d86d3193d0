import type { Environment } from '@marcbachmann/cel-js';

// List functions PolicyLab adds to CEL: `sum`, `min` and `max` over a list of numbers, so a
// total reads `sum(args.items.map(i, i.price))` instead of a chain of additions.
//
// CEL writes integers as BigInt and doubles as numbers, and values that come from JSON (tool
// arguments, rows) are doubles. Each function is declared over `list` returning `dyn`, so the type
// check accepts any list and the result compares with ints and doubles alike; the handler checks
// the items itself and says which one is not a number.

type Numeric = bigint | number;

function numbersOf(name: string, list: unknown): Numeric[] {
  const items: readonly unknown[] = Array.isArray(list) ? list : [];
  return items.map((item, i) => {
    if (typeof item === 'bigint') return item;
    if (typeof item === 'number' && Number.isFinite(item)) return item;
    const shown = typeof item === 'string' ? `"${item}"` : String(item);
    throw new Error(`${name}() takes a list of numbers; item ${i + 1} is ${shown}.`);
  });
}

/** Integers stay integers (BigInt) when every item is one; otherwise the result is a double. */
function integersOnly(values: readonly Numeric[]): bigint[] | undefined {
  const integers = values.filter((v) => typeof v === 'bigint');
  return values.length > 0 && integers.length === values.length ? integers : undefined;
}

/** The sum of a list of numbers; an empty list sums to 0.0. */
export function celSum(list: unknown): Numeric {
  const values = numbersOf('sum', list);
  const integers = integersOnly(values);
  if (integers) return integers.reduce((a, b) => a + b, 0n);
  return values.reduce<number>((a, b) => a + Number(b), 0);
}

function extreme(name: 'min' | 'max', list: unknown): Numeric {
  const values = numbersOf(name, list);
  const [first, ...rest] = values;
  if (first === undefined) throw new Error(`${name}() of an empty list has no value.`);
  const better = (a: Numeric, b: Numeric) => (name === 'min' ? b < a : b > a);
  const best = rest.reduce((a, b) => (better(a, b) ? b : a), first);
  return integersOnly(values) ? best : Number(best);
}

/** The smallest number of a non-empty list. */
export function celMin(list: unknown): Numeric {
  return extreme('min', list);
}

/** The largest number of a non-empty list. */
export function celMax(list: unknown): Numeric {
  return extreme('max', list);
}

/** The names `registerListFunctions` adds, for the editor and the docs. */
export const LIST_FUNCTIONS = ['sum', 'min', 'max'] as const;

/** Registers `sum`, `min` and `max` (each `(list) -> dyn`) on a CEL environment. */
export function registerListFunctions(env: Environment): Environment {
  return env
    .registerFunction('sum(list): dyn', celSum)
    .registerFunction('min(list): dyn', celMin)
    .registerFunction('max(list): dyn', celMax);
}
