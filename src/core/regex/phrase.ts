import type { LinearRegex } from './linear.ts';
import { compilePattern, isPatternProblem } from './linear.ts';

/** The pattern of a scenario phrase written between slashes (`/refund of \d+/`), or undefined. */
export function slashPattern(phrase: string): string | undefined {
  return /^\/(.+)\/$/s.exec(phrase.trim())?.[1];
}

/**
 * A phrase's or check's pattern compiled with the flags lint checks patterns with (`iu`) on the
 * linear matcher, or the sentence saying why it cannot be used.
 */
export function compilePhrasePattern(source: string): LinearRegex | string {
  const compiled = compilePattern(source, 'iu');
  if (!isPatternProblem(compiled)) return compiled;
  return compiled.construct === undefined
    ? `/${source}/ is not a valid regular expression (${compiled.message}).`
    : `/${source}/ cannot be used: ${compiled.message}`;
}
