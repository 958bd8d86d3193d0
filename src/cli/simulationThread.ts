import { Worker } from 'node:worker_threads';
import type { SimulationWorker } from '../workers/simulationClient.ts';
import type { SimulationFromWorker } from '../workers/simulationProtocol.ts';

/**
 * A Node thread running `simulation.thread.ts`, in the shape the page's worker client takes: the
 * CLI's runs go through the same client, so Stop (Ctrl+C) and the dialogue time limit end a
 * thread that computes without end. The thread loads TypeScript as the CLI does, through tsx.
 */
export function simulationThread(): SimulationWorker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./simulation.thread.ts', import.meta.url).href;
  const thread = new Worker(
    `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
  const worker: SimulationWorker = {
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
