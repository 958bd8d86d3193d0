// Simulation figures on the airline example, through runSimulation as the app runs it.
// engine_dialogues_per_s: dialogues a second with instant in-process models (the user speaks 10
// times, the agent answers each, with one tool call on every other turn), so only the engine
// is timed: guards, the tool runtime, events and judging. Median of 5 runs after a warm-up.
// concurrency_efficiency: with a local OpenAI-protocol server answering each call after 100 ms
// and 16 dialogues at once, the calls a second achieved over the ideal 16 / 0.1 s. The server
// runs in a worker thread, as an endpoint runs in its own process: on the main thread its own
// work (parsing, streaming, timers) would queue behind the engine's and be counted against it.
// read_log_ms: reading back (checking every event of) the saved log of 300 such dialogues, the
// work of opening a saved run; read_log_events: how many events that log holds.
// recheck_dialogues_per_s: dialogues a second judged again against the project by recheckRun,
// over that same log, without a model call.
import { once } from 'node:events';
import { modelReply } from '../../src/test/scriptedModels.ts';
import { readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  PROJECT_FILES,
  USER_STOP,
  parseProject,
  projectFromFiles,
  readLog,
  recheckRun,
  runSimulation,
} from '../../src/core/index.ts';
import type {
  ChatEngine,
  ChatRequest,
  ProjectModel,
  RunPlan,
  SimEvent,
  SimScenario,
} from '../../src/core/index.ts';
import { createRemoteEngine } from '../../src/adapters/models/remote.ts';
import { platformRuntime } from '../../src/adapters/models/runtime.ts';
import type { RecordedRequest } from '../../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../../src/test/servers/openaiServer.ts';

const USER_TURNS = 10;
const ENGINE_DIALOGUES = 300;
const ENGINE_CONCURRENCY = 8;
const ENGINE_RUNS = 5;

const DELAY_MS = 100;
const REMOTE_CONCURRENCY = 16;
/** Four waves of 16, so every worker has a dialogue until the end. */
const REMOTE_DIALOGUES = 64;
/** User messages per remote dialogue; with its stop and one tool round: 8 calls a dialogue. */
const REMOTE_USER_TURNS = 3;
const REMOTE_RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function airline(): { model: ProjectModel; scenario: SimScenario } {
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
  );
  const { model } = parseProject(projectFromFiles('airline', files).project);
  const scenario = model.scenarios.find((s) => s.id === 'cancel-within-24-hours');
  if (!scenario) throw new Error('The airline example lost its cancel-within-24-hours scenario.');
  return { model, scenario };
}

/** Read-only calls on the scenario's own rows, so every dialogue does the same work. */
const TOOL_CALLS: readonly { name: string; args: Readonly<Record<string, unknown>> }[] = [
  { name: 'get_user_details', args: { user_id: 'daniela_ruiz_5120' } },
  { name: 'get_reservation', args: { reservation_id: 'TQ7H3K' } },
  { name: 'search_flights', args: { origin: 'BOS', destination: 'ORD', date: '2026-05-28' } },
  { name: 'get_flight_status', args: { flight_id: 'SW211-0528' } },
  { name: 'calculate', args: { a: 168, operator: '*', b: 2 } },
];

function answer(content: string, call?: { id: string; name: string; args: object }) {
  return modelReply(content, call ? [call] : [], { inputTokens: 200, outputTokens: 20 });
}

/** The user's own messages reach it as `assistant` turns. */
const instantUser: ChatEngine = {
  chat(request: ChatRequest) {
    const spoken = request.messages.filter((m) => m.role === 'assistant').length;
    return Promise.resolve(
      answer(spoken < USER_TURNS ? `Question ${spoken + 1} about my trip.` : USER_STOP),
    );
  },
};

/** On every other user message, one tool call before the answer. */
const instantAgent: ChatEngine = {
  chat(request: ChatRequest) {
    const asked = request.messages.filter((m) => m.role === 'user').length;
    const last = request.messages.at(-1);
    const call = TOOL_CALLS[(asked - 1) % TOOL_CALLS.length];
    if (asked % 2 === 1 && last?.role === 'user' && call)
      return Promise.resolve(answer('', { id: `call-${asked}`, ...call }));
    return Promise.resolve(answer(`Here is what I found for question ${asked}.`));
  },
};

