import type { Diagnostic } from '../../diagnostics.ts';
import type { Check } from '../model.ts';
import type { YamlPath } from '../yamlFile.ts';
import { costNote } from '../../regex/cost.ts';
import { compilePattern, isPatternProblem } from '../../regex/linear.ts';
import type { ReferenceContext } from './context.ts';
import { Findings } from './context.ts';

/** The fields each kind of check cannot do without. */
const NEEDS: Record<Check['kind'], readonly ('pattern' | 'tool' | 'first' | 'then' | 'max')[]> = {
  must_say: ['pattern'],
  must_not_say: ['pattern'],
  tool_order: ['first', 'then'],
  confirm_before: ['tool'],
  never_call: ['tool'],
  max_calls: ['tool', 'max'],
  max_calls_per_turn: ['max'],
  say_before_call: ['pattern', 'tool'],
  grounded: [],
  silent_call: [],
  wait_for_result: [],
  transfer_only_when: ['tool'],
};

/**
 * rules.yaml's checks: each check's policy defined, the fields its kind needs present, the tools
 * it names defined in tools.yaml, and its pattern a valid regular expression that the linear matcher
 * (regex/linear.ts) can run: no backreference or lookaround.
 */
export function checkChecks(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  for (const check of context.model.checks) {
    found.policyRef('rules.yaml', [...check.path, 'policy'], check.policy);
    for (const field of NEEDS[check.kind]) {
      if (check[field] === undefined) {
        found.report(
          'rules.yaml',
          [...check.path, 'kind'],
          'missing-field',
          `A ${check.kind} check needs "${field}".`,
        );
      }
    }
    for (const field of ['tool', 'first', 'then'] as const) {
      const name = check[field];
      if (name !== undefined) found.toolRef('rules.yaml', [...check.path, field], name);
    }
    if (check.pattern !== undefined)
      reportPattern(found, 'rules.yaml', [...check.path, 'pattern'], check.pattern);
    for (const [field, key, reader] of [
      ['covers', 'covers', 'confirm_before'],
      ['facts', 'facts', 'grounded'],
      ['after_refusal', 'afterRefusal', 'transfer_only_when'],
    ] as const)
      if (check[key] !== undefined && check.kind !== reader)
        found.report(
          'rules.yaml',
          [...check.path, field],
          'unused-field',
          `Only a ${reader} check reads "${field}"; a ${check.kind} check ignores it.`,
          'warning',
        );
    if (check.kind === 'grounded' && check.facts?.length === 0)
      found.report(
        'rules.yaml',
        [...check.path, 'facts'],
        'empty-check',
        'An empty "facts" list holds no fact to a source, so this check can never fail. Leave it out to check them all.',
        'warning',
      );
    if (
      check.kind === 'transfer_only_when' &&
      check.pattern === undefined &&
      check.afterRefusal !== true
    )
      found.report(
        'rules.yaml',
        [...check.path, 'kind'],
        'missing-field',
        'A transfer_only_when check needs "pattern" (what must be said first), "after_refusal: true", or both.',
      );
  }
  return found.diagnostics;
}

/**
 * A pattern the linear matcher will run with the `iu` flags: an error where it is not a valid
 * regular expression or uses what the matcher cannot run, a warning where a counted repeat may
 * pass the matcher's budget on an ordinary answer (regex/cost.ts).
 */
export function reportPattern(
  found: Findings,
  file: 'rules.yaml' | 'scenarios.yaml',
  path: YamlPath,
  pattern: string,
): void {
  const problem = compilePattern(pattern, 'iu');
  if (isPatternProblem(problem)) {
    found.report(
      file,
      path,
      problem.construct === undefined ? 'bad-pattern' : 'unsupported-pattern',
      problem.construct === undefined
        ? `This is not a valid regular expression: ${problem.message}`
        : `This pattern cannot be used: ${problem.message}`,
    );
    return;
  }
  const costly = costNote(pattern, file === 'rules.yaml' ? 'the check' : 'the phrase');
  if (costly !== undefined) found.report(file, path, 'costly-pattern', costly, 'warning');
}
