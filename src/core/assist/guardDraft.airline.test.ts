import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { Project } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import { checkDraft } from './guardCheck.ts';
import { guardablePolicies } from './guardable.ts';

/*
 * The airline example (public/examples/airline): every guard rule it already has, put to the
 * draft checks as if a model had proposed it, passes them; so the checks refuse bad drafts, not
 * real rules written by people.
 */

const folder = fileURLToPath(new URL('../../../public/examples/airline/', import.meta.url));
const project: Project = {
  name: 'Airline',
  files: Object.fromEntries(
    PROJECT_FILES.map(({ name }) => [name, readFileSync(`${folder}${name}`, 'utf8')]),
  ) as Project['files'],
};
const model = parseProject(project).model;

describe('guard drafts on the airline example', () => {
  it('finds nothing wrong with the conditions of the rules it already has', () => {
    const rules = model.guards.flatMap((g) => g.rules).filter((r) => r.when !== undefined);
    expect(rules.length).toBeGreaterThan(3);
    const others = { ...model, guards: [] };
    for (const rule of rules) {
      const check = checkDraft(
        others,
        {
          id: rule.id,
          policy: rule.policy,
          tool: rule.tool,
          decision: rule.decision,
          when: rule.when ?? '',
          fallback: rule.fallback,
          message: rule.message ?? '',
          examples: [],
        },
        '2024-05-15T15:00:00Z',
      );
      // Without examples it is refused for that alone: the condition itself passes.
      expect(check.problems, rule.id).toEqual([
        'Give at least one example call the rule must allow.',
        'Give at least one example call the rule must forbid.',
      ]);
    }
  });

  it('offers the policies that guard rules already enforce', () => {
    const offered = new Set(guardablePolicies(model).flatMap((g) => (g.offered ? [g.policy] : [])));
    const guarded = new Set(model.guards.flatMap((g) => g.rules.map((r) => r.policy)));
    const missed = [...guarded].filter((p) => {
      const policy = model.policies.find((q) => q.id === p);
      return policy !== undefined && policy.tools.length > 0 && !offered.has(p);
    });
    expect(missed).toEqual([]);
  });
});
