import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import type { Project } from '../project.ts';
import { projectHash } from '../project.ts';
import { goalUser, mini, refundAgent, refundScenario } from '../../test/refundDesk.ts';
import { waitingRuntime } from '../../test/scriptedModels.ts';
import { miniProject, miniWith, MINI_FILES } from '../testing/miniProject.ts';
import { seedDatabase } from './database.ts';
import type { SimEvent } from './events.ts';
import { dialoguePrefix, forkState } from './fork.ts';
import { readLog } from './logFormat.ts';
import type { RunRequest } from './plan.ts';
import { planRun } from './plan.ts';
import { reportOf } from './report.ts';
import { runSimulation } from './run.ts';

// Only the dialogue time limits sleep long; they never expire here.
const { runtime } = waitingRuntime();
const NOW = '2026-11-21T12:00:00Z';
const FACTS = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);

/** A customer owed a refund of o2 (45 days after delivery): the 30-day guard wrongly refuses it. */
const OWED = refundScenario('owed', 'Refund order o2.', [
  'db.orders.exists(o, o.id == "o2" && o.status == "refunded")',
]);
/** A customer after a refund of o1, which the agent may make. */
const FRESH = refundScenario('fresh', 'Refund order o1.', [
  'db.orders.exists(o, o.id == "o1" && o.status == "refunded")',
]);
/** The refund desk with its window eased to 60 days: o2 may be refunded now. */
const EASED = miniWith('rules.yaml', 'o.days_since_delivery > 30', 'o.days_since_delivery > 60');

/** An engine that keeps every request it is sent. */
function counted(engine: ChatEngine) {
  const requests: ChatRequest[] = [];
  const wrapped: ChatEngine = {
    chat: (request, options) => {
      requests.push(request);
      return engine.chat(request, options);
    },
  };
  return { engine: wrapped, requests };
}

function request(agent: ChatEngine, user: ChatEngine, extra: Partial<RunRequest>): RunRequest {
  return {
    seed: 1,
    trials: 1,
    concurrency: 1,
    maxTurns: 6,
    scenarios: 'none',
    agent: { engine: agent, model: 'agent-model' },
    user: { engine: user, model: 'user-model' },
    prices: {},
    now: NOW,
    ...extra,
  };
}

/** Plans and runs a request on a project, as the page does; the log it writes. */
async function run(project: Project, asked: RunRequest, previous?: readonly SimEvent[]) {
  const planned = planRun(project, asked);
  if (!planned.ok) throw new Error(planned.problem);
  const events: SimEvent[] = [];
  let tick = 1000;
  await runSimulation(planned.model, planned.plan, {
    runtime,
    clock: () => tick++,
    emit: (event) => events.push(event),
    ...(previous && { previous }),
  });
  return { events, plan: planned.plan };
}

/** A recorded run of one scenario on the mini project, with the requests its models were sent. */
async function source(scenario = OWED) {
  const agent = counted(refundAgent);
  const user = counted(goalUser);
  const { events } = await run(
    miniProject(),
    request(agent.engine, user.engine, { ownScenarios: [scenario] }),
  );
  return { events, agent, user };
}

/** What was said and done in a dialogue, without when or under which id. */
const said = (events: readonly SimEvent[], dialogue: string) =>
  events.flatMap((e) => {
    if (!('dialogue' in e) || e.dialogue !== dialogue) return [];
    if (!['message', 'tool-call', 'guard', 'tool-result'].includes(e.type)) return [];
    const { at: _at, dialogue: _dialogue, ...rest } = e;
    return [rest];
  });

const continueFrom = (events: readonly SimEvent[], dialogue: string, turn: number) => ({
  continueFrom: { run: 'source', events, dialogue, turn },
});

