import type { Policy, ProjectModel } from '../format/model.ts';
import type { ChatMessage } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { PriceTable } from '../models/usage.ts';
import { callCost } from '../models/usage.ts';
import type { SimEvent } from '../sim/events.ts';
import type { CallContext, Player } from '../sim/modelCall.ts';
import { loggedChat } from '../sim/modelCall.ts';
import type { PromptTemplate } from '../sim/prompts.ts';
import { GUARD_DRAFT_ASKS, guardDraftFix, renderPrompt } from '../sim/prompts.ts';
import { GUARD_DRAFT_PROMPT } from './guardPrompt.ts';
import type { DraftCheck, DraftExample, GuardDraft } from './guardCheck.ts';
import { checkDraft } from './guardCheck.ts';
import { guardability } from './guardable.ts';

/** What drafting needs: the model, its prompt, and the context every model call gets. */
export interface GuardDraftDeps extends CallContext {
  readonly drafter: Player;
  /** Replaces `GUARD_DRAFT_PROMPT` (the project's `prompts: guard_draft`). */
  readonly template?: PromptTemplate;
  /** The time conditions see as `now` when the project fixes none (database.yaml `now:`). */
  readonly now: string;
}

/** What a drafting cost: its calls (failed ones too), tokens and dollars (null when unpriced). */
export interface Spent {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number | null;
}

/** A draft that passed every check, with what it decides; or why none can be offered. */
export type GuardDraftResult =
  | ({
      readonly ok: true;
      readonly draft: GuardDraft;
      /** Whether the first draft had problems that the repair turn fixed. */
      readonly repaired: boolean;
      readonly spent: Spent;
    } & Omit<DraftCheck, 'problems'>)
  | {
      readonly ok: false;
      /** Why, in words: the problems of the last draft, the model's failure, or a stop. */
      readonly why: readonly string[];
      readonly stopped: boolean;
      readonly spent: Spent;
    };

/** The JSON a drafter must answer with (checkedChat holds it to this before we look). */
export const GUARD_DRAFT_SCHEMA = {
  type: 'object',
  required: ['id', 'tool', 'decision', 'when', 'fallback', 'message', 'examples'],
  properties: {
    id: { type: 'string' },
    tool: { type: 'string' },
    decision: { enum: ['allow', 'forbid'] },
    when: { type: 'string', minLength: 1 },
    fallback: { enum: ['message', 'end', 'ask_user'] },
    message: { type: 'string' },
    examples: {
      type: 'array',
      items: {
        type: 'object',
        required: ['args', 'expect'],
        properties: {
          args: { type: 'object' },
          expect: { enum: ['allow', 'forbid'] },
          why: { type: 'string' },
        },
      },
    },
  },
} as const;

/** The drafter's system prompt for a policy: the template filled in from the project. */
export function guardDraftPrompt(
  model: ProjectModel,
  policy: Policy,
  template: PromptTemplate = GUARD_DRAFT_PROMPT,
): string {
  const tools = model.tools
    .filter((t) => policy.tools.includes(t.name) && t.side !== 'user')
    .map((t) => `- ${t.name} (${t.kind}): ${t.description}\n  ${JSON.stringify(t.parameters)}`);
  const tables = model.tables
    .filter((t) => t.side !== 'user')
    .map((t) => {
      const columns = t.columns.map((c) => `${c.name} ${c.type}`).join(', ');
      const rows = t.rows.slice(0, 3).map((r) => `    ${JSON.stringify(r)}`);
      return `- ${t.name} (key: ${t.key}): ${columns}${rows.length > 0 ? `\n${rows.join('\n')}` : ''}`;
    });
  return renderPrompt(template, {
    policy_id: policy.id,
    policy: policy.text,
    tools: tools.join('\n') || '(none)',
    tables: tables.join('\n') || '(none)',
  });
}

/** What drafting is expected to cost before it runs: calls (one, two with the repair), tokens, dollars. */
export interface DraftEstimate {
  readonly calls: { readonly least: number; readonly most: number };
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Dollars at most; null when the model has no price. */
  readonly cost: number | null;
}

/** About four characters a token: good enough to say what a call will cost. */
const CHARS_PER_TOKEN = 4;
/** The most a draft answer is expected to be. */
const ANSWER_TOKENS = 600;

/**
 * The estimate shown before drafting: the prompt's size in tokens (at four characters each),
 * the answer's, and the repair turn's, which resends both; the cost at most of two calls.
 */
