import type { PolicyLink } from '../../format/toolPolicy.ts';
import { policyOfTool } from '../../format/toolPolicy.ts';

export { policyOfTool };
/*
 * The policies an imported scenario tests. tau2-bench's tasks name none, but the policies the
 * importer extracts from the domain's policy are linked to the tools they govern; a task's
 * expected actions use tools, so each action is charged to the policy of its tool and the
 * scenario puts those policies in play. A failure of that action is then the policy's failure,
 * and the judge is asked about each policy in play.
 */

type PolicyLinks = PolicyLink;

/** The policies extracted for a domain, as the links from each to its tools. */
export function policyLinks(policies: ReadonlyArray<Record<string, unknown>>): PolicyLinks[] {
  return policies.flatMap((p) =>
    typeof p.id === 'string' && Array.isArray(p.tools)
      ? [
          {
            id: p.id,
            tools: p.tools.filter((t): t is string => typeof t === 'string'),
            ...(typeof p.text === 'string' && { text: p.text }),
          },
        ]
      : [],
  );
}

/**
 * The scenario with each required action charged to its tool's policy (`{ tool, policy }`) and
 * those policies listed under `policies:`, in the order the actions first name them. An action
 * whose tool no policy governs stays unattributed.
 */
export function withPoliciesInPlay(
  scenario: Record<string, unknown>,
  links: readonly PolicyLinks[],
): Record<string, unknown> {
  const expected = scenario.expected as Record<string, unknown> | undefined;
  const actions = expected?.required_actions;
  if (!expected || !Array.isArray(actions)) return scenario;
  const inPlay: string[] = [];
  const charged = actions.map((action: unknown) => {
    const entry =
      typeof action === 'string' ? { tool: action } : (action as Record<string, unknown>);
    const policy = typeof entry.tool === 'string' ? policyOfTool(entry.tool, links) : undefined;
    if (policy === undefined) return action;
    if (!inPlay.includes(policy)) inPlay.push(policy);
    return { ...entry, policy };
  });
  if (inPlay.length === 0) return scenario;
  return { ...scenario, policies: inPlay, expected: { ...expected, required_actions: charged } };
}
