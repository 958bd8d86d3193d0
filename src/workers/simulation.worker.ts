// Runs a simulation off the main thread; every model call goes back to the page's engines.
import { platformRuntime } from '../adapters/models/runtime.ts';
import type { SimulationFromWorker, SimulationToWorker } from './simulationProtocol.ts';
import { serveSimulation } from './simulationProtocol.ts';

const handle = serveSimulation(
  (message: SimulationFromWorker) => {
    self.postMessage(message);
  },
  { runtime: platformRuntime, now: () => performance.now() },
);

self.onmessage = (event: MessageEvent<SimulationToWorker>) => {
  handle(event.data);
};
