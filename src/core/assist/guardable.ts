import type { Policy, ProjectModel, Tool } from '../format/model.ts';

/** Whether a guard rule could enforce a policy, the tools it would guard, or why not. */
export type Guardability =
  | {
      readonly policy: string;
      readonly offered: true;
      /** The agent's tools of the project the policy names, in its order. */
      readonly tools: readonly string[];
      /** Guard rules that already hold the agent to this policy (a new draft may still help). */
      readonly existing: readonly string[];
    }
  | { readonly policy: string; readonly offered: false; readonly why: string };

// Words that limit what a call may do: a guard decides allow or forbid, so the policy must say
// when a call is not allowed (or only allowed), or what a call may carry (a permission, a count,
// an amount, what stays the same: the airline example's guarded policies read that way). Plain words: the same text always gives the same
// answer, and no model is asked.
const CONSTRAINT = new RegExp(
  [
    String.raw`\b(?:must|mustn't|never|only|cannot|can't|can not|may not|shall not|not allowed|not permitted|forbidden|prohibited)\b`,
    String.raw`\b(?:do|does) not\b|\bdon't\b|\bdoesn't\b|\bno (?:more|fewer|longer|later|earlier)\b`,
    String.raw`\b(?:at most|at least|up to|no more than|more than|less than|fewer than|maximum|minimum|limit|limited|exceed|exceeds|unless|except|before|after|within|outside|over|under)\b`,
    String.raw`\b(?:requires?|required|eligible|ineligible|allowed|permitted|blocked|refuse|reject|deny)\b`,
    // What a call may carry or do: a permission, a count, an amount, what must stay the same.
    String.raw`\b(?:can|may|once|twice|each|per|costs?|keeps?|same|paid|free|full)\b|[$€£]\s?\d|\d`,
  ].join('|'),
  'i',
);

// What the agent says or how it says it: a transcript check or the judge holds it, not a guard.
const MANNER =
  /^\s*(?:always\s+)?(?:be|greet|thank|apologi[sz]e|explain|tell|say|inform|introduce|speak|answer|reply|respond|use (?:a|an|the) \w+ tone)\b/i;

/**
 * Which policies a model may be asked to draft a guard rule for, and why the others are not
 * offered: the policy must name tools the agent can call (policies.yaml `tools:`), and its text
 * must limit a call (words such as only, never, at most, before, unless), rather than describe
 * what the agent says. A deterministic pre-filter, generous on purpose (a model's draft is checked
 * anyway): nothing is asked of a model.
 */
export function guardablePolicies(model: ProjectModel): Guardability[] {
  return model.policies.map((policy) => guardability(model, policy));
}

/** `guardablePolicies` for one policy. */
export function guardability(model: ProjectModel, policy: Policy): Guardability {
  const no = (why: string): Guardability => ({ policy: policy.id, offered: false, why });
  if (policy.tools.length === 0) {
    return no('It names no tools (policies.yaml `tools:`), so there is no call to guard.');
  }
  const known = policy.tools
    .map((name) => model.tools.find((t) => t.name === name))
    .filter((tool): tool is Tool => tool !== undefined);
  if (known.length === 0) {
    return no(`None of its tools (${policy.tools.join(', ')}) is in tools.yaml.`);
  }
  const agents = known.filter((tool) => tool.side !== 'user');
  if (agents.length === 0) {
    return no('Its tools are the simulated user’s own; guard rules hold only the agent.');
  }
  if (MANNER.test(policy.text) && !CONSTRAINT.test(policy.text.replace(MANNER, ''))) {
    return no('It is about what the agent says or how; a transcript check or the judge holds it.');
  }
  if (!CONSTRAINT.test(policy.text)) {
    return no(
      'Its text does not limit a call (no word such as only, never, at most, before, once or can, and no amount).',
    );
  }
  const existing = model.guards
    .flatMap((g) => g.rules)
    .filter((rule) => rule.policy === policy.id)
    .map((rule) => rule.id);
  return { policy: policy.id, offered: true, tools: agents.map((t) => t.name), existing };
}
