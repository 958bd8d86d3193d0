import type { ProjectModel } from '../core/format/model.ts';
import type { ChatEngine, ChatRequest, ChatResponse, ModelRole } from '../core/models/chat.ts';
import type { ModelErrorKind } from '../core/models/errors.ts';
import { ModelError } from '../core/models/errors.ts';
import type { RetryPolicy, RetryRuntime } from '../core/models/retry.ts';
import type { Player } from '../core/sim/dialogue.ts';
import type { SimEvent } from '../core/sim/events.ts';
import type { GenerationFailure } from '../core/sim/generate.ts';
import type { RunPlan } from '../core/sim/run.ts';
import { runSimulation } from '../core/sim/run.ts';
import { parseProject } from '../core/format/parseProject.ts';
import { withoutPlanFiles } from './planFiles.ts';

/** A model playing a part, as it crosses to the worker: the engine stays in the page. */
export interface PlayerRef {
  readonly role: ModelRole;
  readonly model: string;
}

type Roles = 'agent' | 'user' | 'judge' | 'generator';

/** A run plan as it crosses to the worker: plain data, each player named by its role. */
export type PlanRef = Omit<RunPlan, Roles> & {
  readonly agent: PlayerRef;
  readonly user: PlayerRef;
  readonly judge?: PlayerRef;
  readonly generator?: PlayerRef;
};

/**
 * A failed model call, as it crosses back: with `kind` it is rebuilt as the same ModelError (so
 * retries and repairs in the worker act as they would in the page); without, as a plain Error.
 */
export interface ErrorRef {
  readonly message: string;
  readonly kind?: ModelErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
}

/** What the page tells the simulation worker. */
export type SimulationToWorker =
  | {
      readonly type: 'start';
      /**
       * Left out when the plan carries the files it was planned from: the worker reads them
       * itself, so the page never copies the model (a database of 100,000 rows takes the page's
       * thread 300 ms to copy; its text, a moment).
       */
      readonly model?: ProjectModel;
      readonly plan: PlanRef;
      readonly retry?: RetryPolicy;
      /** The log of an interrupted run, to go on with. */
      readonly previous?: readonly SimEvent[];
      /** What the run's clock reads now; the worker's clock goes on from it. */
      readonly clockStart: number;
    }
  | { readonly type: 'cancel' }
  | {
      readonly type: 'chat-result';
      readonly callId: number;
      readonly ok: true;
      readonly response: ChatResponse;
    }
  | {
      readonly type: 'chat-result';
      readonly callId: number;
      readonly ok: false;
      readonly error: ErrorRef;
    };

/** What the simulation worker tells the page, in order. */
export type SimulationFromWorker =
  | { readonly type: 'event'; readonly event: SimEvent }
  /** A model call for the page's engine for `role` to run. */
  | {
      readonly type: 'chat';
      readonly callId: number;
      readonly role: ModelRole;
      readonly request: ChatRequest;
    }
  /** The call is no longer wanted (cancelled, or its attempt timed out). */
  | { readonly type: 'chat-abort'; readonly callId: number }
  | { readonly type: 'generation-failure'; readonly failure: GenerationFailure }
  | { readonly type: 'done'; readonly outcome: 'done' | 'cancelled' | 'budget' }
  | { readonly type: 'failed'; readonly message: string };

/** What the worker's side needs from its host: timers and randomness for retries, a clock. */
export interface SimulationHost {
  readonly runtime: RetryRuntime;
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
}

/** Turns a serialized model-call failure back into what the engine threw. */
export function rebuildError(error: ErrorRef): Error {
  if (error.kind === undefined) return new Error(error.message);
  return new ModelError(error.kind, error.message, {
    ...(error.status !== undefined && { status: error.status }),
    ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
  });
}

/**
 * The simulation worker's whole job, kept here so tests drive it in-process: takes one `start`,
 * runs core's `runSimulation` with a stand-in engine per role that asks the page (`chat`) and
 * waits for its `chat-result`, posts every event as it happens, and ends with `done` or
 * `failed`. A `cancel` stops the run as a page-side abort would. Returns the message handler.
 */
export function serveSimulation(
  post: (message: SimulationFromWorker) => void,
  host: SimulationHost,
): (message: SimulationToWorker) => void {
  const controller = new AbortController();
  const waiting = new Map<
    number,
    { readonly resolve: (r: ChatResponse) => void; readonly reject: (e: Error) => void }
  >();
  let lastCall = 0;
  let started = false;

  /** An engine that runs each call in the page, as the page's engine for `role`. */
  const proxy = (role: ModelRole): ChatEngine => ({
    chat(request, options) {
      const signal = options?.signal;
      const stopped = () => new ModelError('aborted', 'The call was stopped.');
      if (signal?.aborted) return Promise.reject(stopped());
      const callId = ++lastCall;
      return new Promise<ChatResponse>((resolve, reject) => {
        const abort = () => {
          if (!waiting.delete(callId)) return;
          post({ type: 'chat-abort', callId });
          reject(stopped());
        };
        const settle = () => {
          waiting.delete(callId);
          signal?.removeEventListener('abort', abort);
        };
        waiting.set(callId, {
          resolve: (response) => {
            settle();
            // The page does not stream across; the answer comes as one piece.
            if (response.message.content !== '')
              options?.onDelta?.({ kind: 'text', text: response.message.content });
            resolve(response);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
        signal?.addEventListener('abort', abort, { once: true });
        post({ type: 'chat', callId, role, request });
      });
    },
  });
  const player = (ref: PlayerRef): Player => ({ engine: proxy(ref.role), model: ref.model });

  const start = (message: Extract<SimulationToWorker, { type: 'start' }>) => {
    const { agent, user, judge, generator, ...rest } = message.plan;
    const plan: RunPlan = {
      ...rest,
      agent: player(agent),
      user: player(user),
      ...(judge && { judge: player(judge) }),
      ...(generator && { generator: player(generator) }),
    };
    const t0 = host.now();
    const model = message.model ?? modelOf(plan.files);
    if (!model) {
      post({ type: 'failed', message: 'The run was sent with neither its model nor its files.' });
      return;
    }
    runSimulation(model, plan, {
      runtime: host.runtime,
      ...(message.retry && { retry: message.retry }),
      // As the page's clock would read: a resumed run's clock goes on from its log.
      clock: () => message.clockStart + Math.round(host.now() - t0),
      signal: controller.signal,
      ...(message.previous && { previous: message.previous }),
      emit: (event) => {
        post({ type: 'event', event: withoutPlanFiles(event) });
      },
      onGenerationFailure: (failure) => {
        post({ type: 'generation-failure', failure });
      },
    }).then(
      (outcome) => {
        post({ type: 'done', outcome });
      },
      (error: unknown) => {
        post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
  };

  return (message) => {
    switch (message.type) {
      case 'start':
        if (started) {
          post({ type: 'failed', message: 'A simulation worker runs one simulation only.' });
          return;
        }
        started = true;
        start(message);
        return;
      case 'cancel':
        controller.abort();
        return;
      case 'chat-result': {
        // A call already aborted here has no one waiting; its late answer is dropped.
        const call = waiting.get(message.callId);
        if (!call) return;
        if (message.ok) call.resolve(message.response);
        else call.reject(rebuildError(message.error));
      }
    }
  };
}

/** The model of the files a run was planned from, read as the analysis read them. */
function modelOf(files: RunPlan['files']): ProjectModel | undefined {
  return files && parseProject({ name: '', files }).model;
}
