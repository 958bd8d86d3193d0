/*
 * `arithmetic(text)`: what Python's `eval` gives for arithmetic written as text ("3131.1 +
 * 4777.75", "(2 + 3) * 4 // 3", "2 ** -1"), for tools imported from Python that evaluate a
 * calculation the model writes. Numbers, `+ - * / // % **`, unary signs and parentheses, with
 * Python's rules: integers stay exact (a CEL int), `/` always gives a float, `**` binds tighter
 * than a sign on its left and groups to the right, and dividing by zero is an error. Anything
 * else (a name, a string, a call) is an error too: an imported tool's call then fails, saying so,
 * rather than answering something Python would not. Bounded in length and nesting.
 */

export type PyNumber = bigint | number;

const MAX_LENGTH = 10_000;
const MAX_DEPTH = 200;

/** The value of arithmetic written as Python text; throws an Error saying what is wrong. */
export function pythonArithmetic(text: unknown): PyNumber {
  if (typeof text !== 'string') throw new Error(`arithmetic() takes text; got ${String(text)}.`);
  if (text.length > MAX_LENGTH)
    throw new Error(`arithmetic(): the expression is longer than ${MAX_LENGTH} characters.`);
  const tokens = tokenize(text);
  let at = 0;
  let depth = 0;
  const peek = () => tokens[at];
  const take = (op: string) => {
    if (tokens[at] !== op) return false;
    at += 1;
    return true;
  };
  const deeper = () => {
    depth += 1;
    if (depth > MAX_DEPTH) throw new Error(`arithmetic(): nested more than ${MAX_DEPTH} deep.`);
  };
  // sum := term (("+" | "-") term)*
  const sum = (): PyNumber => {
    let value = term();
    for (;;) {
      if (take('+')) value = apply('+', value, term());
      else if (take('-')) value = apply('-', value, term());
      else return value;
    }
  };
  // term := unary (("*" | "/" | "//" | "%") unary)*
  const term = (): PyNumber => {
    let value = unary();
    for (;;) {
      const op = peek();
      if (op !== '*' && op !== '/' && op !== '//' && op !== '%') return value;
      at += 1;
      value = apply(op, value, unary());
    }
  };
  // unary := ("+" | "-") unary | power
  const unary = (): PyNumber => {
    if (take('-')) {
      deeper();
      const value = unary();
      depth -= 1;
      return typeof value === 'bigint' ? -value : -value;
    }
    if (take('+')) {
      deeper();
      const value = unary();
      depth -= 1;
      return value;
    }
    return power();
  };
  // power := atom ("**" unary)?
  const power = (): PyNumber => {
    const base = atom();
    if (!take('**')) return base;
    deeper();
    const exponent = unary();
    depth -= 1;
    return apply('**', base, exponent);
  };
  const atom = (): PyNumber => {
    const token = peek();
    if (token === '(') {
      at += 1;
      deeper();
      const value = sum();
      depth -= 1;
      if (!take(')')) throw new Error('arithmetic(): a "(" is never closed.');
      return value;
    }
    if (token !== undefined && /^[\d.]/.test(token)) {
      at += 1;
      return numberOf(token);
    }
    throw new Error(
      token === undefined
        ? 'arithmetic(): the expression ends too soon.'
        : `arithmetic(): "${token}" is not arithmetic.`,
    );
  };
  const value = sum();
  if (at < tokens.length) throw new Error(`arithmetic(): "${tokens[at] ?? ''}" is not arithmetic.`);
  return value;
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern =
    /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(\*\*|\/\/|[-+*/%()]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) {
      const rest = text.slice(at).trim();
      throw new Error(`arithmetic(): "${rest.slice(0, 20)}" is not arithmetic.`);
    }
    tokens.push(m[1] ?? m[2] ?? '');
    at = pattern.lastIndex;
  }
  return tokens;
}

function numberOf(token: string): PyNumber {
  if (/^\d+$/.test(token)) {
    // Python 3 refuses a decimal integer with a leading zero ("07").
    if (/^0+[1-9]/.test(token)) throw new Error(`arithmetic(): "${token}" is not a number.`);
    return BigInt(token);
  }
  return Number(token);
}

