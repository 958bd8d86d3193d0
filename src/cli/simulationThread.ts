import { Worker } from 'node:worker_threads';
import type { SimulationWorker } from '../workers/simulationClient.ts';
import type { SimulationFromWorker } from '../workers/simulationProtocol.ts';

/**
 * A Node thread running `simulation.thread.ts`, in the shape the page's worker client takes: the
 * CLI's runs go through the same client, so Stop (Ctrl+C) and the dialogue time limit end a
 * thread that computes without end. The thread loads TypeScript as the CLI does, through tsx.
 * `entry` is for tests only (a thread that never answers); the CLI always runs the real one.
 * `exited` settles when the thread has ended.
 */
export function simulationThread(
  entry: URL = new URL('./simulation.thread.ts', import.meta.url),
): SimulationWorker & { readonly exited: Promise<void> } {
  const tsx = import.meta.resolve('tsx/esm/api');
  const thread = new Worker(
    `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true },
  );
  const exited = new Promise<void>((resolve) => {
    thread.once('exit', () => {
      resolve();
    });
  });
  const worker: SimulationWorker & { readonly exited: Promise<void> } = {
    exited,
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    postMessage: (message) => {
      thread.postMessage(message);
    },
    terminate: () => thread.terminate(),
  };
  thread.on('message', (data: SimulationFromWorker) => {
    worker.onmessage?.({ data });
  });
  thread.on('error', (error) => {
    worker.onerror?.({ message: error.message, preventDefault: () => undefined });
  });
  thread.on('messageerror', () => {
    worker.onmessageerror?.();
  });
  return worker;
}
