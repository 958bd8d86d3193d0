// Kept apart from cel.ts so that code which only needs the names (the editor's completion) does
// not pull in the CEL library.

/** The variables a condition may read, by where it is written (docs/format.md). */
export const CEL_VARIABLES = {
  guard: ['args', 'db', 'history', 'tool', 'now'],
  effect: ['args', 'db', 'row', 'now', 'inserted'],
  returns: ['args', 'db', 'now', 'inserted'],
  assertion: ['db'],
} as const;

/** Where a condition is written: a guard, an effect, a tool's returns, or a check's assertion. */
export type CelContext = keyof typeof CEL_VARIABLES;
