import type { ToolInfo } from '../../extract/toolLinks.ts';
import { extractPolicies, policyEntry } from '../../extract.ts';

/**
 * Plans policies.yaml: the atomic policies deterministic extraction finds in the policy
 * document (agent.md, so their source lines point into it), linked to the tools by their names
 * and descriptions.
 */
export function planPolicies(
  policy: string,
  tools: readonly ToolInfo[],
): Array<Record<string, unknown>> {
  return extractPolicies(policy, tools).map(policyEntry);
}
