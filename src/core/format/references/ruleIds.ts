import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, duplicates } from './context.ts';

/** rules.yaml: guard rules and checks share one space of ids, and each id is used once. */
export function checkRuleIds(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const { guards, checks } = context.model;
  const ruleIds = [
    ...guards.flatMap((g) => g.rules.map((r) => ({ id: r.id, path: r.path }))),
    ...checks.map((c) => ({ id: c.id, path: c.path })),
  ];
  duplicates(
    ruleIds,
    (r) => r.id,
    (r, id) => {
      found.report(
        'rules.yaml',
        [...r.path, 'id'],
        'duplicate-id',
        `The rule id "${id}" is used twice; ids must be unique.`,
      );
    },
  );
  return found.diagnostics;
}