describe('continuing a dialogue from an agent turn', () => {
  it('re-runs a failed dialogue under an eased guard rule: it passes, no model asked for the turns before', async () => {
    const before = await source();
    const sourceReport = reportOf(before.events, FACTS);
    expect(sourceReport.dialogues.map((d) => d.verdict)).toEqual(['fail']);
    // Turn 2 is the agent's refund of o2, which the 30-day guard refused.
    const guards = said(before.events, 'owed#1').filter((e) => e.type === 'guard');
    expect(guards.map((g) => [g.allowed, g.rule])).toEqual([
      [true, undefined],
      [false, 'refund-late'],
    ]);

    const agent = counted(refundAgent);
    const user = counted(goalUser);
    const asked = request(agent.engine, user.engine, {
      ...continueFrom(before.events, 'owed#1', 2),
      now: '2030-01-01T00:00:00Z',
    });
    const after = await run(EASED, asked);

    const read = readLog(after.events);
    if (!read.ok) throw new Error(read.error);
    expect(read.events[0]).toMatchObject({
      type: 'run-started',
      trials: 1,
      projectHash: projectHash(EASED.files),
      // The continued dialogue sees the moment its start saw.
      now: NOW,
      source: { kind: 'continued', run: 'source', dialogue: 'owed#1', turn: 2 },
    });
    const report = reportOf(read.events, FACTS);
    expect(report.dialogues.map((d) => [d.dialogue, d.ending, d.verdict])).toEqual([
      ['owed#1', 'user-done', 'pass'],
    ]);

    // Only the agent's refund and its last words, and the customer's goodbye, were asked for.
    expect(agent.requests).toHaveLength(2);
    expect(user.requests).toHaveLength(1);
    // The agent's first request holds the copied turns as the history it had at that turn.
    expect(agent.requests[0]?.messages).toEqual(before.agent.requests[1]?.messages);
    expect(agent.requests[0]?.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    // The customer's brief is unchanged, and it saw what it saw in the source.
    expect(user.requests[0]?.messages[0]).toEqual(before.user.requests[0]?.messages[0]);
    expect(user.requests[0]?.messages).toEqual(before.user.requests[1]?.messages);

    // Turns 0 and 1 (with the lookup) are copied as they were; the refund is new and allowed.
    const copied = said(before.events, 'owed#1').slice(0, 5);
    expect(copied.map((e) => e.type)).toEqual([
      'message',
      'message',
      'tool-call',
      'guard',
      'tool-result',
    ]);
    const now = said(read.events, 'owed#1');
    expect(now.slice(0, 5)).toEqual(copied);
    expect(now[5]).toMatchObject({ type: 'message', turn: 2, speaker: 'agent' });
    expect(now[6]).toMatchObject({ type: 'tool-call', turn: 2, tool: 'refund_order' });
    expect(now[7]).toMatchObject({ type: 'guard', allowed: true });
  });

  it('tells the agent a refused call as the guard’s fallback told it', async () => {
    const before = await source();
    const agent = counted(refundAgent);
    await run(
      miniProject(),
      request(agent.engine, goalUser, continueFrom(before.events, 'owed#1', 3)),
    );
    const told = agent.requests[0]?.messages.at(-1);
    expect(told).toEqual({
      role: 'tool',
      toolCallId: 't0',
      content: 'Refused: This order is outside the 30-day window.',
    });
    expect(agent.requests[0]?.messages).toEqual(before.agent.requests[2]?.messages);
  });

  it('starts from the database as the copied turns left it', async () => {
    const before = await source(FRESH);
    const read = dialoguePrefix(before.events, 'fresh#1', 3);
    if (!read.ok) throw new Error(read.problem);
    const start = seedDatabase(mini, FRESH.rows).db;
    const state = forkState(mini, start, read.prefix);
    expect(state.problem).toBeUndefined();
    expect(state.db.orders?.find((o) => o.id === 'o1')?.status).toBe('refunded');
    expect(start.orders?.find((o) => o.id === 'o1')?.status).toBe('delivered');
    expect(state.history.map((c) => [c.tool, c.allowed])).toEqual([
      ['get_user', true],
      ['refund_order', true],
    ]);

    // Continued at the agent's last words, nothing is refunded again, yet the refund holds.
    const agent = counted(refundAgent);
    const after = await run(
      miniProject(),
      request(agent.engine, goalUser, continueFrom(before.events, 'fresh#1', 3)),
    );
    expect(agent.requests).toHaveLength(1);
    const checks = after.events.find((e) => e.type === 'checks');
    expect(checks?.type === 'checks' && checks.findings.every((f) => f.passed)).toBe(true);
    expect(reportOf(after.events, FACTS).dialogues.map((d) => d.verdict)).toEqual(['pass']);
  });

  it('ends as a scenario error naming the table when the project no longer has it', async () => {
    const before = await source(FRESH);
    const renamed = miniProject(
      Object.fromEntries(
        (['database.yaml', 'tools.yaml', 'rules.yaml'] as const).map((file) => [
          file,
          MINI_FILES[file].replaceAll('orders', 'purchases'),
        ]),
      ),
    );
    const agent = counted(refundAgent);
    const after = await run(
      renamed,
      request(agent.engine, goalUser, continueFrom(before.events, 'fresh#1', 3)),
    );
    const ended = after.events.find((e) => e.type === 'dialogue-ended');
    expect(ended).toMatchObject({ reason: 'scenario-error' });
    expect(ended?.type === 'dialogue-ended' && ended.detail).toContain('“orders”');
    expect(agent.requests).toHaveLength(0);
    // The copied turns are still there to read.
    expect(said(after.events, 'fresh#1').filter((e) => e.type === 'message')).toHaveLength(3);
  });

  it('resumes an interrupted continued run from its own log, copying the start again', async () => {
    const before = await source();
    const continued = await run(
      EASED,
      request(refundAgent, goalUser, continueFrom(before.events, 'owed#1', 2)),
    );
    // Cut off after the copied start, as a closed tab would leave it.
    const cut = continued.events.slice(
      0,
      continued.events.findIndex((e) => e.type === 'message' && e.turn === 2),
    );
    const resumed = planRun(EASED, request(refundAgent, goalUser, { resuming: cut }));
    if (!resumed.ok) throw new Error(resumed.problem);
    // The same start, read back from the continued run's copy of it.
    const start = (events: readonly SimEvent[] = []) => said(events, 'owed#1');
    expect(resumed.plan.prefix?.turn).toBe(2);
    expect(start(resumed.plan.prefix?.events)).toEqual(start(continued.plan.prefix?.events));
    const rest = await run(EASED, request(refundAgent, goalUser, { resuming: cut }), cut);
    const whole = [...cut, ...rest.events];
    expect(reportOf(whole, FACTS).dialogues.map((d) => d.verdict)).toEqual(['pass']);
    expect(said(whole, 'owed#1').slice(-said(continued.events, 'owed#1').length)).toEqual(
      said(continued.events, 'owed#1'),
    );

    const tooEarly = continued.events.slice(0, 4);
    expect(planRun(EASED, request(refundAgent, goalUser, { resuming: tooEarly }))).toMatchObject({
      ok: false,
      fix: 'log',
    });
  });

  it('refuses, saying why, what cannot be continued', async () => {
    const { events } = await source();
    const problem = (asked: Partial<RunRequest>) => {
      const planned = planRun(EASED, request(refundAgent, goalUser, asked));
      return planned.ok ? 'planned' : `${planned.fix}: ${planned.problem}`;
    };
    expect(problem(continueFrom(events, 'nope#1', 2))).toBe(
      'log: The run has no dialogue “nope#1”.',
    );
    expect(problem(continueFrom(events, 'owed#1', 0))).toBe(
      'log: Message 0 of “owed#1” is not one of the agent’s replies; only the agent’s replies can be re-run.',
    );
    expect(problem(continueFrom(events, 'owed#1', 99))).toMatch(/^log: Message 99 of “owed#1”/);
    const noScenario = events.filter((e) => e.type !== 'scenario');
    expect(problem(continueFrom(noScenario, 'owed#1', 2))).toBe(
      'log: The run does not record the scenario “owed” its dialogue played.',
    );
    const external = events.map((e) =>
      e.type === 'run-started' ? { ...e, externalAgent: true as const } : e,
    );
    expect(problem(continueFrom(external, 'owed#1', 2))).toMatch(
      /^log: This run’s agent was your own bot behind its endpoint: its tool calls and database were never seen/,
    );
    expect(problem({ ...continueFrom(events, 'owed#1', 2), externalAgent: true })).toMatch(
      /^models: The agent is your own bot/,
    );
    expect(problem(continueFrom(events, 'owed#1', 2))).toBe('planned');
  });
});
