import { ModelError } from '../models/errors.ts';
import type { Player } from './dialogue.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { judgeSession, quoteFound, verdictSchema } from './judge.ts';
import type { CallContext } from './modelCall.ts';
import type { PromptTemplate } from './prompts.ts';
import { ASSERTION_JUDGE_PROMPT, renderPrompt } from './prompts.ts';
import type { Transcript } from './transcript.ts';
import { assertionId } from './assertionOpinions.ts';

/*
 * A scenario's natural-language assertions (`expected.assertions`, tau2-bench's
 * `nl_assertions`), each put to the judge model after the dialogue. What it answers is an
 * opinion, logged as an `assertion` event apart from the deterministic findings: it fails a
 * dialogue only where its scenario is graded by its assertions (`graded_by`, dialogueFold.ts). An
 * assertion the judge did not answer has no event and shows as not judged
 * (`assertionOpinions`), never as met.
 */

/** The JSON the judge answers an assertion with. */
export const ASSERTION_SCHEMA = verdictSchema('met');

interface Answer {
  readonly met: boolean;
  readonly turn: number | null;
  readonly reason: string;
  readonly evidence: string;
}

/** What judging assertions needs: the judge model, time, money, cancel, and where events go. */
export interface AssertionJudgeDeps extends CallContext {
  readonly judge: Player;
  /** Replaces `ASSERTION_JUDGE_PROMPT` (a project's own version). */
  readonly template?: PromptTemplate;
  /** True once the run's budget is spent: the assertions left are not asked. */
  readonly overBudget?: () => boolean;
}

/** The events logged (usage and `assertion`, in order) and the assertions left without an opinion. */
export interface AssertionJudgeResult {
  readonly events: SimEvent[];
  readonly skipped: { readonly id: string; readonly error: string }[];
}

/**
 * Asks the judge model about each of the scenario's assertions, one call each (every call's
 * usage logged, failed ones too). The answer is held to the transcript as the policy judge's is:
 * a turn must be an agent turn and a quote must be in the conversation; a bad answer gets one
 * repair turn, and what still cannot be confirmed is left out of the event and said in its reason.
 * A judge that fails, a stopped run or a spent budget leaves an assertion without an event (it
 * is then not judged). Never throws a ModelError.
 */
export async function judgeAssertions(
  scenario: SimScenario,
  transcript: Transcript,
  deps: AssertionJudgeDeps,
): Promise<AssertionJudgeResult> {
  const skipped: AssertionJudgeResult['skipped'] = [];
  const assertions = scenario.expected.assertions ?? [];
  if (assertions.length === 0) return { events: [], skipped };
  const session = judgeSession<Answer>(transcript, deps, {
    name: 'assertion_verdict',
    schema: ASSERTION_SCHEMA,
  });
  const { agentTurns, sources } = session;
  for (const [i, assertion] of assertions.entries()) {
    const id = assertionId(i);
    const stopped = session.stopped();
    if (stopped !== undefined) {
      skipped.push({ id, error: stopped });
      continue;
    }
    const system = renderPrompt(deps.template ?? ASSERTION_JUDGE_PROMPT, {
      assertion: assertion.text,
      transcript: session.shown,
    });
    try {
      const answer = await session.ask(system, (a) => review(a, agentTurns, sources).problems);
      const checked = review(answer, agentTurns, sources);
      session.emit({
        type: 'assertion',
        at: deps.clock(),
        dialogue: transcript.dialogue,
        id,
        text: assertion.text,
        ...(assertion.policy !== undefined && { policy: assertion.policy }),
        met: answer.met,
        ...(checked.turn === undefined ? {} : { turn: checked.turn }),
        reason: [answer.reason, ...checked.notes].join(' ').trim(),
        evidence: checked.evidenceFound ? answer.evidence : '',
      });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      skipped.push({ id, error: error.message });
    }
  }
  return { events: session.events, skipped };
}

/**
 * An assertion's answer held to the transcript. Unlike a policy's violation, an unmet assertion
 * may have no turn or quote (the agent never did what it says); only what is given is checked.
 */
function review(
  answer: Answer,
  agentTurns: ReadonlySet<number>,
  sources: readonly string[],
): { problems: string[]; notes: string[]; turn?: number; evidenceFound: boolean } {
  const problems: string[] = [];
  const notes: string[] = [];
  const { turn, evidence } = answer;
  const turnHolds = turn !== null && agentTurns.has(turn);
  if (turn !== null && !turnHolds) {
    const turns = [...agentTurns].sort((a, b) => a - b).join(', ');
    problems.push(`Turn ${turn} is not an agent turn (agent turns: ${turns}).`);
    notes.push(`(The judge named turn ${turn}, which is not an agent turn.)`);
  }
  const quoted = evidence.trim() !== '';
  const evidenceFound = quoted && quoteFound(evidence, sources);
  if (quoted && !evidenceFound) {
    const clipped = evidence.length > 200 ? `${evidence.slice(0, 199)}…` : evidence;
    problems.push(
      `Your evidence "${clipped}" is not in the conversation: copy the words exactly as written.`,
    );
    notes.push(`(Its quote was not found in the transcript: "${clipped}".)`);
  }
  return { problems, notes, ...(turnHolds ? { turn } : {}), evidenceFound };
}
