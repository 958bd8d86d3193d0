import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import { USER_STOP } from './prompts.ts';
import { ticketDesk, ticketDeskWith } from '../testing/ticketDesk.ts';
import type { Project } from '../project.ts';
import type { SimEvent } from './events.ts';
import type { RunRequest } from './plan.ts';
import { planRun } from './plan.ts';
import { runSimulation } from './run.ts';

const { runtime } = waitingRuntime();
const WALL_CLOCK = '2026-11-24T12:00:00Z';

/** An agent that cancels order o1 (the show-started guard reads `now`), then reports. */
const agent: ChatEngine = {
  chat(request: ChatRequest) {
    const tools = request.messages.filter((m) => m.role === 'tool').length;
    return Promise.resolve(
      tools === 0
        ? modelReply('', [{ name: 'cancel_order', args: { order_id: 'o1' } }])
        : modelReply('Done.'),
    );
  },
};
const user: ChatEngine = {
  chat: (request: ChatRequest) =>
    Promise.resolve(
      modelReply(
        request.messages.some((m) => m.role === 'assistant')
          ? `Thanks. ${USER_STOP}`
          : 'Cancel o1 please.',
      ),
    ),
};

const REQUEST: RunRequest = {
  seed: 1,
  trials: 1,
  concurrency: 1,
  maxTurns: 3,
  scenarios: 'all',
  agent: { engine: agent, model: 'agent' },
  user: { engine: user, model: 'user' },
  prices: {},
  now: WALL_CLOCK,
};

async function runOf(project: Project, request: RunRequest = REQUEST) {
  const planned = planRun(project, request);
  if (!planned.ok) throw new Error(planned.problem);
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(planned.model, planned.plan, {
    runtime,
    clock: () => tick++,
    emit: (event) => events.push(event),
  });
  return { plan: planned.plan, events };
}

const guardOf = (events: readonly SimEvent[]) =>
  events.find((e): e is Extract<SimEvent, { type: 'guard' }> => e.type === 'guard');

describe('a project’s fixed clock in a run', () => {
  it('is the `now` the plan, the guards and run-started all see, not the caller’s', async () => {
    const { plan, events } = await runOf(ticketDesk());
    expect(plan.now).toBe('2024-05-15T15:00:00-05:00');
    expect(events[0]).toMatchObject({ type: 'run-started', now: '2024-05-15T15:00:00-05:00' });
    // 15:00 EST is 20:00Z, before the show starts at 21:00Z: the guard lets the cancel through.
    expect(guardOf(events)).toMatchObject({ allowed: true });
  });

  it('leaves the caller’s time when the project fixes none', async () => {
    const free = ticketDeskWith('database.yaml', 'now: 2024-05-15T15:00:00-05:00\n', '');
    const { plan, events } = await runOf(free);
    expect(plan.now).toBe(WALL_CLOCK);
    expect(events[0]).toMatchObject({ type: 'run-started', now: WALL_CLOCK });
    expect(guardOf(events)).toMatchObject({ allowed: false, rule: 'show-started' });
  });

  it('does not move a resumed run off the moment its log recorded', () => {
    const resuming: SimEvent[] = [
      {
        type: 'run-started',
        at: 0,
        version: 3,
        seed: 1,
        projectHash: 'x',
        models: {},
        trials: 1,
        scenarios: [],
        now: '2023-01-01T00:00:00Z',
      } as unknown as SimEvent,
    ];
    const planned = planRun(ticketDesk(), { ...REQUEST, resuming });
    expect(planned.ok && planned.plan.now).toBe('2023-01-01T00:00:00Z');
  });
});
