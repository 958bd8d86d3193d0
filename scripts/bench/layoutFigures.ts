// Benchmark figure for the automatic graph layout: the generated 1,000-policy project with 10,000
// written relations (about 12,000 edges once heuristic ones are added and weight-0 ones dropped,
// as the graph view does), laid out in a worker. The worker is a Node worker_threads Worker that
// answers requests with the same code as the page's layout worker (answerLayoutRequest, which
// calls core's layoutGraph), and each time runs from posting the request to receiving the
// result, so copying the graph in and the positions out is counted. Median of 5 after a warm-up.
import { Worker } from 'node:worker_threads';
import { parseProject } from '../../src/core/format/parseProject.ts';
import { buildGraph } from '../../src/core/graph/build.ts';
import type { LayoutInput } from '../../src/core/graph/layout.ts';
import { nodeRadius } from '../../src/core/graph/palette.ts';
import { generateProject } from '../../src/core/testing/generateProject.ts';
import type { LayoutRequest, LayoutResponse } from '../../src/workers/layoutProtocol.ts';

const SIZE = { policies: 1000, tools: 100, rules: 2000, relations: 10_000 };
const RUNS = 5;
const SEED = 7;
// The worker thread's program. Node 20 does not hand tsx's loader on to worker threads, so the
// worker registers it itself before loading the layout worker's code.
const WORKER_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
import('tsx/esm/api')
  .then((tsx) => { tsx.register(); return import(workerData.protocol); })
  .then(({ answerLayoutRequest }) => {
    parentPort.on('message', (request) =>
      answerLayoutRequest(request, (response) => parentPort.postMessage(response)));
    parentPort.postMessage('ready');
  });
`;

/** The layout input the graph view would send for a project. */
function layoutInput(): LayoutInput {
  const graph = buildGraph(parseProject(generateProject(SIZE)).model);
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id, radius: nodeRadius(n.challenge) })),
    edges: graph.edges.filter((e) => e.weight > 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? Number.NaN) * 10) / 10;
}

/** Posts one request and resolves when the worker's result for it arrives. */
function layoutIn(worker: Worker, request: LayoutRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (response: LayoutResponse) => {
      if (response.id !== request.id || response.type === 'progress') return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      if (response.type === 'done') resolve();
      else reject(new Error(response.error));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.postMessage(request);
  });
}

/** Milliseconds to lay out the 1,000-node, ~12,000-edge graph in a worker thread. */
export async function layoutFigures(): Promise<{ layout_ms: number }> {
  const input = layoutInput();
  const worker = new Worker(WORKER_PROGRAM, {
    eval: true,
    workerData: { protocol: new URL('../../src/workers/layoutProtocol.ts', import.meta.url).href },
  });
  try {
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await layoutIn(worker, { id: 0, input, seed: SEED });
    const times: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const start = performance.now();
      await layoutIn(worker, { id: run, input, seed: SEED });
      times.push(performance.now() - start);
    }
    return { layout_ms: median(times) };
  } finally {
    await worker.terminate();
  }
}
