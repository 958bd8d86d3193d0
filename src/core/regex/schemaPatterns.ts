import { compilePattern, isPatternProblem } from './linear.ts';
import type { PatternProblem } from './linear.ts';

// JSON Schema's `pattern` (and `patternProperties`) on the linear matcher: Ajv runs them on a
// model's tool arguments and on rows, so they must not backtrack either.

/** What Ajv's `code.regExp` option takes: a pattern compiled on the linear matcher. */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): { test: (text: string) => boolean } => {
    const compiled = compilePattern(pattern, flags.includes('i') ? 'iu' : 'u');
    if (isPatternProblem(compiled)) throw new Error(`pattern /${pattern}/: ${compiled.message}`);
    return { test: (text) => compiled.test(text) };
  },
  { code: 'linearRegExp' },
);

/** Every `pattern` of a JSON Schema the linear matcher cannot run, with the path to it. */
export function schemaPatternProblems(
  schema: unknown,
  path: readonly (string | number)[] = [],
): { path: (string | number)[]; pattern: string; problem: PatternProblem }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: ReturnType<typeof schemaPatternProblems> = [];
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    const at = [...path, key];
    if (key === 'pattern' && typeof value === 'string') {
      const compiled = compilePattern(value, 'u');
      if (isPatternProblem(compiled)) found.push({ path: at, pattern: value, problem: compiled });
    } else if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
      for (const name of Object.keys(value)) {
        const compiled = compilePattern(name, 'u');
        if (isPatternProblem(compiled))
          found.push({ path: [...at, name], pattern: name, problem: compiled });
      }
      found.push(...schemaPatternProblems(value, at));
    } else if (typeof value === 'object') found.push(...schemaPatternProblems(value, at));
  }
  return found;
}
