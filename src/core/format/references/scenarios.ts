import type { Diagnostic } from '../../diagnostics.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, duplicates, readable, unknownName } from './context.ts';
import { checkRows } from './rows.ts';

/**
 * scenarios.yaml: each scenario id used once, its policies defined, its rows fitting existing
 * tables (warned about when they would replace a seed row), its database expectations valid CEL,
 * and the tools it requires or forbids defined.
 */
export function checkScenarios(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  duplicates(
    context.model.scenarios,
    (s) => s.id,
    (s, id) => {
      found.report(
        'scenarios.yaml',
        [...s.path, 'id'],
        'duplicate-id',
        `The scenario id "${id}" is used twice; ids must be unique.`,
      );
    },
  );
  for (const scenario of context.model.scenarios) {
    scenario.policies.forEach((id, i) => {
      found.policyRef('scenarios.yaml', [...scenario.path, 'policies', i], id);
    });
    for (const [tableName, rows] of Object.entries(scenario.rows)) {
      const table = context.tables.get(tableName);
      if (!table) {
        if (readable(context, 'database.yaml'))
          found.reportKey(
            'scenarios.yaml',
            [...scenario.path, 'rows', tableName],
            'unknown-table',
            unknownName('table', tableName, context.tables.keys()),
          );
        continue;
      }
      checkRows(found, 'scenarios.yaml', [...scenario.path, 'rows', tableName], table, rows, false);
    }
    const expected = [...scenario.path, 'expected'];
    scenario.expected.database.forEach((assertion, i) => {
      found.condition('scenarios.yaml', [...expected, 'database', i], assertion, 'assertion');
    });
    scenario.expected.requiredActions.forEach((tool, i) => {
      found.toolRef('scenarios.yaml', [...expected, 'required_actions', i], tool);
    });
    scenario.expected.forbiddenActions.forEach((tool, i) => {
      found.toolRef('scenarios.yaml', [...expected, 'forbidden_actions', i], tool);
    });
  }
  return found.diagnostics;
}
