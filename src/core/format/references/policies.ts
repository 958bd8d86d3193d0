import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, duplicates } from './context.ts';

/**
 * policies.yaml's policies: each id used once, each tool a policy names defined in tools.yaml,
 * and each `source.line` a line agent.md has (a warning: the policy still reads).
 */
export function checkPolicies(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const { policies } = context.model;
  duplicates(
    policies,
    (p) => p.id,
    (p, id) => {
      found.report(
        'policies.yaml',
        [...p.path, 'id'],
        'duplicate-id',
        `The policy id "${id}" is used twice; ids must be unique.`,
      );
    },
  );
  for (const policy of policies) {
    policy.tools.forEach((tool, i) => {
      found.toolRef('policies.yaml', [...policy.path, 'tools', i], tool);
    });
    if (policy.source && policy.source.line > context.promptLineCount) {
      found.report(
        'policies.yaml',
        [...policy.path, 'source', 'line'],
        'bad-source',
        `agent.md has ${context.promptLineCount} lines; line ${policy.source.line} does not exist.`,
        'warning',
      );
    }
  }
  return found.diagnostics;
}
