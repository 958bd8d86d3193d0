import type { ChatEngine, ChatRequest, Database, ProjectModel, SimEvent } from '../core/index.ts';
import { runSimulation } from '../core/index.ts';
import { testScenario } from '../core/testing/scenarios.ts';
import { REFUND_PLAN, goalUser } from './refundDesk.ts';
import { modelReply, waitingRuntime } from './scriptedModels.ts';

/** A tool call as a test writes it. */
export interface Call {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** What a run's guard said about one call, as its log records it. */
export interface GuardSaid {
  readonly allowed: boolean;
  readonly rule: string | undefined;
  readonly reason: string;
}

/**
 * How a real run's guard decides `call`: one dialogue on `model` whose scenario brings `rows`,
 * in which a scripted agent makes the `earlier` calls and then `call`. For comparing with what
 * the rule playground and lint say about the same call.
 */
export async function guardInRun(
  model: ProjectModel,
  rows: Database,
  call: Call,
  earlier: readonly Call[] = [],
): Promise<GuardSaid> {
  const calls = [...earlier, call];
  const agent: ChatEngine = {
    chat(request: ChatRequest) {
      const made = request.messages.filter((m) => m.role === 'tool').length;
      const next = calls[made];
      return Promise.resolve(
        next ? modelReply('', [{ name: next.tool, args: next.args }]) : modelReply('Done.'),
      );
    },
  };
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(
    model,
    {
      ...REFUND_PLAN,
      scenarios: [{ scenario: testScenario({ rows }), source: 'hand-written' }],
      trials: 1,
      concurrency: 1,
      agent: { engine: agent, model: 'agent-model' },
      user: { engine: goalUser, model: 'user-model' },
    },
    {
      runtime: waitingRuntime().runtime,
      clock: () => tick++,
      emit: (event) => events.push(event),
    },
  );
  // Call ids are per agent message, so the guard's event is the first for that id after the call.
  const made = events.filter((e) => e.type === 'tool-call').at(calls.length - 1);
  const after = made ? events.slice(events.indexOf(made)) : [];
  const guard = after.find((e) => e.type === 'guard' && made && e.call === made.call);
  if (guard?.type !== 'guard' || made?.tool !== call.tool) {
    throw new Error(`The run never judged ${call.tool}: ${JSON.stringify(events, null, 1)}`);
  }
  return { allowed: guard.allowed, rule: guard.rule, reason: guard.reason };
}
