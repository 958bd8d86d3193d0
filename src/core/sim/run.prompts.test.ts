import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { waitingRuntime } from '../../test/scriptedModels.ts';
import {
  REFUND_PLAN as PLAN,
  REFUND_SAMPLES as SAMPLES,
  goalUser as user,
  refundGenerator as generator,
  refundJudge as judge,
  simulateRefunds as simulate,
} from '../../test/refundDesk.ts';
import { parseProject } from '../format/parseProject.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { SimEvent } from './events.ts';
import { renderTranscript } from './judge.ts';
import { USER_STOP, projectPrompts } from './prompts.ts';
import { runSimulation } from './run.ts';
import { transcriptOf } from './transcript.ts';

const { runtime } = waitingRuntime();

describe('a project with its own prompts', () => {
  const scenarios = `${miniProject().files['scenarios.yaml']}prompts:
  user_simulator: |-
    You play {{persona}}
    What you want: {{goal}}
    Say ${USER_STOP} when done.
  policy_judge: |-
    JUDGE {{policy_id}}: {{policy}}
    CONVERSATION:
    {{transcript}}
`;
  const own = parseProject(miniProject({ 'scenarios.yaml': scenarios })).model;

  it('sends exactly its texts to the simulated user and the judge, and logs their sources', async () => {
    const users: ChatRequest[] = [];
    const judges: ChatRequest[] = [];
    const listening = (engine: ChatEngine, into: ChatRequest[]): ChatEngine => ({
      chat: (request, options) => {
        into.push(request);
        return engine.chat(request, options);
      },
    });
    const events: SimEvent[] = [];
    let tick = 0;
    await runSimulation(
      own,
      {
        ...PLAN,
        scenarios: PLAN.scenarios.slice(0, 1),
        trials: 1,
        user: { engine: listening(user, users), model: 'user-model' },
        judge: { engine: listening(judge, judges), model: 'judge-model' },
        prompts: projectPrompts(own),
      },
      { runtime, clock: () => tick++, emit: (e) => events.push(e) },
    );
    expect(users[0]?.messages[0]).toEqual({
      role: 'system',
      content: `You play A customer.\nWhat you want: Refund order o1.\nSay ${USER_STOP} when done.`,
    });
    const text = (id: string) => own.policies.find((p) => p.id === id)?.text ?? '';
    const transcript = renderTranscript(transcriptOf(events, 'fresh#1'));
    // The scenario's policy, then verify-identity, which governs get_user, called.
    expect(judges.map((r) => r.messages[0]?.content)).toEqual([
      `JUDGE refund-window: ${text('refund-window')}\nCONVERSATION:\n${transcript}`,
      `JUDGE verify-identity: ${text('verify-identity')}\nCONVERSATION:\n${transcript}`,
    ]);
    expect(transcript).toMatch(/^\[0\] user: Refund order o1\./);
    expect(events[0]).toMatchObject({
      type: 'run-started',
      prompts: [
        { id: 'user-simulator', version: 1, source: 'project' },
        { id: 'ask-user', version: 1, source: 'built-in' },
        { id: 'policy-judge', version: 1, source: 'project' },
      ],
    });
  });

  it('logs the built-in prompts of a plan that gives none, the generator’s only when it writes', async () => {
    const { events } = await simulate({
      ...PLAN,
      samples: SAMPLES,
      generator: { engine: generator, model: 'gen-model' },
    });
    expect(events[0]?.type === 'run-started' && events[0].prompts).toEqual([
      { id: 'user-simulator', version: 1, source: 'built-in' },
      { id: 'ask-user', version: 1, source: 'built-in' },
      { id: 'scenario-generator', version: 1, source: 'built-in' },
    ]);
  });
});
