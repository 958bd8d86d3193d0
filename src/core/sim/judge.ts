import type { ProjectModel } from '../format/model.ts';
import type { ChatMessage } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { Player } from './dialogue.ts';
import type { SimEvent, SimScenario } from './events.ts';
import type { CallContext } from './modelCall.ts';
import { loggedChat } from './modelCall.ts';
import type { PromptTemplate } from './prompts.ts';
import { JUDGE_ASKS, POLICY_JUDGE_PROMPT, judgeFix, renderPrompt } from './prompts.ts';
import type { Transcript } from './transcript.ts';
import { describeCall } from './transcript.ts';

/** What the judge model concluded about one policy, after PolicyLab checked its answer. */
export interface JudgeVerdict {
  readonly policy: string;
  readonly violated: boolean;
  /** The agent turn where it was first broken; only for a violation naming a real agent turn. */
  readonly turn?: number;
  /** The judge's own words. */
  readonly reason: string;
  /** The judge's quote, as it wrote it. */
  readonly evidence: string;
  /** Whether the quote is in the transcript (whitespace, case and curly quotes aside). */
  readonly evidenceFound: boolean;
  /** What could not be confirmed in the answer, in words; empty when all of it held. */
  readonly notes: readonly string[];
}

/** What judging needs: the judge model, time, money, cancel, and where events go. */
export interface JudgeDeps extends CallContext {
  readonly judge: Player;
  /** Replaces `POLICY_JUDGE_PROMPT` (a project's own version). */
  readonly template?: PromptTemplate;
  /** True once the run's budget is spent: the policies left are skipped. */
  readonly overBudget?: () => boolean;
  /**
   * How many times to ask about each policy (a run's `judgeRepeats`, 1 unless set): asked more
   * than once, the judge samples (temperature 0.7) and the report shows how far its answers agree.
   */
  readonly repeats?: number;
}

/** The verdicts, the `usage` and `judge` events in the order they happened, and what was skipped. */
export interface JudgeResult {
  readonly verdicts: JudgeVerdict[];
  readonly events: SimEvent[];
  /** Policies with no opinion: the judge failed (provider, model), the run stopped, or unknown. */
  readonly skipped: { readonly policy: string; readonly error: string }[];
}

/** What asking the judge about one dialogue needs (the policy judge's and the assertion judge's). */
export type JudgeSessionDeps = CallContext & {
  readonly judge: Player;
  readonly overBudget?: () => boolean;
  /** 0 (the default) for one settled answer; more to sample. */
  readonly temperature?: number;
};

/** One dialogue put to the judge: the transcript as it reads it, and asking it questions. */
export interface JudgeSession<A> {
  /** The `usage` events of its calls, in order (and whatever else the caller emits). */
  readonly events: SimEvent[];
  readonly emit: (event: SimEvent) => void;
  /** Agent turns an answer may name, and the texts its quote must be found in. */
  readonly agentTurns: ReadonlySet<number>;
  readonly sources: readonly string[];
  /** The transcript as the judge reads it (`renderTranscript`). */
  readonly shown: string;
  /** Why no more questions may be asked (the run stopped or its budget is spent), if so. */
  stopped: () => string | undefined;
  /**
   * Asks with `system` as the system prompt; an answer `problems` finds fault with gets one
   * follow-up turn saying what. Resolves with the last answer; throws a ModelError when a call
   * fails or gives no JSON.
   */
  ask: (system: string, problems: (answer: A) => readonly string[]) => Promise<A>;
}

/** Opens a judging session over `transcript`; answers must fit `schema` (named `name`). */
export function judgeSession<A>(
  transcript: Transcript,
  deps: JudgeSessionDeps,
  schema: { readonly name: string; readonly schema: Readonly<Record<string, unknown>> },
): JudgeSession<A> {
  const events: SimEvent[] = [];
  const emit = (event: SimEvent) => {
    events.push(event);
    deps.emit?.(event);
  };
  const call = async (messages: readonly ChatMessage[]) => {
    const response = await loggedChat(
      'judge',
      deps.judge,
      { messages, responseSchema: schema, temperature: deps.temperature ?? 0, maxTokens: 500 },
      { ...deps, emit },
      { dialogue: transcript.dialogue },
    );
    if (response.json === undefined)
      throw new ModelError('malformed-output', 'The judge answered without a JSON verdict.');
    return { answer: response.json as A, raw: response.message.content };
  };
  return {
    events,
    emit,
    shown: renderTranscript(transcript),
    sources: transcriptTexts(transcript).map(normalise),
    agentTurns: new Set([
      ...transcript.messages.filter((m) => m.speaker === 'agent').map((m) => m.turn),
      ...transcript.calls.map((c) => c.turn),
    ]),
    stopped: () =>
      deps.signal?.aborted
        ? 'The run was stopped.'
        : deps.overBudget?.()
          ? 'The run’s budget was spent.'
          : undefined,
    ask: async (system, problems) => {
      const messages: ChatMessage[] = [
        { role: 'system', content: system },
        { role: 'user', content: JUDGE_ASKS },
      ];
      const first = await call(messages);
      const wrong = problems(first.answer);
      if (wrong.length === 0) return first.answer;
      messages.push(
        { role: 'assistant', content: first.raw },
        { role: 'user', content: judgeFix(wrong) },
      );
      return (await call(messages)).answer;
    },
  };
}

