import { describe, expect, it } from 'vitest';
import type { Cancellation, ChatEngine } from '../core/models/chat.ts';
import { ModelError } from '../core/models/errors.ts';
import type { RetryRuntime } from '../core/models/retry.ts';
import type { SimEvent } from '../core/sim/events.ts';
import type { GenerationFailure } from '../core/sim/generate.ts';
import type { RunDeps, RunPlan } from '../core/sim/run.ts';
import { runSimulation } from '../core/sim/run.ts';
import { miniProject } from '../core/testing/miniProject.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { waitingRuntime } from '../test/scriptedModels.ts';
import type { SimulationWorker, Simulator } from './simulationClient.ts';
import { createWorkerSimulator } from './simulationClient.ts';
import type { SimulationFromWorker, SimulationToWorker } from './simulationProtocol.ts';
import { serveSimulation } from './simulationProtocol.ts';
import {
  FRESH_REFUND,
  REFUND_PLAN,
  mini,
  REFUND_SAMPLES,
  refundAgent as agent,
  refundGenerator as generator,
  refundJudge as judge,
} from '../test/refundDesk.ts';

/** A clock that ticks once per reading, from `from`. */
const counter = (from: number) => {
  let tick = from;
  return () => tick++;
};

/** A Web Worker running the real handler in this thread; messages are cloned, as across threads. */
class FakeWorker {
  onmessage: ((event: { data: SimulationFromWorker }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  private readonly cross =
    <T>(deliver: (message: T) => void) =>
    (message: T) => {
      const copy = structuredClone(message);
      setTimeout(() => {
        if (!this.terminated) deliver(copy);
      }, 0);
    };
  readonly postMessage: (message: SimulationToWorker) => void;
  /** What the page sent, as the worker received it. */
  readonly received: SimulationToWorker[] = [];
  /** What the worker sent the page. */
  readonly sent: SimulationFromWorker[] = [];

  constructor(runtime: RetryRuntime) {
    const toPage = this.cross((data: SimulationFromWorker) => {
      this.sent.push(data);
      this.onmessage?.({ data });
    });
    const serve = serveSimulation(toPage, { runtime, now: counter(0) });
    this.postMessage = this.cross((message: SimulationToWorker) => {
      this.received.push(message);
      serve(message);
    });
  }
  terminate() {
    this.terminated = true;
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault: () => undefined });
  }
}

/** A simulator over fake workers; `sleeps` lists every wait the worker's retry logic asked for. */
function setup() {
  const workers: FakeWorker[] = [];
  const sleeps: number[] = [];
  // Only the dialogue time limits and per-attempt timeouts sleep long; they never expire here.
  const { runtime } = waitingRuntime();
  const sleep: RetryRuntime['sleep'] = (ms, signal) => {
    sleeps.push(ms);
    return runtime.sleep(ms, signal);
  };
  const simulate = createWorkerSimulator(() => {
    const worker = new FakeWorker({ ...runtime, sleep });
    workers.push(worker);
    return worker as unknown as SimulationWorker;
  });
  return { simulate, workers, sleeps };
}

/** Runs a plan and keeps what it told the caller. */
async function record(
  simulate: Simulator,
  plan: RunPlan,
  deps: Partial<Pick<RunDeps, 'clock' | 'signal' | 'previous'>> = {},
  events: SimEvent[] = [],
) {
  const failures: GenerationFailure[] = [];
  const outcome = await simulate(mini, plan, {
    runtime: waitingRuntime().runtime,
    clock: counter(1),
    emit: (event) => events.push(event),
    onGenerationFailure: (failure) => failures.push(failure),
    ...deps,
  });
  return { outcome, events, failures };
}

// One dialogue at a time: with two, which answer comes first depends on timing.
const PLAN: RunPlan = {
  ...REFUND_PLAN,
  concurrency: 1,
  judge: { engine: judge, model: 'judge-model' },
  samples: REFUND_SAMPLES,
  generator: { engine: generator, model: 'gen-model' },
};

/** An agent whose call waits until stopped; keeps its signal and the page's `events` by then. */
function hangingAgent(onCall: () => void, events: readonly SimEvent[] = []) {
  const seen: { signal?: Cancellation; stoppedAfter?: readonly SimEvent[] } = {};
  const engine: ChatEngine = {
    chat: (_request, options) =>
      new Promise((_, reject) => {
        if (options?.signal) seen.signal = options.signal;
        options?.signal?.addEventListener('abort', () => {
          seen.stoppedAfter = [...events];
          reject(new ModelError('aborted', 'The call was stopped.'));
        });
        onCall();
      }),
  };
  return { engine, seen };
}