/** Runs the plan and times it, after checking that every dialogue ended as scripted. */
async function timedRun(
  model: ProjectModel,
  plan: RunPlan,
  expectedCalls: number,
  log?: SimEvent[],
) {
  let calls = 0;
  const endings = new Map<string, number>();
  const start = performance.now();
  await runSimulation(model, plan, {
    runtime: platformRuntime,
    clock: () => performance.now() - start,
    emit: (event) => {
      log?.push(event);
      if (event.type === 'usage') calls++;
      if (event.type === 'dialogue-ended')
        endings.set(event.reason, (endings.get(event.reason) ?? 0) + 1);
    },
  });
  const ms = performance.now() - start;
  const dialogues = plan.scenarios.length * plan.trials;
  if (endings.get('user-done') !== dialogues || calls !== dialogues * expectedCalls) {
    const seen = JSON.stringify(Object.fromEntries(endings));
    throw new Error(
      `The benchmark dialogues went wrong: endings ${seen}, ${calls} model calls (expected ${dialogues * expectedCalls}).`,
    );
  }
  return { ms, calls, dialogues };
}

function plan(
  scenario: SimScenario,
  trials: number,
  concurrency: number,
  engines: { agent: ChatEngine; user: ChatEngine },
): RunPlan {
  return {
    seed: 1,
    projectHash: 'bench',
    scenarios: [{ scenario, source: 'hand-written' }],
    trials,
    concurrency,
    limits: { maxTurns: USER_TURNS + 2, timeLimitMs: 300_000, maxToolRounds: 8 },
    prices: {},
    agent: { engine: engines.agent, model: 'agent' },
    user: { engine: engines.user, model: 'user' },
    now: '2026-05-15T19:00:00Z',
  };
}

/** Dialogues a second through the whole engine, with models that answer at once. */
async function engineDialoguesPerS(model: ProjectModel, scenario: SimScenario): Promise<number> {
  // Per dialogue: 11 user calls (10 messages and the stop), 10 answers and 5 tool rounds.
  const calls = USER_TURNS + 1 + USER_TURNS + USER_TURNS / 2;
  const engines = { agent: instantAgent, user: instantUser };
  await timedRun(model, plan(scenario, 50, ENGINE_CONCURRENCY, engines), calls);
  const rates: number[] = [];
  for (let run = 0; run < ENGINE_RUNS; run++) {
    const { ms, dialogues } = await timedRun(
      model,
      plan(scenario, ENGINE_DIALOGUES, ENGINE_CONCURRENCY, engines),
      calls,
    );
    rates.push(dialogues / (ms / 1000));
  }
  return Math.round(median(rates) * 10) / 10;
}

/** What the test server answers: the agent (offered tools) or the user, after 100 ms. */
function remoteReply(body: OpenAIRequestBody) {
  const messages = body.messages ?? [];
  if (body.tools === undefined || body.tools.length === 0) {
    const spoken = messages.filter((m) => m.role === 'assistant').length;
    const text = spoken < REMOTE_USER_TURNS ? `Question ${spoken + 1}.` : `Bye. ${USER_STOP}`;
    return { text, delayMs: DELAY_MS };
  }
  const asked = messages.filter((m) => m.role === 'user').length;
  if (asked === 1 && messages.at(-1)?.role === 'user') {
    const { name, args } = TOOL_CALLS[0] ?? { name: '', args: {} };
    return { toolCalls: [{ name, arguments: args }], delayMs: DELAY_MS };
  }
  return { text: `Answer ${asked}.`, delayMs: DELAY_MS };
}

const SERVER_WORKER = 'sim-figures-openai-server';

/** In the worker: serves until the main thread says "close", then closes and lets the thread end. */
async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  let recorded: RecordedRequest[] = [];
  const server = await startOpenAIServer({
    script: (request) => {
      // Recorded requests would pile up over thousands of calls, and their collection with them.
      recorded.length = 0;
      return remoteReply(request.body ?? {});
    },
  });
  recorded = server.requests;
  port.once('message', () => {
    void server.close().then(() => {
      port.close();
    });
  });
  port.postMessage(server.url);
}

if (!isMainThread && workerData === SERVER_WORKER) void serve();

