import type { ProjectModel } from '../format/model.ts';

/**
 * What can report on a policy without a judge model: a guard rule forbidding in its name, a tool's
 * precondition that encodes it (a call it refuses is an attempt), a transcript check naming it, or
 * a scenario expectation tied to it (one that names it, or any of a scenario that tests only this
 * policy: the ways `checkExpectations` ties an expectation to a policy).
 */
export type PolicyCoverage = 'guard' | 'precondition' | 'check' | 'expectation';

/**
 * Each policy of policies.yaml, in order, with what reports on it deterministically. An empty
 * list means only a judge model can say whether a dialogue kept it.
 */
export function policyCoverage(model: ProjectModel): Map<string, PolicyCoverage[]> {
  // Only a rule that forbids can charge a policy: an allow rule never makes a breach.
  const guarded = new Set(
    model.guards.flatMap((g) =>
      g.rules.flatMap((r) => (r.decision === 'forbid' ? [r.policy] : [])),
    ),
  );
  const required = new Set(
    model.tools.flatMap((t) => (t.requires ?? []).flatMap((r) => r.policy ?? [])),
  );
  const checked = new Set(model.checks.map((c) => c.policy));
  const expected = new Set(
    model.scenarios.flatMap((s) => {
      const [only] = s.policies;
      const named = Object.values(s.expected.attributions ?? {});
      return s.policies.length === 1 && only !== undefined && expectsSomething(s.expected)
        ? [only, ...named]
        : named;
    }),
  );
  return new Map(
    model.policies.map((p) => {
      const by: PolicyCoverage[] = [];
      if (guarded.has(p.id)) by.push('guard');
      if (required.has(p.id)) by.push('precondition');
      if (checked.has(p.id)) by.push('check');
      if (expected.has(p.id)) by.push('expectation');
      return [p.id, by];
    }),
  );
}

/** The ids of the policies only a judge model can report on, in policies.yaml's order. */
export function judgeOnlyPolicies(
  coverage: ReadonlyMap<string, readonly PolicyCoverage[]>,
): string[] {
  return [...coverage].flatMap(([id, by]) => (by.length === 0 ? [id] : []));
}

/** Whether a scenario's `expected` holds at least one assertion, action or phrase. */
export function expectsSomething(e: ProjectModel['scenarios'][number]['expected']): boolean {
  return (
    e.database.length +
      e.requiredActions.length +
      e.forbiddenActions.length +
      e.mustSay.length +
      e.mustNotSay.length +
      (e.userAssertions?.length ?? 0) >
    0
  );
}
