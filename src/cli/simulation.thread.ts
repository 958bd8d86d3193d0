// The CLI's simulation thread: core's runSimulation off the main thread, as the page's Web
// Worker runs it, so a condition that never ends can be stopped by ending the thread.
import { parentPort } from 'node:worker_threads';
import { platformRuntime } from '../adapters/models/runtime.ts';
import type { SimulationToWorker } from '../workers/simulationProtocol.ts';
import { serveSimulation } from '../workers/simulationProtocol.ts';

const port = parentPort;
if (port) {
  const handle = serveSimulation(
    (message) => {
      port.postMessage(message);
    },
    { runtime: platformRuntime, now: () => performance.now() },
  );
  port.on('message', (message: SimulationToWorker) => {
    handle(message);
  });
}
