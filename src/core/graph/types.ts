import type { RelationOrigin } from '../format/model.ts';
import type { YamlPath } from '../format/yamlFile.ts';

/** A policy as the graph shows it. */
export interface GraphNode {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  /** 1 (straightforward) to 5 (highly complex). */
  readonly challenge: number;
  readonly tools: readonly string[];
  /** Database tables the policy's tools read or write (from the tools' effects). */
  readonly tables: readonly string[];
  /** Where the policy is written in policies.yaml. */
  readonly path: YamlPath;
}

/** How strongly two policies meet in one conversation, 0 (never) to 10 (always). */
export interface GraphEdge {
  /** `source|target`, with source < target: one edge per unordered pair. */
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly weight: number;
  /** manual and model edges are written in policies.yaml; heuristic ones are computed. */
  readonly origin: RelationOrigin;
  /** For heuristic edges: what the two policies share, in words ("tool refund_order", ...). */
  readonly reasons: readonly string[];
  /** For written relations: the reason written with it (a model's, for its rating), if any. */
  readonly reason?: string;
  /** Where a written relation is in policies.yaml; absent for heuristic edges. */
  readonly path?: YamlPath;
}

/** The policy graph of a project. */
export interface PolicyGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Categories in order of first appearance, for a stable legend and colours. */
  readonly categories: readonly string[];
}

/** Test history per policy id, from earlier runs. */
export type PolicyCoverage = ReadonlyMap<
  string,
  { readonly tested: number; readonly failed: number }
>;

/** A combination of policies sampled for one scenario. */
export interface PolicySample {
  /** Policy ids in the order the walk visited them; the first is the start node. */
  readonly policies: readonly string[];
  /** The summed challenge of the policies. */
  readonly level: number;
  /** The level the walk aimed for. */
  readonly target: number;
}

/** What to sample. */
export interface SampleOptions {
  readonly seed: number;
  readonly count: number;
  /** The inclusive band of levels (summed challenge) a sample may have. */
  readonly levels: { readonly min: number; readonly max: number };
  /** Prefer policies and pairs that earlier samples or runs have not covered yet. */
  readonly preferUncovered?: boolean;
  readonly coverage?: PolicyCoverage;
}
