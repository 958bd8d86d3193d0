import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings } from './context.ts';

/**
 * policies.yaml's relations: both ends existing policies, never a policy with itself, and one
 * relation per pair (a warning: a later one would only contradict the earlier weight).
 */
export function checkRelations(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const pairs = new Set<string>();
  for (const relation of context.model.relations) {
    const [a, b] = relation.between;
    found.policyRef('policies.yaml', [...relation.path, 'between', 0], a);
    found.policyRef('policies.yaml', [...relation.path, 'between', 1], b);
    if (a === b)
      found.report(
        'policies.yaml',
        [...relation.path, 'between'],
        'self-relation',
        `A policy cannot relate to itself ("${a}").`,
      );
    const key = [a, b].sort().join('\u0000');
    if (pairs.has(key)) {
      found.report(
        'policies.yaml',
        [...relation.path, 'between'],
        'duplicate-relation',
        `"${a}" and "${b}" are already related above; keep one weight per pair.`,
        'warning',
      );
    }
    pairs.add(key);
  }
  return found.diagnostics;
}