/** Starts the test server in a worker thread running this file (through tsx, as the bench runs). */
async function startServerWorker(): Promise<{ url: string; close: () => Promise<void> }> {
  const self = JSON.stringify(import.meta.url);
  const worker = new Worker(`import('tsx/esm/api').then((api) => api.tsImport(${self}, ${self}))`, {
    eval: true,
    workerData: SERVER_WORKER,
  });
  const [url] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error as Error)),
  ])) as [string];
  return {
    url,
    close: async () => {
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await exited;
    },
  };
}

/** Calls a second with 16 dialogues against a server that takes 100 ms a call, over the ideal. */
async function concurrencyEfficiency(model: ProjectModel, scenario: SimScenario): Promise<number> {
  const server = await startServerWorker();
  try {
    const engine = createRemoteEngine({ kind: 'openai', baseUrl: server.url }, 'sk-bench');
    const engines = { agent: engine, user: engine };
    const calls = REMOTE_USER_TURNS + 1 + REMOTE_USER_TURNS + 1;
    // The first calls load the SDK and open the connections.
    await timedRun(model, plan(scenario, REMOTE_CONCURRENCY, REMOTE_CONCURRENCY, engines), calls);
    const ideal = REMOTE_CONCURRENCY / (DELAY_MS / 1000);
    const ratios: number[] = [];
    for (let run = 0; run < REMOTE_RUNS; run++) {
      const result = await timedRun(
        model,
        plan(scenario, REMOTE_DIALOGUES, REMOTE_CONCURRENCY, engines),
        calls,
      );
      ratios.push(result.calls / (result.ms / 1000) / ideal);
    }
    return Math.round(median(ratios) * 1000) / 1000;
  } finally {
    await server.close();
  }
}

/**
 * Milliseconds to read back (validate, and migrate when old) the saved log of a 300-dialogue run,
 * as opening a saved run does; the log goes through JSON first, as storage hands it back.
 */
async function readLogMs(model: ProjectModel, scenario: SimScenario) {
  const calls = USER_TURNS + 1 + USER_TURNS + USER_TURNS / 2;
  const log: SimEvent[] = [];
  const engines = { agent: instantAgent, user: instantUser };
  await timedRun(model, plan(scenario, ENGINE_DIALOGUES, ENGINE_CONCURRENCY, engines), calls, log);
  const stored = JSON.parse(JSON.stringify(log)) as unknown;
  const times: number[] = [];
  for (let run = 0; run < ENGINE_RUNS + 1; run++) {
    const start = performance.now();
    const read = readLog(stored);
    times.push(performance.now() - start);
    if (!read.ok) throw new Error(`The benchmark log could not be read back: ${read.error}`);
  }
  return { ms: Math.round(median(times.slice(1)) * 10) / 10, events: log.length, log };
}

/**
 * Dialogues a second that `recheckRun` judges again (transcript, database rebuilt from the log,
 * checks and expectations), over that same 300-dialogue log; median of 5 after a warm-up. Fails
 * when it did not judge every dialogue, so the figure is never of work skipped.
 */
function recheckDialoguesPerS(model: ProjectModel, log: readonly SimEvent[]): number {
  const rates: number[] = [];
  for (let run = 0; run < ENGINE_RUNS + 1; run++) {
    const start = performance.now();
    const again = recheckRun(model, {}, 'bench-run', log);
    const ms = performance.now() - start;
    if (again.rechecked !== ENGINE_DIALOGUES || again.kept.length > 0)
      throw new Error(
        `The re-check benchmark judged ${again.rechecked} of ${ENGINE_DIALOGUES} dialogues (${again.kept.length} kept as they were).`,
      );
    if (run > 0) rates.push(again.rechecked / (ms / 1000));
  }
  return Math.round(median(rates));
}

/** The simulation figures (see the top of this file). */
export async function simFigures(): Promise<{
  engine_dialogues_per_s: number;
  concurrency_efficiency: number;
  read_log_ms: number;
  read_log_events: number;
  recheck_dialogues_per_s: number;
}> {
  const { model, scenario } = airline();
  const read = await readLogMs(model, scenario);
  return {
    engine_dialogues_per_s: await engineDialoguesPerS(model, scenario),
    concurrency_efficiency: await concurrencyEfficiency(model, scenario),
    read_log_ms: read.ms,
    read_log_events: read.events,
    recheck_dialogues_per_s: recheckDialoguesPerS(model, read.log),
  };
}