function apply(op: string, left: PyNumber, right: PyNumber): PyNumber {
  if (typeof left === 'bigint' && typeof right === 'bigint') return integer(op, left, right);
  const a = Number(left);
  const b = Number(right);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new Error('arithmetic(): division by zero.');
      return a / b;
    case '//':
      if (b === 0) throw new Error('arithmetic(): division by zero.');
      return floatDivMod(a, b)[0];
    case '%':
      if (b === 0) throw new Error('arithmetic(): division by zero.');
      return floatDivMod(a, b)[1];
    default:
      return floatPower(a, b);
  }
}

/** Python's float `divmod` (CPython's float_floor_div and float_rem), signs of zero included. */
function floatDivMod(a: number, b: number): [number, number] {
  let mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0) {
    if (b < 0 !== mod < 0) {
      mod += b;
      div -= 1;
    }
  } else mod = b < 0 ? -0 : 0;
  let floor: number;
  if (div !== 0) {
    floor = Math.floor(div);
    if (div - floor > 0.5) floor += 1;
  } else floor = a / b < 0 || Object.is(a / b, -0) ? -0 : 0;
  return [floor, mod];
}

/**
 * A float to a power. A whole exponent up to 64 is worked out exactly and rounded once, as the C
 * library Python uses does for all but the rarest cases; any other with the engine's own power.
 */
function floatPower(a: number, b: number): number {
  if (a === 0 && b < 0) throw new Error('arithmetic(): zero to a negative power.');
  if (Number.isInteger(b) && Math.abs(b) <= 64 && Number.isFinite(a) && a !== 0) {
    const [m, k] = exactFraction(Math.abs(a));
    const n = BigInt(Math.abs(b));
    const top = m ** n;
    const bottom = 1n << (k * n);
    const size = b >= 0 ? ratioToDouble(top, bottom) : ratioToDouble(bottom, top);
    return a < 0 && n % 2n === 1n ? -size : size;
  }
  const value = a ** b;
  if (Number.isNaN(value))
    throw new Error('arithmetic(): a negative number to a fractional power.');
  return value;
}

const bitLength = (x: bigint): number => x.toString(2).length;

/** p / q (both positive) as the nearest double, a tie to even. */
function ratioToDouble(p: bigint, q: bigint): number {
  // Scale so the quotient has 53 bits: p·2^s / q in [2^52, 2^53).
  let s = 52 - (bitLength(p) - bitLength(q));
  let n = s >= 0 ? p << BigInt(s) : p;
  let d = s >= 0 ? q : q << BigInt(-s);
  if (n < d << 52n) {
    n <<= 1n;
    s += 1;
  }
  if (n >= d << 53n) {
    d <<= 1n;
    s -= 1;
  }
  let quotient = n / d;
  const twice = 2n * (n % d);
  if (twice > d || (twice === d && quotient % 2n === 1n)) quotient += 1n;
  // Two steps, so that a scale past a double's range does not overflow on its own.
  const half = Math.trunc(s / 2);
  return Number(quotient) * 2 ** -half * 2 ** -(s - half);
}

function integer(op: string, a: bigint, b: bigint): PyNumber {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0n) throw new Error('arithmetic(): division by zero.');
      return Number(a) / Number(b);
    case '//':
    case '%': {
      if (b === 0n) throw new Error('arithmetic(): division by zero.');
      // Python floors; BigInt division truncates towards zero.
      let q = a / b;
      if (a % b !== 0n && a < 0n !== b < 0n) q -= 1n;
      return op === '//' ? q : a - q * b;
    }
    default:
      if (b < 0n) {
        if (a === 0n) throw new Error('arithmetic(): zero to a negative power.');
        return Number(a) ** Number(b);
      }
      // Python would compute it, slowly; past a million bits it is no calculation a tool needs.
      if (BigInt(a.toString(2).length) * b > 1_000_000n)
        throw new Error('arithmetic(): the power is too large.');
      return a ** b;
  }
}

/** A positive finite double as an exact fraction m / 2^k. */
export function exactFraction(value: number): [bigint, bigint] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const m = exponent === 0 ? fraction : fraction | (1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075;
  return power >= 0 ? [m << BigInt(power), 0n] : [m, BigInt(-power)];
}
