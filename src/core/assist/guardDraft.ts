import type { Policy, ProjectModel } from '../format/model.ts';
import type { ChatMessage } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { CallContext, Player } from '../sim/modelCall.ts';
import { loggedChat } from '../sim/modelCall.ts';
import type { PromptTemplate } from '../sim/prompts.ts';
import { GUARD_DRAFT_ASKS, guardDraftFix, renderPrompt } from '../sim/prompts.ts';
import type { AssistPlanSize, AssistSpent } from './assistCost.ts';
import { meteredContext, tokensOf } from './assistCost.ts';
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

/** A draft that passed every check, with what it decides; or why none can be offered. */
export type GuardDraftResult =
  | ({
      readonly ok: true;
      readonly draft: GuardDraft;
      /** Whether the first draft had problems that the repair turn fixed. */
      readonly repaired: boolean;
      readonly spent: AssistSpent;
    } & Omit<DraftCheck, 'problems'>)
  | {
      readonly ok: false;
      /** Why, in words: the problems of the last draft, the model's failure, or a stop. */
      readonly why: readonly string[];
      readonly stopped: boolean;
      readonly spent: AssistSpent;
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

/** The most a draft answer is expected to be, in tokens. */
const ANSWER_TOKENS = 600;

/**
 * The size shown before drafting: one call, two with the repair turn (which resends the prompt
 * and the first answer); tokens counted for both, so the price is the most it can cost.
 */
export function sizeGuardDraft(
  model: ProjectModel,
  policy: Policy,
  template?: PromptTemplate,
): AssistPlanSize {
  const prompt = tokensOf(guardDraftPrompt(model, policy, template)) + tokensOf(GUARD_DRAFT_ASKS);
  return {
    calls: 1,
    maxCalls: 2,
    inputTokens: prompt + (prompt + 2 * ANSWER_TOKENS),
    outputTokens: 2 * ANSWER_TOKENS,
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
  const { context, spent } = meteredContext<CallContext>(deps);
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

function failed(why: readonly string[], stopped: boolean, spent: AssistSpent): GuardDraftResult {
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
