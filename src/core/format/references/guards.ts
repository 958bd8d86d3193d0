import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, readable, unknownName } from './context.ts';

/**
 * rules.yaml's guards: each guarded tool defined in tools.yaml, each rule's policy defined in
 * policies.yaml and its `when` valid CEL, and a note on a forbid that tells the agent nothing.
 */
export function checkGuards(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  for (const guards of context.model.guards) {
    if (readable(context, 'tools.yaml') && !context.toolNames.has(guards.tool)) {
      found.reportKey(
        'rules.yaml',
        guards.path,
        'unknown-tool',
        unknownName('tool', guards.tool, context.toolNames),
      );
    }
    for (const rule of guards.rules) {
      found.policyRef('rules.yaml', [...rule.path, 'policy'], rule.policy);
      if (rule.when !== undefined)
        found.condition('rules.yaml', [...rule.path, 'when'], rule.when, 'guard');
      if (rule.decision === 'forbid' && rule.fallback !== 'end' && rule.message === undefined) {
        found.report(
          'rules.yaml',
          [...rule.path, 'decision'],
          'missing-message',
          'This rule forbids the call but gives no "message": the agent will only hear that the call was blocked.',
          'info',
        );
      }
    }
  }
  return found.diagnostics;
}
