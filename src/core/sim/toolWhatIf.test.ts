import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { ProjectModel } from '../format/model.ts';
import type { ChatEngine, ChatResponse } from '../models/chat.ts';
import { miniProject } from '../testing/miniProject.ts';
import { testScenario } from '../testing/scenarios.ts';
import { ticketDesk, ticketDeskWith } from '../testing/ticketDesk.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import { seedDatabase } from './database.ts';
import type { SimEvent } from './events.ts';
import type { GuardWhatIf } from './guardWhatIf.ts';
import { guardWhatIf } from './guardWhatIf.ts';
import { USER_STOP } from './prompts.ts';
import { replayOf } from './replay.ts';
import { runSimulation } from './run.ts';
import { runTool } from './toolRuntime.ts';
import { loggedPreconditionError } from './toolWhatIf.ts';

const { runtime } = waitingRuntime();
const BEFORE_SHOW = '2024-05-15T15:00:00-05:00';
const AFTER_SHOW = '2024-05-15T17:00:00-05:00';
const model = (project = ticketDesk()): ProjectModel => parseProject(project).model;
const RUN_PROJECT = model();

function scripted(answers: readonly ChatResponse[], last: ChatResponse): ChatEngine {
  let asked = 0;
  return { chat: () => Promise.resolve(answers[asked++] ?? last) };
}

type Call = { readonly name: string; readonly args: Record<string, unknown> };
const cancel = (order_id: string): Call => ({ name: 'cancel_order', args: { order_id } });

