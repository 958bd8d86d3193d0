import type { PolicyFacts, RunReport, SimEvent } from '../core/index.ts';
import { reportOf } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';

/*
 * One report per log: Simulate's report, Replay's list, the graph's heatmap and Compare often show
 * the same run, and folding a log of 10,000 dialogues costs a noticeable part of a second, so
 * they share one fold per log and project policies instead of each folding it again.
 */

type Policies = NonNullable<AppState['analysis']>['model']['policies'];

const NO_POLICIES: PolicyFacts = new Map();
const factsByPolicies = new WeakMap<Policies, PolicyFacts>();

/** Each policy's category and challenge, one map per policy list (the analysis keeps the list). */
export function policyFactsOf(policies: Policies | undefined): PolicyFacts {
  if (!policies) return NO_POLICIES;
  let facts = factsByPolicies.get(policies);
  if (!facts) {
    facts = new Map(policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]));
    factsByPolicies.set(policies, facts);
  }
  return facts;
}

/** The project's policy facts, as the store holds them now. */
export const stateFacts = (state: AppState): PolicyFacts =>
  policyFactsOf(state.analysis?.model.policies);

const reports = new WeakMap<readonly SimEvent[], { facts: PolicyFacts; report: RunReport }>();

/**
 * The report of a log (an array the store holds; a grown log is a new array) with the given
 * policy facts: folded once, then the same object for every caller until the log or the facts
 * change.
 */
export function reportFor(events: readonly SimEvent[], facts: PolicyFacts): RunReport {
  const held = reports.get(events);
  if (held?.facts === facts) return held.report;
  const report = reportOf(events, facts);
  reports.set(events, { facts, report });
  return report;
}
