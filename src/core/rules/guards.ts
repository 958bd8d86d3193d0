import { aside } from '../text.ts';
import { CelRunError, compileCel, isCelProblem } from '../cel.ts';
import { CEL_STEP_BUDGET, withCelBudget } from '../celMeter.ts';
import type { GuardRule, ProjectModel, Row, ToolGuards } from '../format/model.ts';
import { typedArgs } from './typedArgs.ts';

/** A tool call to judge: the tool's name and its arguments. */
export interface ToolCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** An earlier call in the dialogue, as conditions see it in `history`. */
export interface PastCall extends ToolCall {
  readonly allowed: boolean;
}

/** What a guard condition can see besides the call itself. */
export interface GuardContext {
  readonly db: Readonly<Record<string, readonly Row[]>>;
  readonly history: readonly PastCall[];
  /** The simulation clock as an ISO-8601 timestamp; conditions read it as `now`. */
  readonly now: string;
}

/** How one rule fared for this call, in the order the rules were tried. */
export interface RuleTrace {
  readonly rule: string;
  readonly outcome: 'matched' | 'no-match' | 'skipped' | 'failed';
  readonly detail: string;
}

/** The verdict on a tool call, with the rule (or default) that gave it and why. */
export interface GuardDecision {
  readonly allowed: boolean;
  readonly decidedBy:
    | { readonly kind: 'rule'; readonly rule: GuardRule }
    | { readonly kind: 'default'; readonly decision: 'allow' | 'deny' }
    | { readonly kind: 'unguarded' }
    | { readonly kind: 'unknown-tool' };
  /** What happens next when the call is refused. */
  readonly fallback: 'message' | 'end' | 'ask_user' | undefined;
  /** A sentence for the agent (when refused) and for the person reading the log. */
  readonly reason: string;
  readonly trace: readonly RuleTrace[];
}

/**
 * Judges a tool call against the project's guard rules. Rules of the tool are tried in the order
 * written and the first that matches decides. A condition that reads a missing argument refuses
 * the call (no silent bypass) unless its rule says `if_missing: skip`; a condition that fails to
 * evaluate refuses it too, and so does one that runs past the step budget the rules of one call
 * share (`CEL_STEP_BUDGET`). When no rule matches, the tool's `default` applies (allow unless the
 * author wrote `deny`).
 */
export function decideToolCall(
  model: ProjectModel,
  call: ToolCall,
  context: GuardContext,
): GuardDecision {
  if (!model.tools.some((t) => t.name === call.tool)) {
    return {
      allowed: false,
      decidedBy: { kind: 'unknown-tool' },
      fallback: 'message',
      reason: `There is no tool named "${call.tool}".`,
      trace: [],
    };
  }
  const guards = model.guards.find((g) => g.tool === call.tool);
  if (!guards) {
    return {
      allowed: true,
      decidedBy: { kind: 'unguarded' },
      fallback: undefined,
      reason: `No guard rules cover "${call.tool}", so the call is allowed.`,
      trace: [],
    };
  }

  const variables = guardVariables(typedCall(model, call), {
    ...context,
    history: context.history.map((past) => typedCall(model, past)),
  });
  // The rules of one call share one step budget (celMeter.ts): no call costs more than that.
  return withCelBudget(
    () => decideByRules(call.tool, guards, variables),
    'guards',
    CEL_STEP_BUDGET,
  );
}

function decideByRules(
  tool: string,
  guards: ToolGuards,
  variables: Readonly<Record<string, unknown>>,
): GuardDecision {
  const trace: RuleTrace[] = [];
  for (const rule of guards.rules) {
    const outcome = evaluateRule(rule, variables);
    trace.push({ rule: rule.id, ...outcome });
    if (outcome.outcome === 'matched') return ruled(rule, rule.decision === 'allow', trace);
    if (outcome.outcome === 'failed') {
      // The rule could not be checked: refuse, and tell the agent why rather than the rule's text.
      return {
        allowed: false,
        decidedBy: { kind: 'rule', rule },
        fallback: 'message',
        reason: outcome.detail,
        trace,
      };
    }
  }
  const allowed = guards.defaultDecision === 'allow';
  return {
    allowed,
    decidedBy: { kind: 'default', decision: guards.defaultDecision },
    fallback: allowed ? undefined : 'message',
    reason: allowed
      ? `No rule of "${tool}" matched; its default allows the call.`
      : `No rule of "${tool}" allowed the call, and its default is deny.`,
    trace,
  };
}

function ruled(rule: GuardRule, allowed: boolean, trace: RuleTrace[]): GuardDecision {
  return {
    allowed,
    decidedBy: { kind: 'rule', rule },
    fallback: allowed ? undefined : rule.fallback,
    reason: allowed
      ? `Allowed by "${rule.id}" (${rule.policy}).`
      : (rule.message ?? `Refused by "${rule.id}" (${rule.policy}).`),
    trace,
  };
}

/** Tries one rule against prepared condition variables; lint uses it to search for overlaps. */
export function evaluateRule(
  rule: GuardRule,
  variables: Readonly<Record<string, unknown>>,
): Omit<RuleTrace, 'rule'> {
  if (rule.when === undefined)
    return { outcome: 'matched', detail: `"${rule.id}" has no condition, so it always applies.` };
  const compiled = compileCel(rule.when);
  if (isCelProblem(compiled)) {
    return {
      outcome: 'failed',
      detail: `"${rule.id}" cannot be checked: its condition is not valid CEL (${compiled.message}).`,
    };
  }
  try {
    const value = compiled.run(variables);
    if (value === true)
      return { outcome: 'matched', detail: `The condition of "${rule.id}" holds.` };
    if (value === false)
      return { outcome: 'no-match', detail: `The condition of "${rule.id}" does not hold.` };
    return {
      outcome: 'failed',
      detail: `"${rule.id}" cannot decide: its condition gave ${describeValue(value)}, not true or false.`,
    };
  } catch (error) {
    if (error instanceof CelRunError && error.missing !== undefined) {
      if (rule.ifMissing === 'skip') {
        return {
          outcome: 'skipped',
          detail: `"${rule.id}" reads "${error.missing}", which is missing; the rule says to skip it.`,
        };
      }
      return {
        outcome: 'failed',
        detail: `The call is refused: "${rule.id}" needs "${error.missing}", which is missing.`,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      outcome: 'failed',
      detail: `The call is refused: "${rule.id}" could not be evaluated ${aside(message)}.`,
    };
  }
}

/** A short rendering of a CEL result for messages (CEL integers arrive as BigInt). */
function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  try {
    // JSON.stringify gives undefined for undefined and functions, whatever its type says.
    const text = JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    ) as string | undefined;
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A call with its arguments typed by its tool's parameter schema (`typedArgs`: a declared
 * integer is a CEL int), as conditions see it; a call to an unknown tool is returned as it is.
 */
export function typedCall<T extends ToolCall>(model: ProjectModel, call: T): T {
  const tool = model.tools.find((t) => t.name === call.tool);
  return tool ? { ...call, args: typedArgs(tool.parameters, call.args) } : call;
}

/** The variables a guard condition sees for a call (docs/format.md). */
export function guardVariables(
  call: ToolCall,
  context: GuardContext,
): Readonly<Record<string, unknown>> {
  return {
    args: call.args,
    db: context.db,
    history: context.history,
    tool: call.tool,
    now: new Date(context.now),
  };
}
