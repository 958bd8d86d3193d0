/*
 * Patterns written to stall a backtracking regular-expression engine, and the text that makes
 * them do it (an agent's answer, a model's tool argument). On JavaScript's RegExp each of these
 * takes seconds to centuries; PolicyLab's matcher (core/regex/linear.ts) answers in one pass.
 */

/** A pattern that backtracks catastrophically on `text`; `matches`: the answer RegExp would give. */
export interface BacktrackingPattern {
  readonly name: string;
  readonly pattern: string;
  readonly text: () => string;
  readonly matches: boolean;
}

const as = (n: number): string => 'a'.repeat(n);

/** Nested and overlapping repeats, each with a text just long enough to be hopeless. */
export const BACKTRACKING_PATTERNS: readonly BacktrackingPattern[] = [
  // 2^n ways to split n a's between the two +: froze Play 17 s at 30 characters.
  { name: 'nested quantifier', pattern: '(a+)+$', text: () => `${as(30_000)}!`, matches: false },
  {
    name: 'overlapping alternation',
    pattern: '(a|aa)+$',
    text: () => `${as(30_000)}!`,
    matches: false,
  },
  { name: 'star of a star', pattern: '(x*)*y', text: () => 'x'.repeat(30_000), matches: false },
  // Polynomial, not exponential: n^12 steps.
  { name: 'repeated dot-star', pattern: '(.*a){12}!', text: () => as(5_000), matches: false },
  {
    name: 'e-mail shape',
    pattern: '^([\\w.-]+)+@example\\.com$',
    text: () => `${'john.smith.'.repeat(2_000)}@example.org`,
    matches: false,
  },
  // A match at the very end: found, in one pass.
  {
    name: 'nested quantifier, matching',
    pattern: '(a+)+!',
    text: () => `${as(30_000)}!`,
    matches: true,
  },
];

/** Patterns the linear matcher refuses, and what `check` names in its message. */
export const REFUSED_PATTERNS: readonly { readonly pattern: string; readonly says: string }[] = [
  { pattern: '(\\w+) \\1', says: 'A backreference "\\1"' },
  { pattern: '(?<word>\\w+) \\k<word>', says: 'A backreference "\\k<word>"' },
  { pattern: 'refund(?!ed)', says: 'A negative lookahead' },
  { pattern: '(?<=order )#\\d+', says: 'A lookbehind' },
  { pattern: '(?:(?:a{1,900}){1,900}){1,900}', says: 'too large to match safely' },
];

/**
 * A guard condition of 10^10 steps with no pattern in it. It froze the page for good (the rule
 * playground, Play) and held a simulation worker until it was terminated; under the CEL step
 * budget (core/celMeter.ts) it stops after a million steps with a message that names the limit.
 */
export const ENDLESS_CONDITION = 'range(100000).all(i, range(100000).all(j, i + j >= 0))';

/**
 * A counted repeat: no backtracking, but the linear matcher keeps a thread per count, so its work
 * is the text's length times the count. On 20,000 a's it took 27 s in Node before the matcher
 * had a step budget (core/regex/linear.ts `MATCH_STEP_BUDGET`).
 */
export const COUNTED_REPEAT = {
  pattern: 'a{1,1000}b',
  text: (): string => 'a'.repeat(20_000),
} as const;
