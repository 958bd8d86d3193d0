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

/** Words CEL keeps for itself: none may follow a dot (`row.in` does not parse). */
const CEL_WORDS = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);

/** `base.name` in CEL, or `base["name"]` where the name is a word CEL keeps or not an identifier. */
export function celSelect(base: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !CEL_WORDS.has(name)
    ? `${base}.${name}`
    : `${base}[${JSON.stringify(name)}]`;
}