/**
 * The JSON a judge answers with: its finding as one flag named `flag` (`violated` for a policy,
 * `met` for an assertion), the agent turn it points at or null, its reason, and a quote.
 */
export function verdictSchema(flag: string): Readonly<Record<string, unknown>> {
  return {
    type: 'object',
    properties: {
      [flag]: { type: 'boolean' },
      turn: { type: ['integer', 'null'] },
      reason: { type: 'string' },
      evidence: { type: 'string' },
    },
    required: [flag, 'turn', 'reason', 'evidence'],
    additionalProperties: false,
  };
}

/** The JSON the judge answers a policy with. */
export const JUDGE_SCHEMA = verdictSchema('violated');

interface Answer {
  readonly violated: boolean;
  readonly turn: number | null;
  readonly reason: string;
  readonly evidence: string;
}

/**
 * The policies in play in a dialogue, as the judge is asked about them: the scenario's, those
 * that govern a tool the agent called (policies.yaml `tools:`), and those whose rules fired
 * (`fired`: a guard's or precondition's refusal, a failed check), in that order, each once.
 */
export function policiesInPlay(
  model: ProjectModel,
  scenario: SimScenario,
  transcript: Transcript,
  fired: readonly string[] = [],
): string[] {
  const called = new Set(transcript.calls.filter((c) => c.by === undefined).map((c) => c.tool));
  const refused = transcript.calls.flatMap((c) => [
    ...(c.guard && !c.guard.allowed && c.guard.policy !== undefined ? [c.guard.policy] : []),
    ...(c.result?.refusedBy ? [c.result.refusedBy.policy] : []),
  ]);
  return [
    ...new Set([
      ...scenario.policies,
      ...model.policies.filter((p) => p.tools.some((t) => called.has(t))).map((p) => p.id),
      ...refused,
      ...fired,
    ]),
  ];
}

/**
 * The model judge (DESIGN.md, "Judging, in order of trust", 3): asks the judge model, once per
 * policy in play (`policiesInPlay`: the scenario's, the tools', the rules' that fired), whether
 * the agent broke it in this transcript. Each answer is
 * held to the transcript: a violation must name a real agent turn and quote the conversation word
 * for word. A bad answer gets one follow-up turn saying what was wrong; if it is still bad, the
 * verdict stands (it is the model's opinion) but what could not be confirmed is left out of the
 * `judge` event (no turn, empty evidence) and said in its reason, so the log never presents an
 * unfound quote as evidence or a wrong turn as the turn. A judge that
 * fails (a ModelError: provider down, unusable JSON) gives no opinion on that policy: its usage
 * and a `judge-failed` event saying why are logged, and it is listed in `skipped`; the others go on. So does a
 * policy the project does not have, and every policy left once the run is cancelled or over
 * budget. Never throws a ModelError.
 */
export async function judgeDialogue(
  model: ProjectModel,
  scenario: SimScenario,
  transcript: Transcript,
  deps: JudgeDeps,
  fired: readonly string[] = [],
): Promise<JudgeResult> {
  const repeats = Math.max(1, deps.repeats ?? 1);
  const session = judgeSession<Answer>(
    transcript,
    { ...deps, ...(repeats > 1 && { temperature: 0.7 }) },
    { name: 'policy_verdict', schema: JUDGE_SCHEMA },
  );
  const { agentTurns, sources } = session;
  const verdicts: JudgeVerdict[] = [];
  const skipped: JudgeResult['skipped'] = [];
  for (const id of policiesInPlay(model, scenario, transcript, fired)) {
    const policy = model.policies.find((p) => p.id === id);
    const stopped = session.stopped();
    if (!policy || stopped !== undefined) {
      skipped.push({ policy: id, error: stopped ?? `"${id}" is not a policy of the project.` });
      continue;
    }
    const system = renderPrompt(deps.template ?? POLICY_JUDGE_PROMPT, {
      policy_id: policy.id,
      policy: policy.text,
      transcript: session.shown,
    });
    // Asked `repeats` times; a failure ends this policy's asking (it is logged once).
    for (let asked = 0; asked < repeats; asked++) {
      try {
        const answer = await session.ask(system, (a) => review(a, agentTurns, sources).problems);
        const checked = review(answer, agentTurns, sources);
        const verdict: JudgeVerdict = {
          policy: policy.id,
          violated: answer.violated,
          ...(checked.turn === undefined ? {} : { turn: checked.turn }),
          reason: answer.reason,
          evidence: answer.evidence,
          evidenceFound: checked.evidenceFound,
          notes: checked.notes,
        };
        verdicts.push(verdict);
        session.emit({
          type: 'judge',
          at: deps.clock(),
          dialogue: transcript.dialogue,
          policy: verdict.policy,
          violated: verdict.violated,
          ...(verdict.turn === undefined ? {} : { turn: verdict.turn }),
          reason: [verdict.reason, ...verdict.notes].join(' ').trim(),
          evidence: verdict.evidenceFound ? verdict.evidence : '',
        });
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        skipped.push({ policy: id, error: error.message });
        // Logged, so the report says the judge failed here, never that it found nothing.
        session.emit({
          type: 'judge-failed',
          at: deps.clock(),
          dialogue: transcript.dialogue,
          policy: id,
          error: error.message,
        });
        break;
      }
      if (session.stopped() !== undefined) break;
    }
  }
  return { verdicts, events: session.events, skipped };
}

