/** A policy as linked to the tools it governs (policies.yaml `tools:`). */
export interface PolicyLink {
  readonly id: string;
  readonly tools: readonly string[];
}

/**
 * The policy a call of `tool` answers to: of the policies linked to the tool, the one linked to
 * the fewest tools (the most particular), the earliest on a tie; undefined when none is.
 */
export function policyOfTool(tool: string, links: readonly PolicyLink[]): string | undefined {
  let best: PolicyLink | undefined;
  for (const link of links)
    if (link.tools.includes(tool) && (best === undefined || link.tools.length < best.tools.length))
      best = link;
  return best?.id;
}
