/** The most characters a structured value shows in a table cell; the cell's title holds it all. */
export const CELL_LIMIT = 80;

function json(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch {
    return '(cannot be shown)';
  }
}

/**
 * A database value as one cell of the replay's table shows it: text as written, numbers and
 * booleans as JSON, and a list or an object as JSON cut to `CELL_LIMIT` characters with "…".
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  const text = json(value);
  return text.length > CELL_LIMIT ? `${text.slice(0, CELL_LIMIT - 1)}…` : text;
}

/** The whole of a list or object value, indented, for the cell's tooltip; none for scalars. */
export function cellTitle(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? json(value, 2) : undefined;
}
