import { extractPolicies } from '../../extract.ts';

/**
 * Plans policies.yaml: the atomic policies deterministic extraction finds in the policy
 * document (agent.md, so their source lines point into it).
 */
export function planPolicies(
  policy: string,
  toolNames: readonly string[],
): Array<Record<string, unknown>> {
  return extractPolicies(policy, toolNames).map((c) => ({
    id: c.id,
    text: c.text,
    category: c.category,
    challenge: c.challenge,
    ...(c.tools.length > 0 ? { tools: [...c.tools] } : {}),
    source: c.source.endLine === c.source.line ? { line: c.source.line } : { ...c.source },
  }));
}
