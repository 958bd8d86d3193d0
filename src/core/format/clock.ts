import type { Diagnostic } from '../diagnostics.ts';
import type { ReferenceContext } from './references/context.ts';

/** An ISO-8601 date and time whose offset is written (`Z` or `±hh:mm`), seconds optional. */
const FIXED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Whether `text` is a moment a project can fix its clock at: ISO-8601 with its offset, a real date. */
export function isFixedTime(text: string): boolean {
  if (!FIXED_TIME.test(text)) return false;
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  return (
    !Number.isNaN(Date.parse(text)) &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() + 1 === month &&
    date.getUTCDate() === day
  );
}

/**
 * The time the project fixes for its runs (database.yaml `now:`), when it is written and reads
 * as one; otherwise undefined, and runs see the time their caller gives.
 */
export function buildClock(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const now = (value as Record<string, unknown>).now;
  return typeof now === 'string' && isFixedTime(now) ? now : undefined;
}

/** database.yaml `now:` must be a date and time with its offset, or the runs could not use it. */
export function checkClock(context: ReferenceContext): Diagnostic[] {
  const file = context.files['database.yaml'];
  const root = file.value;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return [];
  const now = (root as Record<string, unknown>).now;
  if (typeof now !== 'string' || now === '' || isFixedTime(now)) return [];
  return [
    file.at(
      ['now'],
      'error',
      'fixed-time',
      `"now" must be a date and time with its offset, such as 2024-05-15T15:00:00-05:00 or 2024-05-15T20:00:00Z; "${now}" is not one, so runs would see the real time.`,
    ),
  ];
}
