import { MATCH_STEP_BUDGET } from './linear.ts';
import type { Node } from './parse.ts';
import { parsePattern } from './parse.ts';

/**
 * The answer length `check` warns below: a pattern that may pass the matcher's budget on a text
 * this short would make its check an error on ordinary answers.
 */
export const COSTLY_BELOW_CHARACTERS = 5_000;

/** About the steps one live copy of a counted repeat takes per character (mark, test, progress, split). */
const STEPS_PER_COPY = 4;

/**
 * The most copies of a counted repeat that can be alive at one position: `a{1,1000}` keeps a
 * thread per count on a run of a's, and nested counts multiply. `*` and `+` keep one.
 */
function liveCopies(node: Node): number {
  switch (node.t) {
    case 'char':
    case 'assert':
      return 1;
    case 'cat':
    case 'alt':
      return Math.max(1, ...node.items.map(liveCopies));
    case 'rep':
      return (Number.isFinite(node.max) ? node.max : 1) * liveCopies(node.node);
  }
}

/**
 * What `check` says of a pattern whose counted repeats may make it too costly on an answer of
 * ordinary length, or undefined. Said only when a text of under `COSTLY_BELOW_CHARACTERS` made of
 * what the repeat matches would pass the matcher's budget; the runtime budget is the guarantee.
 */
export function costNote(
  pattern: string,
  judged: 'the check' | 'the phrase' = 'the check',
): string | undefined {
  let copies: number;
  try {
    copies = liveCopies(parsePattern(pattern));
  } catch {
    return undefined; // a pattern that cannot be read is reported on its own
  }
  const longest = Math.floor(MATCH_STEP_BUDGET / (STEPS_PER_COPY * copies));
  if (longest >= COSTLY_BELOW_CHARACTERS) return undefined;
  return `This pattern repeats up to ${copies.toLocaleString('en-US')} times, and matching keeps each count alive at once: on an answer with a long run of what it repeats, past about ${longest.toLocaleString('en-US')} characters, it may pass the matcher's limit of ${MATCH_STEP_BUDGET.toLocaleString('en-US')} steps, and ${judged} is then an error. A smaller count, or + or *, costs far less.`;
}
