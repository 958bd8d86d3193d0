/** A policy as linked to the tools it governs (policies.yaml `tools:`), with its text if known. */
export interface PolicyLink {
  readonly id: string;
  readonly tools: readonly string[];
  readonly text?: string;
}

/** Whether the text writes the tool's name out as a word ("use toggle_wifi()"). */
function writesOut(text: string | undefined, tool: string): boolean {
  if (text === undefined) return false;
  let at = text.indexOf(tool);
  while (at >= 0) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + tool.length] ?? ' ';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
    at = text.indexOf(tool, at + 1);
  }
  return false;
}

/**
 * The policy a call of `tool` answers to: of the policies linked to the tool, one whose text
 * names the tool outright before one linked by its words alone, then the one linked to the
 * fewest tools (the most particular), the earliest on a tie; undefined when none is.
 */
export function policyOfTool(tool: string, links: readonly PolicyLink[]): string | undefined {
  let best: { link: PolicyLink; named: boolean } | undefined;
  for (const link of links) {
    if (!link.tools.includes(tool)) continue;
    const named = writesOut(link.text, tool);
    const better =
      best === undefined ||
      (named && !best.named) ||
      (named === best.named && link.tools.length < best.link.tools.length);
    if (better) best = { link, named };
  }
  return best?.link.id;
}
