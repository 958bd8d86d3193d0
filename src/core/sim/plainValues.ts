import type { Row } from '../format/model.ts';

// Kept apart from database.ts, which validates rows with Ajv: the log's fold (transcript.ts) is on
// the first page and needs only these.

/**
 * A value as JSON can hold it: CEL integers (BigInt) become numbers (or digit strings past 2^53),
 * timestamps ISO strings, maps plain objects, infinities and other CEL values text. Rows are
 * stored and results shown in this form, so the event log stays plain JSON.
 */
export function toPlain(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : value.toString();
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Map) {
    return Object.fromEntries([...value].map(([k, v]) => [String(k), toPlain(v)]));
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype === Object.prototype || prototype === null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
    }
  }
  // CEL unsigned integers hold a BigInt; durations, bytes and types read best as their text.
  const primitive = (value as { valueOf(): unknown }).valueOf();
  if (typeof primitive === 'bigint') return toPlain(primitive);
  return (value as { toString(): string }).toString();
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(toPlain(a)) === JSON.stringify(toPlain(b));
}

/** The columns whose values differ between two versions of a row (a missing column is null). */
export function changedColumns(before: Row, after: Row): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => !sameValue(before[name] ?? null, after[name] ?? null));
}

/** Whether two rows hold the same values. */
export function sameRow(a: Row, b: Row): boolean {
  return a === b || changedColumns(a, b).length === 0;
}
