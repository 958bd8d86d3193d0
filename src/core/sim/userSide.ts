import { sideOfEntity } from '../format/dualControl.ts';
import type { ProjectModel, Tool } from '../format/model.ts';
import type { ToolSpec } from '../models/chat.ts';
import type { ExpectedArgs } from '../format/model.ts';
import { argDifferences } from './actionMatch.ts';
import type { Transcript, TranscriptCall } from './transcript.ts';
import { describeCall, ordinal, succeeded } from './transcript.ts';

/*
 * Dual control in a dialogue (docs/format.md, "Dual control"): which tools each side is offered,
 * and the agent's part of a transcript, which its checks and expectations judge.
 */

/** The tools of one side, as the chat protocol offers them. */
export function toolSpecsOf(model: ProjectModel, side: 'agent' | 'user'): ToolSpec[] {
  return model.tools
    .filter((t) => sideOfEntity(t) === side && t.runs === undefined)
    .map((t: Tool) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters as Record<string, unknown>,
    }));
}

/** Whether a call was the agent's (not the user's, nor a setup call). */
export function isAgentCall(call: TranscriptCall): boolean {
  return call.by === undefined;
}

/**
 * The transcript as the agent's checks read it: only the agent's calls, so a user's call never
 * counts for or against a rule that holds the agent. The same object when there is nothing else.
 */
export function agentSide(transcript: Transcript): Transcript {
  if (transcript.calls.every(isAgentCall)) return transcript;
  return {
    ...transcript,
    calls: transcript.calls.filter(isAgentCall),
    messages: transcript.messages.map((m) =>
      m.speaker === 'agent' ? m : { ...m, calls: m.calls.filter(isAgentCall) },
    ),
  };
}

/** The calls the simulated user made with its own tools. */
export function userCalls(transcript: Transcript): TranscriptCall[] {
  return transcript.calls.filter((c) => c.by === 'user');
}

/** What a required action of the user's (`requestor: user`) concluded. */
export interface UserActionVerdict {
  readonly passed: boolean;
  readonly detail: string;
  readonly turn?: number;
}

/**
 * Judges a required action the simulated user must make (`requestor: user`) over the user's own
 * calls: with `args`, met by a call with the expected values for the compared arguments (as
 * tau2-bench matches actions, an error from the tool still counts); without, by a call that ran.
 */
export function userRequired(
  transcript: Transcript,
  tool: string,
  expected: ExpectedArgs | undefined,
): UserActionVerdict {
  const attempts = userCalls(transcript).filter((c) => c.tool === tool);
  const met = attempts.find((c) =>
    expected ? argDifferences(expected, c.args).length === 0 : succeeded(c),
  );
  const wanted = expected ? describeCall({ tool, args: expected.args }) : tool;
  if (met)
    return {
      passed: true,
      detail: `In their ${ordinal(met.reply)} message the user called ${describeCall(met)}, as expected.`,
    };
  const last = attempts.at(-1);
  if (!last) return { passed: false, detail: `The user never called ${wanted}.` };
  const tried = attempts.map(describeCall).join(', ');
  return {
    passed: false,
    detail: `The user called ${tool} ${attempts.length === 1 ? 'once' : `${attempts.length} times`} but never as expected (${wanted}): ${tried}.`,
    turn: last.turn,
  };
}
