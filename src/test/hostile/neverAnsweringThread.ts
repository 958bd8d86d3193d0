// A simulation thread that never answers: it starts the first scenario's first dialogue and then
// computes without end, as a stuck condition did before the CEL step budget. Once that dialogue
// is in the log it was given (a fresh thread after the time limit), it ends the run at once.
// Only `src/cli/runStuck.test.ts` starts it, through `simulationThread`'s entry parameter, which
// no CLI flag reaches: it proves that the time limit terminates a real thread that cannot listen.
import { parentPort } from 'node:worker_threads';
import type { SimulationToWorker } from '../../workers/simulationProtocol.ts';

const port = parentPort;
port?.on('message', (message: SimulationToWorker) => {
  if (message.type !== 'start') return;
  const scenario = message.plan.scenarios[0]?.scenario.id ?? 'scenario';
  const dialogue = `${scenario}#0`;
  const at = message.clockStart;
  if (message.previous?.some((e) => e.type === 'dialogue-ended' && e.dialogue === dialogue)) {
    port.postMessage({ type: 'event', event: { type: 'run-ended', at, reason: 'done' } });
    port.postMessage({ type: 'done', outcome: 'done' });
    return;
  }
  const started = { type: 'dialogue-started', at, dialogue, scenario, trial: 0 };
  port.postMessage({ type: 'event', event: started });
  // Reads the clock so that no engine can prove the loop idle and drop it.
  for (let t = 0; t >= 0; t = performance.now());
});
