import type { Environment } from '@marcbachmann/cel-js';
import { chargeCel } from './celMeter.ts';
import { exactFraction, pythonArithmetic } from './pythonArithmetic.ts';
import { celDecimalText, pythonStr } from './pythonValues.ts';

export { celDecimalText };

// List functions PolicyLab adds to CEL: `sum`, `min` and `max` over a list of numbers, so a
// total reads `sum(args.items.map(i, i.price))` instead of a chain of additions.
//
// CEL writes integers as BigInt and doubles as numbers, and values that come from JSON (tool
// arguments, rows) are doubles. Each function is declared over `list` returning `dyn`, so the type
// check accepts any list and the result compares with ints and doubles alike; the handler checks
// the items itself and says which one is not a number.

type Numeric = bigint | number;

// Each function charges the CEL step budget (celMeter.ts) by the size of what it walks or builds.

/** The number of items or entries a function will walk, charged to the step budget. */
function charged<T>(value: T): T {
  if (Array.isArray(value)) chargeCel(value.length);
  else if (typeof value === 'object' && value !== null) chargeCel(Object.keys(value).length);
  return value;
}

function numbersOf(name: string, list: unknown): Numeric[] {
  const items: readonly unknown[] = Array.isArray(list) ? charged(list) : [];
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

// Functions that build a changed copy of a structured value, for effects that change one field
// deep inside a list or object column (a gift card's balance inside a user's payment methods):
// `put(map, key, value)`, `merge(map, map)`, `setAt(list, index, value)`. And the arithmetic and
// list helpers imported tools need: `round(number, digits)`, `abs(number)`, `sorted(list)`,
// `range(n)`; values written as Python writes them: `decimalText(x)`, `fixed(x, digits)`, and
// `pyText(x)`, Python's `str()` of a value whose type is known only at run time (pythonValues.ts);
// and
// Python's `eval` of arithmetic text: `arithmetic(text)` (pythonArithmetic.ts); `chars(text)`,
// text as a list of its characters, as Python walks a string.

type Plain = Readonly<Record<string, unknown>>;

function mapOf(name: string, value: unknown): Plain {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return charged(value as Plain);
  throw new Error(`${name}() takes a map; got ${Array.isArray(value) ? 'a list' : String(value)}.`);
}

/** A copy of a map with `key` set to `value`. */
export function celPut(map: unknown, key: unknown, value: unknown): Plain {
  if (typeof key !== 'string') throw new Error(`put() takes a string key; got ${String(key)}.`);
  return { ...mapOf('put', map), [key]: value };
}

/** A copy of the first map with the second's entries over it. */
export function celMerge(left: unknown, right: unknown): Plain {
  return { ...mapOf('merge', left), ...mapOf('merge', right) };
}

/** A copy of a list with item `index` (from 0) replaced; an error past its end. */
export function celSetAt(list: unknown, index: unknown, value: unknown): unknown[] {
  if (!Array.isArray(list)) throw new Error('setAt() takes a list.');
  charged(list);
  const i = Number(index);
  if (!Number.isInteger(i) || i < 0 || i >= list.length)
    throw new Error(`setAt(): index ${String(index)} is outside a list of ${list.length}.`);
  return (list as unknown[]).map((item, j) => (j === i ? value : item));
}

/**
 * A number rounded to `digits` decimals, as Python's `round` does: to the nearest, and a value
 * exactly halfway to the even neighbour. An integer stays an integer.
 */
export function celRound(value: unknown, digits: unknown): Numeric {
  if (typeof value === 'bigint') return value;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`round() takes a number; got ${String(value)}.`);
  const d = Number(digits);
  if (!Number.isInteger(d) || d < 0 || d > 15) throw new Error(`round() takes 0 to 15 digits.`);
  if (Number.isInteger(value)) return value;
  // The double's exact value is m / 2^k; round m·10^d / 2^k to an integer, halfway to even.
  const [m, k] = exactFraction(Math.abs(value));
  const scaled = m * 10n ** BigInt(d);
  const denominator = 1n << k;
  let q = scaled / denominator;
  const twice = 2n * (scaled % denominator);
  if (twice > denominator || (twice === denominator && q % 2n === 1n)) q += 1n;
  const rounded = Number(q) / 10 ** d;
  return value < 0 ? -rounded : rounded;
}

/**
 * A number written with `digits` decimals, as Python's `f"{x:.2f}"`: the exact value rounded to
 * the nearest, a tie to even.
 */
export function celFixed(value: unknown, digits: unknown): string {
  const d = Number(digits);
  if (!Number.isInteger(d) || d < 0 || d > 15) throw new Error(`fixed() takes 0 to 15 digits.`);
  if (typeof value === 'bigint') return d === 0 ? value.toString() : `${value}.${'0'.repeat(d)}`;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`fixed() takes a number; got ${String(value)}.`);
  const rounded = celRound(value, BigInt(d)) as number;
  const text = Math.abs(rounded).toFixed(d);
  return value < 0 ? `-${text}` : text;
}

/** The absolute value of a number. */
export function celAbs(value: unknown): Numeric {
  if (typeof value === 'bigint') return value < 0n ? -value : value;
  if (typeof value === 'number') return Math.abs(value);
  throw new Error(`abs() takes a number; got ${String(value)}.`);
}

