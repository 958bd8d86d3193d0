import type { ProjectModel } from '../core/format/model.ts';
import type { ChatEngine, ModelRole } from '../core/models/chat.ts';
import { ModelError } from '../core/models/errors.ts';
import { DEFAULT_LIMITS } from '../core/sim/limits.ts';
import type { SimEvent } from '../core/sim/events.ts';
import type { RunDeps, RunPlan } from '../core/sim/run.ts';
import { InFlightDialogues, endStuckDialogues } from '../core/sim/stuck.ts';
import type {
  ErrorRef,
  PlanRef,
  SimulationFromWorker,
  SimulationToWorker,
} from './simulationProtocol.ts';
import { withPlanFiles } from './planFiles.ts';

/** Runs a simulation; the same shape as core's `runSimulation`, wherever it runs. */
export type Simulator = (
  model: ProjectModel,
  plan: RunPlan,
  deps: RunDeps,
) => Promise<'done' | 'cancelled' | 'budget'>;

/** Runs a simulation on the calling thread (tests, and where workers cannot be made). */
export const simulateInThread: Simulator = async (model, plan, deps) => {
  const { runSimulation } = await import('../core/sim/run.ts');
  return runSimulation(model, plan, deps);
};

/**
 * What the client needs of a worker: a Web Worker has it, and the CLI gives Node's
 * worker_threads the same shape (`cli/simulationThread.ts`).
 */
export interface SimulationWorker {
  postMessage(message: SimulationToWorker): void;
  terminate(): unknown;
  onmessage: ((event: { readonly data: SimulationFromWorker }) => void) | null;
  onerror: ((event: { readonly message: string; preventDefault(): void }) => void) | null;
  onmessageerror: (() => void) | null;
}

/** Timers the page's side keeps to notice a worker that stopped answering. */
export interface WatchTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** How long a busy worker is given before it is ended from outside. */
export interface WorkerWatch {
  readonly timers?: WatchTimers;
  /** After Stop, how long the worker may take to end its dialogues (ms; 300). */
  readonly stopGraceMs?: number;
  /** Past a dialogue’s time limit, how long the worker may take to end it (ms; 2,000). */
  readonly limitGraceMs?: number;
}

const browserTimers: WatchTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => {
    clearTimeout(timer as ReturnType<typeof setTimeout>);
  },
};

/**
 * Runs simulations in a Web Worker while every model engine stays in the page: the worker asks
 * the page for each model call, so API keys and the local engine never leave it. Each run gets
 * its own worker, terminated when the run ends: a run's state (calls in flight, a cancelled
 * controller) can never leak into the next, and a crashed worker needs no repair. The worker
 * keeps its own timers for retries (`deps.runtime` is not used) and a clock that goes on from
 * what `deps.clock` reads at the start. Where a worker cannot be made, runs in-thread.
 *
 * A worker busy without end (a guard rule or a check that never finishes) cannot read a cancel:
 * when it has not ended its dialogues `stopGraceMs` after Stop, it is terminated and the page
 * ends them in the log as stopped; when a dialogue is still going `limitGraceMs` past its time
 * limit, the worker is terminated, that dialogue ended as past its time limit, and the run goes
 * on in a fresh worker from the log (as a resumed run does: dialogues cut off start again).
 */
export function createWorkerSimulator(
  makeWorker: () => SimulationWorker,
  watch: WorkerWatch = {},
): Simulator {
  return async (model, plan, deps) => {
    const log: SimEvent[] = [...(deps.previous ?? [])];
    const emit = (event: SimEvent) => {
      log.push(event);
      deps.emit(event);
    };
    for (let previous = deps.previous; ; previous = [...log]) {
      const session: RunDeps = { ...deps, emit, ...(previous && { previous }) };
      let worker: SimulationWorker;
      try {
        worker = makeWorker();
      } catch {
        return simulateInThread(model, plan, session);
      }
      const outcome = await runInWorker(worker, model, plan, session, watch);
      if (outcome !== 'restart') return outcome;
    }
  };
}