describe('createWorkerSimulator', () => {
  it('writes the same log in the worker as core does in-thread, judge and generator included', async () => {
    const { simulate, workers } = setup();
    const here = await record(runSimulation, PLAN);
    // The page's clock is read once, at the start; the worker's clock goes on from it.
    const there = await record(simulate, PLAN, { clock: counter(0) });
    expect(there.outcome).toBe('done');
    expect(there.events).toEqual(here.events);
    expect(there.failures).toEqual(here.failures);
    const unknown = 'The project has no policy "no-such-policy".';
    expect(there.failures.map((f) => f.error)).toEqual([unknown]);
    // The comparison covers what matters: a guard refusal, the judge, a generated scenario.
    expect(there.events.some((e) => e.type === 'guard' && !e.allowed)).toBe(true);
    expect(there.events.filter((e) => e.type === 'judge' && e.violated)).toHaveLength(2);
    expect(there.events.some((e) => e.type === 'scenario' && e.scenario.id === 'gen-1')).toBe(true);
    expect(there.events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    // One worker per run, gone when the run ends.
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(true);
  });

  /** Runs the fresh scenario once, with an agent that throws `thrown` on its first call. */
  async function failingOnce(thrown: Error) {
    const { simulate, sleeps } = setup();
    let calls = 0;
    const engine: ChatEngine = {
      chat: (request, options) =>
        ++calls === 1 ? Promise.reject(thrown) : agent.chat(request, options),
    };
    const { outcome, events } = await record(simulate, {
      ...PLAN,
      scenarios: [{ scenario: FRESH_REFUND, source: 'hand-written' }],
      trials: 1,
      samples: [],
      agent: { engine, model: 'agent-model' },
    });
    expect(outcome).toBe('done');
    return { calls, sleeps, events, ended: events.find((e) => e.type === 'dialogue-ended') };
  }

  it('retries a rate-limited page call in the worker, after the wait the provider asked for', async () => {
    const limited = new ModelError('rate-limit', 'Slow down.', { status: 429, retryAfterMs: 700 });
    const { calls, sleeps, events, ended } = await failingOnce(limited);
    expect(calls).toBe(4);
    expect(sleeps).toContain(700);
    expect(ended).toMatchObject({ reason: 'user-done' });
    const checks = events.find((e) => e.type === 'checks');
    expect(checks?.type === 'checks' && checks.findings.every((f) => f.passed)).toBe(true);
  });

  it('ends the dialogue as a provider error, untried again, on a refused key or any other error', async () => {
    const refused = 'The provider refused the API key (401).';
    const auth = await failingOnce(new ModelError('auth', refused, { status: 401 }));
    expect(auth.calls).toBe(1);
    expect(auth.ended).toMatchObject({ reason: 'provider-error', detail: refused });
    const plain = await failingOnce(new Error('socket closed'));
    expect(plain.calls).toBe(1);
    const detail = 'The engine failed unexpectedly: socket closed';
    expect(plain.ended).toMatchObject({ reason: 'provider-error', detail });
  });

  it('cancels across: the page’s call is stopped and the run ends cancelled', async () => {
    const { simulate } = setup();
    const controller = new AbortController();
    const events: SimEvent[] = [];
    const hanging = hangingAgent(() => {
      controller.abort();
    }, events);
    const { outcome } = await record(
      simulate,
      { ...PLAN, samples: [], agent: { engine: hanging.engine, model: 'agent-model' } },
      { signal: controller.signal },
      events,
    );
    expect(outcome).toBe('cancelled');
    // The worker stopped the page's call itself, before the dialogue was said to end.
    expect(hanging.seen.signal?.aborted).toBe(true);
    expect(hanging.seen.stoppedAfter?.some((e) => e.type === 'dialogue-ended')).toBe(false);
    const endings = events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings).toEqual(['cancelled']);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'cancelled' });
  });

  it('rejects the run when the worker crashes, stopping the page’s calls; the next run gets a fresh worker', async () => {
    const { simulate, workers } = setup();
    const hanging = hangingAgent(() => {
      workers[0]?.crash('out of memory');
    });
    await expect(
      record(simulate, { ...PLAN, samples: [], agent: { engine: hanging.engine, model: 'a' } }),
    ).rejects.toThrow('The simulation worker stopped: out of memory');
    expect(hanging.seen.signal?.aborted).toBe(true);
    expect(workers[0]?.terminated).toBe(true);

    const next = await record(simulate, { ...PLAN, samples: [] });
    expect(next.outcome).toBe('done');
    expect(workers).toHaveLength(2);
  });

  it('sends the files a plan was made from, not their model: the worker reads them itself', async () => {
    const { simulate, workers } = setup();
    const plan = { ...PLAN, files: miniProject().files };
    const here = await record(runSimulation, plan);
    const there = await record(simulate, plan, { clock: counter(0) });
    expect(there.outcome).toBe('done');
    expect(there.events).toEqual(here.events);
    const start = workers[0]?.received[0];
    expect(start).toMatchObject({ type: 'start', plan: { files: plan.files } });
    expect(start && 'model' in start).toBe(false);
    // Nor do they come back: the page puts them into the log's start.
    expect(there.events[0]).toMatchObject({ type: 'run-started', files: plan.files });
    expect(workers[0]?.sent.find((m) => m.type === 'event')).toMatchObject({
      event: { type: 'run-started' },
    });
    expect(workers[0]?.sent.some((m) => m.type === 'event' && 'files' in m.event)).toBe(false);
  });

  it('runs in-thread, with the same log, where no worker can be made', async () => {
    const simulate = createWorkerSimulator(() => {
      throw new Error('Workers are not available here.');
    });
    const here = await record(runSimulation, PLAN);
    const there = await record(simulate, PLAN);
    expect(there.outcome).toBe('done');
    expect(there.events).toEqual(here.events);
    expect(there.failures).toEqual(here.failures);
  });

  it('goes on with an interrupted run from its log, its clock going on', async () => {
    const plan = { ...PLAN, samples: [] };
    const whole = await record(runSimulation, plan);
    const cutAt = whole.events.findIndex(
      (e) => e.type === 'dialogue-started' && e.dialogue === 'late#1',
    );
    const cut = whole.events.slice(0, cutAt + 3);
    const here = await record(runSimulation, plan, { previous: cut, clock: counter(501) });
    const { simulate } = setup();
    const there = await record(simulate, plan, { previous: cut, clock: counter(500) });
    expect(there.events).toEqual(here.events);
    expect(there.events[0]).toEqual({ type: 'run-resumed', at: 501, rerun: ['late#1'] });
  });

  it('ends a worker that cannot hear Stop (busy in a guard) 300 ms after, logging its dialogue as stopped', async () => {
    const timers = manualScheduler();
    const busy = new BusyWorker();
    const simulate = createWorkerSimulator(() => busy as unknown as SimulationWorker, { timers });
    const controller = new AbortController();
    const running = record(simulate, PLAN, { signal: controller.signal, clock: () => 77 });
    expect(busy.received).toEqual(['start']);
    controller.abort();
    expect(busy.received).toEqual(['start', 'cancel']);
    timers.advance(299);
    expect(busy.terminated).toBe(false);
    timers.advance(1);
    expect(busy.terminated).toBe(true);
    const { outcome, events } = await running;
    expect(outcome).toBe('cancelled');
    expect(events.slice(1)).toEqual([
      expect.objectContaining({
        type: 'dialogue-ended',
        at: 77,
        dialogue: 'fresh#0',
        reason: 'cancelled',
      }),
      { type: 'checks', at: 77, dialogue: 'fresh#0', findings: [] },
      { type: 'run-ended', at: 77, reason: 'cancelled' },
    ]);
    expect(timers.pending).toBe(0);
  });

  it('ends a dialogue stuck past its time limit, and goes on with the rest of the run in a fresh worker', async () => {
    const timers = manualScheduler();
    const busy = new BusyWorker();
    const next = new BusyWorker('done');
    const made = [busy, next];
    const simulate = createWorkerSimulator(() => made.shift() as unknown as SimulationWorker, {
      timers,
    });
    const plan = { ...PLAN, limits: { maxTurns: 5, maxToolRounds: 3, timeLimitMs: 20_000 } };
    const running = record(simulate, plan, { clock: () => 5 });
    timers.advance(21_999);
    expect(busy.terminated).toBe(false);
    timers.advance(1);
    expect(busy.terminated).toBe(true);
    const { outcome, events } = await running;
    expect(outcome).toBe('done');
    const ended: unknown[] = [
      expect.objectContaining({
        type: 'dialogue-ended',
        dialogue: 'fresh#0',
        reason: 'time-limit',
      }),
      { type: 'checks', at: 5, dialogue: 'fresh#0', findings: [] },
    ];
    expect(events.slice(1)).toEqual([...ended, { type: 'run-ended', at: 5, reason: 'done' }]);
    // The fresh worker reads the log so far: the stuck dialogue is judged and is not run again.
    expect(next.previous).toEqual([events[0], ...ended]);
  });

  it('leaves a worker alone that ends its dialogues in time', async () => {
    const timers = manualScheduler();
    const { runtime } = waitingRuntime();
    const simulate = createWorkerSimulator(
      () => new FakeWorker(runtime) as unknown as SimulationWorker,
      {
        timers,
      },
    );
    const { outcome } = await record(simulate, { ...REFUND_PLAN, concurrency: 1 });
    expect(outcome).toBe('done');
    expect(timers.pending).toBe(0);
  });
});

/**
 * A worker that starts one dialogue and then computes without end: it takes messages but never
 * answers them. With `then: 'done'`, a worker that ends the run at once when started.
 */
class BusyWorker {
  onmessage: ((event: { data: SimulationFromWorker }) => void) | null = null;
  onerror: unknown = null;
  terminated = false;
  readonly received: string[] = [];
  previous: readonly SimEvent[] | undefined;
  private readonly then: 'stuck' | 'done';
  constructor(then: 'stuck' | 'done' = 'stuck') {
    this.then = then;
  }
  postMessage(message: SimulationToWorker) {
    this.received.push(message.type);
    if (message.type !== 'start') return;
    this.previous = message.previous;
    const event = (e: SimEvent) => this.onmessage?.({ data: { type: 'event', event: e } });
    if (this.then === 'done') {
      event({ type: 'run-ended', at: 5, reason: 'done' });
      this.onmessage?.({ data: { type: 'done', outcome: 'done' } });
      return;
    }
    event({ type: 'dialogue-started', at: 3, dialogue: 'fresh#0', scenario: 'fresh', trial: 0 });
  }
  terminate() {
    this.terminated = true;
  }
}