/** A list's items in ascending order: numbers by value, strings by code point. */
export function celSorted(list: unknown): unknown[] {
  if (!Array.isArray(list)) throw new Error('sorted() takes a list.');
  // Sorting n items costs about n·log2(n) comparisons.
  chargeCel(Math.ceil(list.length * Math.log2(list.length + 1)));
  const items = [...(list as unknown[])];
  if (items.every((i): i is string => typeof i === 'string'))
    return items.sort((a, b) => (a < b ? -1 : a === b ? 0 : 1));
  const numbers = numbersOf('sorted', items);
  return numbers.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The integers 0 … n − 1 (`range(size(args.item_ids))` walks two lists side by side). */
export function celRange(n: unknown): bigint[] {
  const count = Number(n);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`range() takes a count; got ${String(n)}.`);
  if (count > 100_000) throw new Error(`range(${count}) is longer than 100000.`);
  chargeCel(count);
  return Array.from({ length: count }, (_, i) => BigInt(i));
}

/** Text as the list of its characters (code points), as Python walks a string. */
export function celChars(text: unknown): string[] {
  if (typeof text !== 'string') throw new Error(`chars() takes text; got ${String(text)}.`);
  chargeCel(text.length);
  return Array.from(text);
}

const toJson = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v);

/** Python's `x[lower:upper]` of a list or text: bounds may be null (left out) or negative. */
export function celSlice(value: unknown, lower: unknown, upper: unknown): unknown {
  const text = typeof value === 'string';
  if (!text && !Array.isArray(value)) throw new Error('slice() takes a list or text.');
  const items: readonly unknown[] = text ? Array.from(value) : (value as unknown[]);
  const size = items.length;
  const bound = (b: unknown, otherwise: number): number => {
    if (b === null || b === undefined) return otherwise;
    const n = typeof b === 'bigint' || typeof b === 'number' ? Number(b) : Number.NaN;
    if (!Number.isInteger(n))
      throw new Error(`slice(): ${JSON.stringify(toJson(b))} is not a whole number.`);
    return Math.min(Math.max(n < 0 ? n + size : n, 0), size);
  };
  const part = items.slice(bound(lower, 0), bound(upper, size));
  chargeCel(part.length);
  return text ? part.join('') : part;
}

/**
 * The items of `[key, item]` pairs ordered by key as Python's `sorted(…, key=…)` orders them:
 * numbers by value, text by code point; stable, also when `reverse` (equal keys keep their
 * order). Keys Python could not compare (None, or text beside a number) are an error.
 */
export function celSortedBy(pairs: unknown, reverse: unknown): unknown[] {
  if (!Array.isArray(pairs)) throw new Error('sortedBy() takes a list of [key, item] pairs.');
  chargeCel(Math.ceil(pairs.length * Math.log2(pairs.length + 1)));
  const keyed = (pairs as unknown[]).map((pair, index) => {
    if (!Array.isArray(pair) || pair.length !== 2)
      throw new Error('sortedBy() takes a list of [key, item] pairs.');
    return { key: pair[0] as unknown, item: pair[1] as unknown, index };
  });
  const kind = (k: unknown) =>
    typeof k === 'string'
      ? 'text'
      : typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean'
        ? 'number'
        : 'other';
  const kinds = new Set(keyed.map((k) => kind(k.key)));
  if (kinds.has('other') || kinds.size > 1)
    throw new Error(
      'sortedBy(): the keys cannot be compared (each must be a number, or each text).',
    );
  const compare = (a: unknown, b: unknown): number => {
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    const [x, y] = [Number(a), Number(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const sign = reverse === true ? -1 : 1;
  return keyed.sort((a, b) => sign * compare(a.key, b.key) || a.index - b.index).map((k) => k.item);
}

/** The names `registerListFunctions` adds, for the editor and the docs. */
export const LIST_FUNCTIONS = [
  'sum',
  'min',
  'max',
  'put',
  'merge',
  'setAt',
  'round',
  'abs',
  'sorted',
  'range',
  'decimalText',
  'pyText',
  'fixed',
  'arithmetic',
  'chars',
  'slice',
  'sortedBy',
] as const;

/** Registers PolicyLab's list, map and number functions on a CEL environment. */
export function registerListFunctions(env: Environment): Environment {
  return env
    .registerFunction('sum(list): dyn', celSum)
    .registerFunction('min(list): dyn', celMin)
    .registerFunction('max(list): dyn', celMax)
    .registerFunction('put(dyn, dyn, dyn): dyn', celPut)
    .registerFunction('merge(dyn, dyn): dyn', celMerge)
    .registerFunction('setAt(dyn, dyn, dyn): dyn', celSetAt)
    .registerFunction('round(dyn, int): dyn', celRound)
    .registerFunction('abs(dyn): dyn', celAbs)
    .registerFunction('sorted(dyn): dyn', celSorted)
    .registerFunction('range(dyn): list', celRange)
    .registerFunction('decimalText(dyn): string', celDecimalText)
    .registerFunction('pyText(dyn): string', pythonStr)
    .registerFunction('fixed(dyn, int): string', celFixed)
    .registerFunction('arithmetic(dyn): dyn', pythonArithmetic)
    .registerFunction('chars(string): list', celChars)
    .registerFunction('slice(dyn, dyn, dyn): dyn', celSlice)
    .registerFunction('sortedBy(dyn, bool): list', celSortedBy);
}
