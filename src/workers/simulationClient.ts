import type { ProjectModel } from '../core/format/model.ts';
import type { ChatEngine, ModelRole } from '../core/models/chat.ts';
import { ModelError } from '../core/models/errors.ts';
import type { RunDeps, RunPlan } from '../core/sim/run.ts';
import type {
  ErrorRef,
  PlanRef,
  SimulationFromWorker,
  SimulationToWorker,
} from './simulationProtocol.ts';

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
 * Runs simulations in a Web Worker while every model engine stays in the page: the worker asks
 * the page for each model call, so API keys and the local engine never leave it. Each run gets
 * its own worker, terminated when the run ends: a run's state (calls in flight, a cancelled
 * controller) can never leak into the next, and a crashed worker needs no repair. The worker
 * keeps its own timers for retries (`deps.runtime` is not used) and a clock that goes on from
 * what `deps.clock` reads at the start. Where a worker cannot be made, runs in-thread.
 */
export function createWorkerSimulator(makeWorker: () => Worker): Simulator {
  return (model, plan, deps) => {
    let worker: Worker;
    try {
      worker = makeWorker();
    } catch {
      return simulateInThread(model, plan, deps);
    }
    return runInWorker(worker, model, plan, deps);
  };
}

function runInWorker(
  worker: Worker,
  model: ProjectModel,
  plan: RunPlan,
  deps: RunDeps,
): Promise<'done' | 'cancelled' | 'budget'> {
  const { ref, engines } = splitPlan(plan);
  // Page-side model calls in flight, so the worker (or its crash) can stop them.
  const calls = new Map<number, AbortController>();
  let settled = false;

  return new Promise((resolve, reject) => {
    const send = (message: SimulationToWorker) => {
      if (!settled) worker.postMessage(message);
    };
    const cancel = () => {
      send({ type: 'cancel' });
    };
    const finish = (end: () => void) => {
      if (settled) return;
      settled = true;
      deps.signal?.removeEventListener('abort', cancel);
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
        case 'event':
          deps.emit(message.event);
          return;
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

    worker.onmessage = (event: MessageEvent<SimulationFromWorker>) => {
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
        model,
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