export function estimateGuardDraft(
  model: ProjectModel,
  policy: Policy,
  drafter: string,
  prices: PriceTable,
  template?: PromptTemplate,
): DraftEstimate {
  const prompt = Math.ceil(
    (guardDraftPrompt(model, policy, template).length + GUARD_DRAFT_ASKS.length) / CHARS_PER_TOKEN,
  );
  const inputTokens = prompt + (prompt + 2 * ANSWER_TOKENS);
  const outputTokens = 2 * ANSWER_TOKENS;
  return {
    calls: { least: 1, most: 2 },
    inputTokens,
    outputTokens,
    cost: callCost(drafter, { inputTokens, outputTokens }, prices),
  };
}

/**
 * Asks a model to draft a guard rule for a policy and offers it only when it passes
 * `checkDraft`. A draft with problems is sent back once with them named; if the second is
 * still wrong, or the model fails, drafting fails with why. Every call appends its `usage`
 * event (failed ones too) through `deps.emit`, and what was spent is returned. Cancelling
 * `deps.signal` stops it (reported as stopped, not as a failure of the model).
 */
export async function draftGuard(
  model: ProjectModel,
  policyId: string,
  deps: GuardDraftDeps,
): Promise<GuardDraftResult> {
  const events: SimEvent[] = [];
  const context: CallContext = {
    ...deps,
    emit: (event) => {
      events.push(event);
      deps.emit?.(event);
    },
  };
  const spent = () => spentBy(events);
  const policy = model.policies.find((p) => p.id === policyId);
  if (!policy) return failed([`There is no policy "${policyId}".`], false, spent());
  const can = guardability(model, policy);
  if (!can.offered) return failed([can.why], false, spent());

  const messages: ChatMessage[] = [
    { role: 'system', content: guardDraftPrompt(model, policy, deps.template) },
    { role: 'user', content: GUARD_DRAFT_ASKS },
  ];
  let problems: readonly string[] = [];
  for (const attempt of [0, 1]) {
    let answer;
    try {
      answer = await loggedChat(
        'generator',
        deps.drafter,
        {
          messages,
          responseSchema: { name: 'guard_rule', schema: GUARD_DRAFT_SCHEMA },
        },
        context,
      );
    } catch (error) {
      if (error instanceof ModelError && error.kind === 'aborted')
        return failed(['Stopped before a draft was ready.'], true, spent());
      const message = error instanceof Error ? error.message : String(error);
      return failed([`The model failed: ${message}`], false, spent());
    }
    const draft = draftOf(answer.json, policy.id);
    const check = checkDraft(model, draft, deps.now);
    if (check.problems.length === 0) {
      return {
        ok: true,
        draft,
        repaired: attempt > 0,
        examples: check.examples,
        generated: check.generated,
        spent: spent(),
      };
    }
    problems = check.problems;
    messages.push(answer.message, { role: 'user', content: guardDraftFix(problems) });
  }
  return failed(
    ['The model’s draft still had problems after one repair:', ...problems],
    false,
    spent(),
  );
}

function failed(why: readonly string[], stopped: boolean, spent: Spent): GuardDraftResult {
  return { ok: false, why, stopped, spent };
}

/** The answer (already held to `GUARD_DRAFT_SCHEMA`) as a draft for the policy. */
function draftOf(json: unknown, policy: string): GuardDraft {
  const answer = json as {
    id: string;
    tool: string;
    decision: 'allow' | 'forbid';
    when: string;
    fallback: 'message' | 'end' | 'ask_user';
    message: string;
    examples: { args: Record<string, unknown>; expect: 'allow' | 'forbid'; why?: string }[];
  };
  const examples = answer.examples.map((e): DraftExample => ({
    args: e.args,
    expect: e.expect,
    why: e.why ?? '',
  }));
  // One line for the agent and for rules.yaml, however the model broke it.
  return { ...answer, message: answer.message.replace(/\s+/g, ' ').trim(), policy, examples };
}

/** Calls, tokens and dollars of the `usage` events drafting appended. */
export function spentBy(events: readonly SimEvent[]): Spent {
  let spent: Spent = { calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
  for (const event of events) {
    if (event.type !== 'usage') continue;
    spent = {
      calls: spent.calls + 1,
      inputTokens: spent.inputTokens + event.inputTokens,
      outputTokens: spent.outputTokens + event.outputTokens,
      cost: spent.cost === null || event.cost === null ? null : spent.cost + event.cost,
    };
  }
  return spent;
}
