import { slashPattern } from '../../regex/phrase.ts';
import type { Diagnostic } from '../../diagnostics.ts';
import type { YamlPath } from '../yamlFile.ts';
import { valueAt } from '../yamlFile.ts';
import type { ReferenceContext } from './context.ts';
import { reportPattern } from './checks.ts';
import { Findings } from './context.ts';

/**
 * Regular-expression syntax that plain prose rarely holds: escapes such as `\d` and `\.`, `.*`
 * and `.+`, a character class `[a-z]`, an anchor at either end, an alternation, a group that
 * does not capture, and a counted repeat `{2}` / `{1,3}`.
 */
const REGEX_SIGNS: readonly { readonly test: RegExp; readonly shows: string }[] = [
  { test: /\\[dDwWsSbB.*+?()[\]{}|^$/\\]/, shows: 'a backslash escape' },
  { test: /\.[*+?]/, shows: '".*" or ".+"' },
  { test: /\[[^\]\s]{1,40}\]/, shows: 'a character class "[…]"' },
  { test: /^\^/, shows: 'a "^" anchor' },
  { test: /[^\d\s]\$$|^\$$/, shows: 'a "$" anchor' },
  { test: /\S\|\S|\(\?[:=!]/, shows: 'an alternation "|" or a "(?…)" group' },
  { test: /[\w)\]]\{\d+(?:,\d*)?\}/, shows: 'a repeat count "{n}"' },
];

/** Which sign of a regular expression a scenario phrase shows, if it is written as literal text. */
export function regexLookalike(phrase: string): string | undefined {
  const text = phrase.trim();
  if (slashPattern(text) !== undefined) return undefined;
  return REGEX_SIGNS.find((sign) => sign.test.test(text))?.shows;
}

/**
 * scenarios.yaml: a `must_say` or `must_not_say` phrase is literal text unless written between
 * slashes (`/…/`); one that looks like a regular expression but is not so written is warned
 * about, since it would be looked for character by character. One written between slashes is
 * held to what rules.yaml's check patterns are: valid, runnable by the linear matcher, not costly.
 */
export function checkPhrases(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const root = context.files['scenarios.yaml'].value;
  for (const scenario of context.model.scenarios) {
    const expected = valueAt(root, [...scenario.path, 'expected']);
    for (const group of ['must_say', 'must_not_say'] as const) {
      const items = valueAt(expected, [group]);
      if (!Array.isArray(items)) continue;
      (items as unknown[]).forEach((item, i) => {
        const at: YamlPath = [...scenario.path, 'expected', group, i];
        const [phrase, path] =
          typeof item === 'string'
            ? [item, at]
            : [valueAt(item, ['phrase']), [...at, 'phrase'] as YamlPath];
        if (typeof phrase !== 'string') return;
        const written = slashPattern(phrase);
        if (written !== undefined) {
          reportPattern(found, 'scenarios.yaml', path, written);
          return;
        }
        const sign = regexLookalike(phrase);
        if (sign === undefined) return;
        found.report(
          'scenarios.yaml',
          path,
          'literal-phrase',
          `This phrase has ${sign}, so it looks like a regular expression, but it is matched as literal text (case-insensitive). To match a pattern, write it between slashes: "/${phrase.trim()}/".`,
          'warning',
        );
      });
    }
  }
  return found.diagnostics;
}
