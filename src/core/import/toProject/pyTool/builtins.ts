import type { JsonSchema } from '../../domain.ts';
import type { CelValue, Numeric } from './values.ts';

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
