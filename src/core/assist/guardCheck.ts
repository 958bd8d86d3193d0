import { checkCel } from '../cel.ts';
import type { GuardRule, ProjectModel, Tool } from '../format/model.ts';
import type { GuardDecision } from '../rules/guards.ts';
import { decideToolCall } from '../rules/guards.ts';
import { argumentMisuse } from '../rules/argumentTypes.ts';
import { seedDatabase } from '../sim/database.ts';
import { argumentErrors } from '../sim/toolArguments.ts';
import { ownExamples } from './guardExamples.ts';

/** An example call of a draft and what the model says the rule must decide on it. */
export interface DraftExample {
  readonly args: Readonly<Record<string, unknown>>;
  readonly expect: 'allow' | 'forbid';
  readonly why: string;
}

/** A guard rule as a model proposed it, before PolicyLab checked it. */
export interface GuardDraft {
  readonly id: string;
  readonly policy: string;
  readonly tool: string;
  readonly decision: 'allow' | 'forbid';
  readonly when: string;
  readonly fallback: 'message' | 'end' | 'ask_user';
  readonly message: string;
  readonly examples: readonly DraftExample[];
}

/** What the draft rule decided on one call: the model's own examples, or PolicyLab's. */
export interface ExampleVerdict {
  readonly args: Readonly<Record<string, unknown>>;
  /** What the model said it must decide; absent for the examples PolicyLab made up. */
  readonly expect?: 'allow' | 'forbid';
  readonly why: string;
  readonly allowed: boolean;
  /** The guard's reason, as the agent would be told it. */
  readonly reason: string;
}

/** The draft checked: the problems that keep it from being offered, and what it decides. */
export interface DraftCheck {
  /** Problems in words, for the person and for the model's repair turn; none when it is offered. */
  readonly problems: readonly string[];
  readonly examples: readonly ExampleVerdict[];
  /** Calls PolicyLab made from the tool's schema (boundaries, every enum value), decided. */
  readonly generated: readonly ExampleVerdict[];
}

/** The draft as the guard rule rules.yaml would hold. */
export function draftRule(draft: GuardDraft): GuardRule {
  return {
    path: ['guards', draft.tool, 'rules', 0],
    id: draft.id,
    tool: draft.tool,
    policy: draft.policy,
    decision: draft.decision,
    when: draft.when,
    fallback: draft.fallback,
    message: draft.message,
    ifMissing: 'forbid',
    attempt: 'fails',
  };
}

/**
 * Checks a draft before it is ever offered: the rule id is free, the tool is one of the agent's
 * tools, the condition compiles as a guard condition, reads only arguments the tool declares,
 * uses them as their declared types and reads only real tables; there is at least one example
 * to allow and one to forbid, each fits the tool's schema, and the rule alone (under the tool's
 * default, on the seed database, no history, at the project's clock) decides each as the model
 * said. Also decides PolicyLab's own examples, which are shown, never held against the draft.
 */
export function checkDraft(model: ProjectModel, draft: GuardDraft, now: string): DraftCheck {
  const problems: string[] = [];
  const tool = model.tools.find((t) => t.name === draft.tool && t.side !== 'user');
  if (!/^[a-z][a-z0-9_-]*$/.test(draft.id)) {
    problems.push(`The id "${draft.id}" must be lowercase letters, digits, "-" or "_".`);
  } else if (model.guards.some((g) => g.rules.some((r) => r.id === draft.id))) {
    problems.push(`rules.yaml already has a rule "${draft.id}"; choose another id.`);
  }
  if (!tool) {
    const names = model.tools.filter((t) => t.side !== 'user').map((t) => t.name);
    problems.push(`There is no agent tool "${draft.tool}" (tools: ${names.join(', ')}).`);
    return { problems, examples: [], generated: [] };
  }
  problems.push(...conditionProblems(model, tool, draft.when));
  for (const expect of ['allow', 'forbid'] as const) {
    if (!draft.examples.some((e) => e.expect === expect))
      problems.push(`Give at least one example call the rule must ${expect}.`);
  }
  draft.examples.forEach((example, index) => {
    const wrong = argumentErrors(tool, example.args);
    if (wrong.length > 0)
      problems.push(
        `Example ${index + 1}'s arguments do not fit ${tool.name}: ${wrong.join('; ')}.`,
      );
  });
  if (problems.length > 0) return { problems, examples: [], generated: [] };

  const decide = decider(model, draft, now);
  const examples = draft.examples.map((example): ExampleVerdict => {
    const decision = decide(example.args);
    return { ...example, allowed: decision.allowed, reason: decision.reason };
  });
  examples.forEach((verdict, index) => {
    if (verdict.allowed !== (verdict.expect === 'allow')) {
      problems.push(
        `Example ${index + 1} (${JSON.stringify(verdict.args)}) should be ${verdict.expect === 'allow' ? 'allowed' : 'forbidden'}, but the rule ${verdict.allowed ? 'allows' : 'forbids'} it: ${verdict.reason}`,
      );
    }
  });
  const base = draft.examples.find((e) => e.expect === 'allow')?.args ?? {};
  const generated = ownExamples(tool, draft.when, base, model).map((made): ExampleVerdict => {
    const decision = decide(made.args);
    return { args: made.args, why: made.why, allowed: decision.allowed, reason: decision.reason };
  });
  return { problems, examples, generated };
}

