import type { PromptTemplate } from '../sim/prompts.ts';

/**
 * The guard drafter, once per policy a person asks to guard: the policy, the tools it names with
 * their arguments, and the tables, and a request for one guard rule with example calls it must
 * allow and forbid (assist/guardDraft.ts checks the rule and runs the examples before offering it).
 */
export const GUARD_DRAFT_PROMPT: PromptTemplate = {
  id: 'guard-draft',
  version: 1,
  text: `You write guard rules for a conversational agent. A guard rule is checked every time the agent calls a tool, before the call runs, and refuses the call when the policy would be broken.

The policy ({{policy_id}}): {{policy}}

Tools the policy concerns, with their arguments (a JSON Schema):
{{tools}}

Database tables, with their columns and some of their rows:
{{tables}}

The condition is CEL. It can read:
- args: the arguments of the call (args.<name>; only the arguments listed above)
- db: the database, db.<table> is the list of that table's rows, each a map from column to value
- history: earlier calls in the dialogue, oldest first, each {tool, args, allowed}
- tool: the name of the tool being called; now: the current time, a timestamp
For example: args.days > 21, or db.members.exists(m, m.id == args.member_id && m.blocked). Strings go in double quotes; an integer argument is an int, a number argument a double (write 21.0 to compare with a double).

Write one rule as a JSON object with these fields:
- id: a short id in lowercase letters, digits and dashes.
- tool: the one tool the rule guards.
- decision: "forbid" (the call is refused when the condition holds) or "allow" (the call is allowed when it holds).
- when: the CEL condition.
- fallback: "message" (the agent is told why), "end" (the dialogue ends) or "ask_user" (the customer is asked first).
- message: what the agent is told when the call is refused.
- examples: at least two calls to the tool that the rule must allow and two it must forbid, each {"args": {...}, "expect": "allow" or "forbid", "why": "..."}. Use arguments that fit the tool's schema and rows that are in the tables above.

Answer with the JSON object only.`,
};