/** The answer held to the transcript: `problems` to tell the judge, `notes` for a person. */
function review(
  answer: Answer,
  agentTurns: ReadonlySet<number>,
  sources: readonly string[],
): { problems: string[]; notes: string[]; turn?: number; evidenceFound: boolean } {
  const problems: string[] = [];
  const notes: string[] = [];
  const turns = [...agentTurns].sort((a, b) => a - b).join(', ');
  const { violated, turn, evidence } = answer;
  const turnHolds = violated && turn !== null && agentTurns.has(turn);
  if (violated && turn === null) {
    problems.push(`You say the policy was violated but name no turn (agent turns: ${turns}).`);
    notes.push('(The judge named no turn.)');
  } else if (violated && !turnHolds) {
    problems.push(`Turn ${turn ?? '?'} is not an agent turn (agent turns: ${turns}).`);
    notes.push(`(The judge named turn ${turn ?? '?'}, which is not an agent turn.)`);
  }
  const quoted = evidence.trim() !== '';
  const evidenceFound = quoted && quoteFound(evidence, sources);
  if (violated && !quoted) {
    problems.push('You quote no evidence.');
    notes.push('(The judge quoted nothing.)');
  } else if (quoted && !evidenceFound) {
    problems.push(
      `Your evidence "${clip(evidence, 200)}" is not in the conversation: copy the words exactly as written.`,
    );
    notes.push(`(Its quote was not found in the transcript: "${clip(evidence, 200)}".)`);
  }
  return { problems, notes, ...(turnHolds ? { turn } : {}), evidenceFound };
}

/**
 * The dialogue as the judge reads it: one `[turn] speaker: text` line per message, the agent's
 * tool calls under their turn with a guard's refusal and the result (clipped to `maxResult`
 * characters), and how it ended.
 */
export function renderTranscript(transcript: Transcript, maxResult = 600): string {
  const turns = [
    ...new Set([...transcript.messages.map((m) => m.turn), ...transcript.calls.map((c) => c.turn)]),
  ].sort((a, b) => a - b);
  const lines: string[] = [];
  for (const turn of turns) {
    const said = transcript.messages.filter((m) => m.turn === turn);
    if (said.length === 0) lines.push(`[${turn}] agent: (no message)`);
    for (const m of said) {
      const text = m.text.trim() === '' ? '(no words)' : m.text.trim().replace(/\n/g, '\n    ');
      lines.push(`[${turn}] ${m.speaker}: ${text}`);
    }
    for (const call of transcript.calls.filter((c) => c.turn === turn)) {
      const who =
        call.by === 'setup'
          ? 'before the conversation, set up: '
          : call.by === 'user'
            ? 'the user calls '
            : 'calls ';
      lines.push(`    ${who}${describeCall(call)}`);
      const { guard, result } = call;
      if (guard && !guard.allowed) {
        const by = guard.rule === undefined ? '' : ` by rule "${guard.rule}"`;
        lines.push(`    guard: refused${by}: ${guard.reason}`);
      }
      if (result) {
        lines.push(`    result${result.ok ? '' : ' (not done)'}: ${clip(result.text, maxResult)}`);
      }
    }
  }
  const { ending } = transcript;
  if (ending) lines.push(`(The conversation ended: ${ending.reason}. ${ending.detail})`);
  return lines.join('\n');
}

/** Every text a quote may come from: messages, calls as written, guard reasons, results. */
export function transcriptTexts(transcript: Transcript): string[] {
  return [
    ...transcript.messages.map((m) => m.text),
    ...transcript.calls.flatMap((c) => [
      describeCall(c),
      ...(c.guard ? [c.guard.reason] : []),
      ...(c.result ? [c.result.text] : []),
    ]),
  ];
}

/**
 * Whether a quote is in one of the (normalised) texts. An ellipsis splits it into parts that must
 * each be there, as judges quote "A ... B"; quote marks around a part are dropped.
 */
export function quoteFound(evidence: string, sources: readonly string[]): boolean {
  const parts = evidence
    .split(/\.\.\.|…/)
    .map((p) => normalise(p).replace(/^["']+|["']+$/g, ''))
    .filter((p) => p !== '');
  return parts.length > 0 && parts.every((part) => sources.some((s) => s.includes(part)));
}

/** Case, curly quotes, dashes and whitespace aside: models re-space JSON and re-wrap lines. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, '');
}

function clip(text: string, max: number): string {
  return text.length > max
    ? `${text.slice(0, max - 1)}… (${text.length - max + 1} more characters)`
    : text;
}
