// Benchmark figures for the policy graph: building it and sampling from it, on the generated
// 1,000-policy project with 10,000 written relations. Medians of 11 runs after a warm-up.
import { parseProject } from '../../src/core/format/parseProject.ts';
import { buildGraph } from '../../src/core/graph/build.ts';
import { samplePolicies } from '../../src/core/graph/sample.ts';
import { generateProject } from '../../src/core/testing/generateProject.ts';

const SIZE = { policies: 1000, tools: 100, rules: 2000, relations: 10_000 };
const RUNS = 11;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? Number.NaN) * 10) / 10;
}

/** Milliseconds to build the graph of a parsed project, and to draw 10,000 samples from it. */
export function graphFigures(): { graph_build_ms: number; sample_10k_ms: number } {
  const { model } = parseProject(generateProject(SIZE));
  const graph = buildGraph(model);
  const options = (seed: number) => ({ seed, count: 10_000, levels: { min: 5, max: 10 } });
  buildGraph(model);
  samplePolicies(graph, options(-1));
  const build: number[] = [];
  const sample: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    buildGraph(model);
    build.push(performance.now() - start);
    start = performance.now();
    samplePolicies(graph, options(run));
    sample.push(performance.now() - start);
  }
  return { graph_build_ms: median(build), sample_10k_ms: median(sample) };
}
