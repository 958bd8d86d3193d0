import type { ChatEngine, ChatRequest, RunPlan, SimEvent } from '../core/index.ts';
import { USER_STOP, handWrittenScenarios, parseProject, runSimulation } from '../core/index.ts';
import type { Project } from '../core/project.ts';
import { phoneProject } from '../core/testing/phoneProject.ts';
import { modelReply as reply, waitingRuntime } from './scriptedModels.ts';

/*
 * Dual control played by scripted models, on the phone project: a carrier's agent that looks the
 * line up and tells the customer to turn data on, and a customer who does it on their own phone
 * with its tool. For run tests in core and for Replay in the browser.
 */

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();

/** The tools each side was offered, request by request, since the last `simulatePhone`. */
export const offered = {
  agent: [] as string[][],
  user: [] as string[][],
  userBriefs: [] as string[],
};

/** A support agent that looks the line up, then tells the customer to turn data on. */
export const phoneAgent: ChatEngine = {
  chat(request: ChatRequest) {
    offered.agent.push((request.tools ?? []).map((t) => t.name));
    const results = request.messages.filter((m) => m.role === 'tool').length;
    if (results === 0)
      return Promise.resolve(reply('', [{ name: 'get_line', args: { number: '555-0100' } }]));
    return Promise.resolve(reply('Your line is fine. Please toggle mobile data on.'));
  },
};

/**
 * A customer on their own phone: gives the number, does what the agent says with its tool
 * (when it `obeys`), then says thanks once the tool has answered.
 */
export const phoneUser = (obeys: boolean): ChatEngine => ({
  chat(request: ChatRequest) {
    offered.user.push((request.tools ?? []).map((t) => t.name));
    offered.userBriefs.push(request.messages[0]?.content ?? '');
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return Promise.resolve(reply(`Data is on now. ${USER_STOP}`));
    if (last?.content.includes('toggle') === true)
      return obeys
        ? Promise.resolve(reply('', [{ name: 'toggle_data', args: { on: true } }]))
        : Promise.resolve(reply(`I would rather not. ${USER_STOP}`));
    return Promise.resolve(reply('My number is 555-0100.'));
  },
});

/** One trial of each of the project's scenarios with the scripted phone agent and customer. */
export async function simulatePhone(
  obeys: boolean,
  project: Project = phoneProject(),
): Promise<SimEvent[]> {
  offered.agent.length = 0;
  offered.user.length = 0;
  offered.userBriefs.length = 0;
  const { model } = parseProject(project);
  const plan: RunPlan = {
    seed: 1,
    projectHash: 'phone',
    scenarios: handWrittenScenarios(model).map((scenario) => ({
      scenario,
      source: 'hand-written' as const,
    })),
    trials: 1,
    concurrency: 1,
    agent: { engine: phoneAgent, model: 'agent-model' },
    user: { engine: phoneUser(obeys), model: 'user-model' },
    prices: {},
    now: '2026-11-21T12:00:00Z',
  };
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(model, plan, { runtime, clock: () => tick++, emit: (e) => events.push(e) });
  return events;
}