function runInWorker(
  worker: SimulationWorker,
  model: ProjectModel,
  plan: RunPlan,
  deps: RunDeps,
  watch: WorkerWatch,
): Promise<'done' | 'cancelled' | 'budget' | 'restart'> {
  const { ref, engines } = splitPlan(plan);
  // Page-side model calls in flight, so the worker (or its crash) can stop them.
  const calls = new Map<number, AbortController>();
  let settled = false;
  const timers = watch.timers ?? browserTimers;
  const watching = new Set<unknown>();
  const inFlight = new InFlightDialogues();
  const timeLimitMs = plan.limits?.timeLimitMs ?? DEFAULT_LIMITS.timeLimitMs;

  return new Promise((resolve, reject) => {
    const after = (ms: number, run: () => void): unknown => {
      const timer = timers.setTimeout(() => {
        watching.delete(timer);
        if (!settled) run();
      }, ms);
      watching.add(timer);
      return timer;
    };
    const forget = (timer: unknown) => {
      timers.clearTimeout(timer);
      watching.delete(timer);
    };
    const limitTimers = new Map<string, unknown>();
    const send = (message: SimulationToWorker) => {
      if (!settled) worker.postMessage(message);
    };
    const cancel = () => {
      send({ type: 'cancel' });
      after(watch.stopGraceMs ?? 300, () => {
        // Still running: whatever it computes, it cannot hear the cancel.
        const at = deps.clock();
        for (const event of endStuckDialogues(inFlight.list(), 'cancelled', at)) deps.emit(event);
        deps.emit({ type: 'run-ended', at, reason: 'cancelled' });
        finish(() => {
          resolve('cancelled');
        });
      });
    };
    const overdue = (dialogue: string) => {
      if (!inFlight.has(dialogue) || deps.signal?.aborted) return;
      for (const event of endStuckDialogues([dialogue], 'time-limit', deps.clock()))
        deps.emit(event);
      finish(() => {
        resolve('restart');
      });
    };
    const finish = (end: () => void) => {
      if (settled) return;
      settled = true;
      deps.signal?.removeEventListener('abort', cancel);
      for (const timer of watching) timers.clearTimeout(timer);
      watching.clear();
      for (const call of calls.values()) call.abort();
      calls.clear();
      worker.terminate();
      end();
    };
    const stopped = (why: string) => {
      finish(() => {
        reject(new Error(`The simulation worker stopped: ${why}`));
      });
    };

    /** Runs one model call for the worker on the page's engine for its role. */
    const answer = ({ callId, role, request }: Extract<SimulationFromWorker, { type: 'chat' }>) => {
      const controller = new AbortController();
      calls.set(callId, controller);
      const reply = (message: SimulationToWorker) => {
        // An aborted call's late answer is not wanted.
        if (calls.get(callId) !== controller) return;
        calls.delete(callId);
        try {
          send(message);
        } catch (error) {
          // An answer that cannot be copied to the worker fails this call, not the run.
          send({ type: 'chat-result', callId, ok: false, error: errorRef(error) });
        }
      };
      const engine = engines.get(role);
      void (async () => {
        if (!engine) throw new Error(`No engine was given for the ${role} role.`);
        return engine.chat(request, { signal: controller.signal });
      })().then(
        (response) => {
          reply({ type: 'chat-result', callId, ok: true, response });
        },
        (error: unknown) => {
          reply({ type: 'chat-result', callId, ok: false, error: errorRef(error) });
        },
      );
    };

    const handle = (message: SimulationFromWorker) => {
      switch (message.type) {
        case 'event': {
          const event = withPlanFiles(message.event, plan.files);
          inFlight.observe(event);
          deps.emit(event);
          if (event.type === 'dialogue-started') {
            const timer = after(timeLimitMs + (watch.limitGraceMs ?? 2000), () => {
              overdue(event.dialogue);
            });
            limitTimers.set(event.dialogue, timer);
          } else if (event.type === 'dialogue-ended') {
            forget(limitTimers.get(event.dialogue));
            limitTimers.delete(event.dialogue);
          }
          return;
        }
        case 'chat':
          answer(message);
          return;
        case 'chat-abort':
          calls.get(message.callId)?.abort();
          calls.delete(message.callId);
          return;
        case 'generation-failure':
          deps.onGenerationFailure?.(message.failure);
          return;
        case 'done':
          finish(() => {
            resolve(message.outcome);
          });
          return;
        case 'failed':
          finish(() => {
            reject(new Error(message.message));
          });
      }
    };

    worker.onmessage = (event) => {
      if (settled) return;
      try {
        handle(event.data);
      } catch (error) {
        // What the page does with an event failed (as it would fail the run in-thread).
        finish(() => {
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      stopped(event.message || 'unknown error');
    };
    worker.onmessageerror = () => {
      stopped('a message from it could not be read');
    };
    deps.signal?.addEventListener('abort', cancel, { once: true });
    try {
      send({
        type: 'start',
        // The plan's files are the model's source (planRun records them): the worker reads them.
        ...(!plan.files && { model }),
        plan: ref,
        ...(deps.retry && { retry: deps.retry }),
        ...(deps.previous && { previous: deps.previous }),
        clockStart: deps.clock(),
      });
    } catch (error) {
      finish(() => {
        reject(error instanceof Error ? error : new Error(String(error)));
      });
      return;
    }
    if (deps.signal?.aborted) cancel();
  });
}

/** The plan as plain data, and the page's engine per role. */
function splitPlan(plan: RunPlan): { ref: PlanRef; engines: Map<ModelRole, ChatEngine> } {
  const { agent, user, judge, generator, ...rest } = plan;
  const engines = new Map<ModelRole, ChatEngine>([
    ['agent', agent.engine],
    ['user', user.engine],
  ]);
  if (judge) engines.set('judge', judge.engine);
  if (generator) engines.set('generator', generator.engine);
  return {
    ref: {
      ...rest,
      agent: { role: 'agent', model: agent.model },
      user: { role: 'user', model: user.model },
      ...(judge && { judge: { role: 'judge', model: judge.model } }),
      ...(generator && { generator: { role: 'generator', model: generator.model } }),
    },
    engines,
  };
}

/** A model-call failure as plain data: a ModelError keeps its kind, anything else its message. */
function errorRef(error: unknown): ErrorRef {
  if (error instanceof ModelError) {
    return {
      kind: error.kind,
      message: error.message,
      ...(error.status !== undefined && { status: error.status }),
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
