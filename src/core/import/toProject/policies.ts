import { extractPolicies } from '../../extract.ts';
import { DOMAIN_POLICY } from './scenarios.ts';

/**
 * Plans policies.yaml: the atomic policies deterministic extraction finds in the policy
 * document (agent.md, so their source lines point into it), and the whole document as one
 * policy that the imported scenarios are held to.
 */
export function planPolicies(
  policy: string,
  toolNames: readonly string[],
): Array<Record<string, unknown>> {
  const extracted = extractPolicies(policy, toolNames).filter((c) => c.id !== DOMAIN_POLICY);
  return [
    {
      id: DOMAIN_POLICY,
      text: 'Follow the domain policy in agent.md as a whole (the imported tasks are graded against all of it).',
      category: 'imported',
      challenge: 3,
    },
    ...extracted.map((c) => ({
      id: c.id,
      text: c.text,
      category: c.category,
      challenge: c.challenge,
      ...(c.tools.length > 0 ? { tools: [...c.tools] } : {}),
      source: c.source.endLine === c.source.line ? { line: c.source.line } : { ...c.source },
    })),
  ];
}