/** Why a condition cannot be a guard of this tool: CEL, arguments, types and tables. */
function conditionProblems(model: ProjectModel, tool: Tool, when: string): string[] {
  const cel = checkCel(when, 'guard');
  if (cel) return [`The condition is not valid CEL: ${cel.message}`];
  const problems: string[] = [];
  const declared = Object.keys(tool.parameters.properties ?? {});
  for (const name of new Set(callArguments(when))) {
    if (!declared.includes(name))
      problems.push(
        `The condition reads args.${name}, which ${tool.name} does not have (its arguments: ${declared.join(', ') || 'none'}).`,
      );
  }
  const misuse = argumentMisuse(when, 'guard', tool.parameters);
  if (misuse) problems.push(misuse.message);
  const tables = model.tables.map((t) => t.name);
  for (const match of when.matchAll(/\bdb\s*\.\s*(\w+)/g)) {
    const name = match[1] ?? '';
    if (!tables.includes(name))
      problems.push(
        `The condition reads db.${name}; there is no table "${name}" (tables: ${tables.join(', ')}).`,
      );
  }
  return [...new Set(problems)];
}

/**
 * The arguments of the call being judged that a condition reads (`args.name`, `args["name"]`);
 * not those of earlier calls (`c.args.user_id` inside `history.exists(c, ...)`).
 */
function callArguments(when: string): string[] {
  const found = when.matchAll(/(?<![\w.])args\s*(?:\.\s*(\w+)|\[\s*["'](\w+)["']\s*\])/g);
  return [...found].flatMap((m) => {
    const name = m[1] ?? m[2];
    return name === undefined ? [] : [name];
  });
}

/**
 * Decides calls by the draft rule alone under the tool's default, on the seed database, with no
 * earlier calls.
 */
function decider(model: ProjectModel, draft: GuardDraft, now: string) {
  const rule = draftRule(draft);
  // The tool's own default stays: an `allow` rule means something only under `default: deny`.
  const defaultDecision =
    model.guards.find((g) => g.tool === draft.tool)?.defaultDecision ?? 'allow';
  const alone: ProjectModel = {
    ...model,
    guards: [{ path: ['guards', draft.tool], tool: draft.tool, defaultDecision, rules: [rule] }],
  };
  const { db } = seedDatabase(model);
  return (args: Readonly<Record<string, unknown>>): GuardDecision =>
    decideToolCall(alone, { tool: draft.tool, args }, { db, history: [], now: model.now ?? now });
}

/**
 * The project as it would be with the rule accepted: after the tool's own rules (which keep
 * deciding first), or as the tool's only rule under the default `allow`. For trying a draft.
 */
export function withGuardRule(model: ProjectModel, rule: GuardRule): ProjectModel {
  const has = model.guards.some((g) => g.tool === rule.tool);
  return {
    ...model,
    guards: has
      ? model.guards.map((g) => (g.tool === rule.tool ? { ...g, rules: [...g.rules, rule] } : g))
      : [
          ...model.guards,
          { path: ['guards', rule.tool], tool: rule.tool, defaultDecision: 'allow', rules: [rule] },
        ],
  };
}
