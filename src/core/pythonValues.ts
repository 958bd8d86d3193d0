/*
 * Values as Python writes them. A float: `celDecimalText`. A value whose Python type is known
 * only when an imported tool runs (an f-string part the reader could not type from a schema):
 * `pythonStr`, Python's `str()`: text as it is, True/False/None, an int's digits, a float as
 * Python writes it, and lists and dicts as their repr. A whole number held as a float may have
 * been either in Python ("2" or "2.0"): that is an error, never a guess.
 */

/** `str(value)` as Python writes it; throws for a whole number whose int-or-float is unknown. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isInteger(value))
      throw new Error(
        `pyText(): ${String(value)} may be a Python int or a float, and which is not known, so how Python writes it ("${String(value)}" or "${String(value)}.0") is not known.`,
      );
    return celDecimalText(value);
  }
  if (typeof value === 'string') return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${stringRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  throw new Error(`pyText(): a value Python does not have (${typeof value}).`);
}

/** A string's repr: single quotes, unless it holds one and no double quote. */
function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f))
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/**
 * A number as Python writes a float (`str(2.0)` is "2.0", `str(1e-05)` is "1e-05"): the
 * shortest digits that read back as the same double, in fixed notation from 1e-4 up to 1e16 and
 * with an exponent of at least two digits outside it. An integer (a CEL int) is written as one.
 */
export function celDecimalText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'number')
    throw new Error(`decimalText() takes a number; got ${String(value)}.`);
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '0', power = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(power);
  if (exponent < -4 || exponent >= 16) {
    const rest = digits.slice(1);
    const e = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${digits[0] ?? '0'}${rest ? `.${rest}` : ''}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}