/** A run of the ticket desk in which the agent makes `calls` (one turn each) at `now`. */
async function run(calls: readonly Call[], now = BEFORE_SHOW): Promise<SimEvent[]> {
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(
    RUN_PROJECT,
    {
      seed: 1,
      projectHash: 'h',
      scenarios: [
        { scenario: testScenario({ policies: ['before-show'] }), source: 'hand-written' },
      ],
      trials: 1,
      concurrency: 1,
      limits: { maxTurns: 4, timeLimitMs: 60_000, maxToolRounds: 8 },
      agent: {
        engine: scripted(
          calls.map((c) => modelReply('', [c])),
          modelReply('Done.'),
        ),
        model: 'agent-model',
      },
      user: {
        engine: scripted([modelReply('Cancel please.')], modelReply(`Bye. ${USER_STOP}`)),
        model: 'user-model',
      },
      prices: {},
      now,
    },
    { runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  return events;
}

/** Each call's what-if under `today`, in call order, as `[order, what-if]`. */
function whatIfs(today: ProjectModel, events: readonly SimEvent[]): [string, GuardWhatIf][] {
  const replay = replayOf(events, 's#1');
  const answer = guardWhatIf(today, replay);
  if (!answer.ok) throw new Error(answer.problem);
  return [...answer.calls.values()].map((w) => [
    String(replay.steps[w.step]?.call?.args.order_id),
    w,
  ]);
}

const toolOf = (all: [string, GuardWhatIf][]) => all.map(([order, w]) => [order, w.tool]);

describe('today’s tool preconditions in the what-if', () => {
  it('says nothing of the tool when today’s preconditions answer as the log’s did', async () => {
    const events = await run([cancel('o1'), cancel('o2'), cancel('o9')]);
    expect(toolOf(whatIfs(RUN_PROJECT, events))).toEqual([
      ['o1', undefined],
      ['o2', undefined],
      ['o9', undefined],
    ]);
  });

  it('says today’s tool would refuse a call the log ran, with the tool’s own error', async () => {
    const events = await run([cancel('o1'), cancel('o2')]);
    const today = model(
      ticketDeskWith(
        'tools.yaml',
        '        error: Non-pending order cannot be cancelled.\n',
        `        error: Non-pending order cannot be cancelled.
      - condition: 'args.order_id != "o1"'
        error: Order o1 is held for review.
`,
      ),
    );
    const all = whatIfs(today, events);
    expect(toolOf(all)).toEqual([
      ['o1', { refuses: true, error: 'Order o1 is held for review.' }],
      ['o2', undefined],
    ]);
    // The guard's own what-if is untouched: the rules decide as the log did.
    expect(all.every(([, w]) => w.allowed && !w.differs)).toBe(true);
  });

  it('says today’s tool would run a call the log’s refused by a precondition', async () => {
    const events = await run([cancel('o1'), cancel('o2')]);
    const today = model(
      ticketDeskWith(
        'tools.yaml',
        `'db.orders.exists(o, o.id == args.order_id && o.status == "pending")'`,
        `'db.orders.exists(o, o.id == args.order_id && o.status != "cancelled")'`,
      ),
    );
    expect(toolOf(whatIfs(today, events))).toEqual([
      ['o1', undefined],
      ['o2', { refuses: false, logged: 'Non-pending order cannot be cancelled.' }],
    ]);
  });

  it('tries the preconditions on the database as it stood before the call', async () => {
    // The second cancellation of o1 met a cancelled order: refused by the log's tool. Today
    // cancelled orders may be cancelled again; the first call still ran on a pending order.
    const events = await run([cancel('o1'), cancel('o1')]);
    const today = model(
      ticketDeskWith(
        'tools.yaml',
        `'db.orders.exists(o, o.id == args.order_id && o.status == "pending")'`,
        `'db.orders.exists(o, o.id == args.order_id && o.status != "delivered")'`,
      ),
    );
    expect(toolOf(whatIfs(today, events))).toEqual([
      ['o1', undefined],
      ['o1', { refuses: false, logged: 'Non-pending order cannot be cancelled.' }],
    ]);
  });

  it('tries the tool where today’s rules allow a call the log’s refused', async () => {
    // After the show the guard refused both; today's desk has no such rule.
    const events = await run([cancel('o1'), cancel('o2')], AFTER_SHOW);
    const today = model(
      ticketDeskWith('rules.yaml', `'now >= timestamp("2024-05-15T21:00:00Z")'`, `'false'`),
    );
    const all = whatIfs(today, events);
    expect(all.map(([order, w]) => [order, w.allowed, w.differs, w.tool])).toEqual([
      ['o1', true, true, undefined],
      ['o2', true, true, { refuses: true, error: 'Non-pending order cannot be cancelled.' }],
    ]);
  });

  it('leaves the tool alone where today’s rules refuse the call', async () => {
    const events = await run([cancel('o2')]);
    const today = model(
      ticketDeskWith('rules.yaml', `'now >= timestamp("2024-05-15T21:00:00Z")'`, `'true'`),
    );
    const all = whatIfs(today, events);
    expect(all.map(([order, w]) => [order, w.allowed, w.tool])).toEqual([['o2', false, undefined]]);
  });

  it('never takes the runtime’s own failures for a precondition’s', () => {
    const seed = seedDatabase(RUN_PROJECT).db;
    const failures = [
      runTool(RUN_PROJECT, seed, { tool: 'cancel', args: {} }, { now: BEFORE_SHOW }),
      runTool(RUN_PROJECT, seed, { tool: 'cancel_order', args: { id: 1 } }, { now: BEFORE_SHOW }),
      runTool(
        model(
          ticketDeskWith(
            'tools.yaml',
            `'db.orders.exists(o, o.id == args.order_id)'`,
            'args.order_id',
          ),
        ),
        seed,
        { tool: 'cancel_order', args: { order_id: 'o1' } },
        { now: BEFORE_SHOW },
      ),
    ];
    const unmet = runTool(
      RUN_PROJECT,
      seed,
      { tool: 'cancel_order', args: { order_id: 'o2' } },
      {
        now: BEFORE_SHOW,
      },
    );
    const logged = (text: string) =>
      loggedPreconditionError({
        call: 'c',
        turn: 1,
        reply: 1,
        tool: 'cancel_order',
        args: {},
        guard: { allowed: true, reason: '' },
        result: { ok: false, text, changes: [] },
      });
    for (const f of failures) {
      expect(f.ok).toBe(false);
      if (!f.ok) expect(logged(`Error: ${f.error}`)).toBeUndefined();
    }
    expect(!unmet.ok && logged(`Error: ${unmet.error}`)).toBe(
      'Non-pending order cannot be cancelled.',
    );
    // A refusal by the guard is no tool's answer.
    expect(logged('Refused: The show has started.')).toBeUndefined();
  });

  it('with the run’s own project, never says the tool would answer otherwise', async () => {
    const order = fc.constantFrom('o1', 'o2', 'o3');
    await fc.assert(
      fc.asyncProperty(
        fc.array(order.map(cancel), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(BEFORE_SHOW, AFTER_SHOW),
        async (calls, now) => {
          const events = await run(calls, now);
          for (const [, w] of whatIfs(RUN_PROJECT, events)) expect(w.tool).toBeUndefined();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('without preconditions, names exactly the calls the log’s tool refused by one', async () => {
    const free = model(
      ticketDeskWith(
        'tools.yaml',
        `    requires:
      - condition: 'db.orders.exists(o, o.id == args.order_id)'
        error: There is no such order.
      - condition: 'db.orders.exists(o, o.id == args.order_id && o.status == "pending")'
        error: Non-pending order cannot be cancelled.
`,
        '',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('o1', 'o2').map(cancel), { minLength: 1, maxLength: 5 }),
        async (calls) => {
          const events = await run(calls);
          const refusedByLog = events.flatMap((e) =>
            e.type === 'tool-result' && !e.ok ? [e.result.slice('Error: '.length)] : [],
          );
          const told = whatIfs(free, events).flatMap(([, w]) =>
            w.tool && !w.tool.refuses ? [w.tool.logged] : [],
          );
          expect(told).toEqual(refusedByLog);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('a run of another project', () => {
  it('lists its tools once and gives their calls no what-if', async () => {
    const events = await run([cancel('o1'), cancel('o2')]);
    const answer = guardWhatIf(model(miniProject()), replayOf(events, 's#1'));
    expect(answer).toEqual({ ok: true, calls: new Map(), foreignTools: ['cancel_order'] });
  });

  it('still tries the calls to the tools the two projects share', async () => {
    const events = await run([
      { name: 'get_order', args: { order_id: 'o1' } },
      cancel('o1'),
      cancel('o2'),
    ]);
    const today = model(ticketDeskWith('tools.yaml', 'name: cancel_order', 'name: cancel'));
    const answer = guardWhatIf(today, replayOf(events, 's#1'));
    expect(answer.ok && answer.foreignTools).toEqual(['cancel_order']);
    const replay = replayOf(events, 's#1');
    expect(
      answer.ok && [...answer.calls.values()].map((w) => replay.steps[w.step]?.call?.tool),
    ).toEqual(['get_order']);
  });
});
