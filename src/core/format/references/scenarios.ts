import type { Diagnostic } from '../../diagnostics.ts';
import type { EndState } from '../model.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, duplicates, readable, unknownName } from './context.ts';
import type { YamlPath } from '../yamlFile.ts';
import { valueAt } from '../yamlFile.ts';
import { checkActionArgs } from './actionArgs.ts';
import { checkRows } from './rows.ts';

/**
 * scenarios.yaml: each scenario id used once, its policies defined, its rows fitting existing
 * tables (warned about when they would replace a seed row), its database expectations valid CEL,
 * and the tools it requires or forbids defined. An expectation that names its policy must name
 * one of the scenario's; one that names none, in a scenario of more than one policy, is warned
 * about: its failure could be charged to no policy. A scenario with no policies is told once
 * that its failures go unattributed; a required action's `args` are held to its tool's parameters.
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
    const raw = valueAt(context.files['scenarios.yaml'].value, expected);
    checkEndState(found, context, [...expected, 'end_state'], scenario.expected.endState);
    // A scenario that puts no policy in play (as tau2-bench's tasks) runs and is reported, its
    // failures unattributed: said once, not for each of its expectations.
    const unattributed = scenario.policies.length === 0;
    if (unattributed && hasExpectations(raw))
      found.report(
        'scenarios.yaml',
        [...scenario.path, 'id'],
        'no-policies',
        `"${scenario.id}" puts no policy in play, so a failure of an expectation that names none is reported as unattributed. List the policies it tests under "policies:" to have them counted.`,
        'info',
      );
    for (const [group, key] of EXPECTATION_KEYS) {
      for (const item of written(raw, expected, group, key)) {
        if (group === 'database')
          found.condition('scenarios.yaml', item.at, item.value, 'assertion');
        if (group.endsWith('_actions')) found.toolRef('scenarios.yaml', item.at, item.value);
        if (group === 'required_actions') checkActionArgs(found, context, item.at, item.value);
        if (item.policy) {
          found.policyRef('scenarios.yaml', item.policy.at, item.policy.id);
          if (context.policyIds.has(item.policy.id) && !scenario.policies.includes(item.policy.id))
            found.report(
              'scenarios.yaml',
              item.policy.at,
              'policy-not-in-play',
              `This expectation holds the agent to "${item.policy.id}", which the scenario does not put in play; add it to the scenario's policies.`,
              'warning',
            );
        } else if (scenario.policies.length > 1 && group !== 'assertions') {
          found.report(
            'scenarios.yaml',
            item.at,
            'unattributed-expectation',
            `This expectation names no policy, and its scenario has ${scenario.policies.length}: a failure of it could be charged to none. Write it as { ${key}: …, policy: <one of ${scenario.policies.join(', ') || 'the scenario’s policies'}> }.`,
            'warning',
          );
        }
      }
    }
  }
  return found.diagnostics;
}

/** Each expectation list of a scenario, and the key its mapping form holds the value under. */
const EXPECTATION_KEYS = [
  ['database', 'assert'],
  ['required_actions', 'tool'],
  ['forbidden_actions', 'tool'],
  ['must_say', 'phrase'],
  ['must_not_say', 'phrase'],
  ['assertions', 'assertion'],
  // Dual control; their CEL and tables are checked in dualControl.ts.
  ['user_assertions', 'assert'],
] as const;

/** Whether a scenario's `expected`, as written, holds any expectation at all. */
function hasExpectations(raw: unknown): boolean {
  const end = valueAt(raw, ['end_state']);
  if (end !== null && typeof end === 'object') return true;
  return EXPECTATION_KEYS.some(([group]) => {
    const items = valueAt(raw, [group]);
    return Array.isArray(items) && items.length > 0;
  });
}

/** `end_state:` names tables and columns that exist. */
function checkEndState(
  found: Findings,
  context: ReferenceContext,
  at: YamlPath,
  endState: EndState | undefined,
) {
  if (!endState || !readable(context, 'database.yaml')) return;
  for (const [tableName, rows] of Object.entries(endState)) {
    const table = context.tables.get(tableName);
    if (!table) {
      found.reportKey(
        'scenarios.yaml',
        [...at, tableName],
        'unknown-table',
        unknownName('table', tableName, context.tables.keys()),
      );
      continue;
    }
    const columns = new Set(table.columns.map((c) => c.name));
    for (const [key, row] of Object.entries(rows)) {
      for (const name of Object.keys(row ?? {}))
        if (!columns.has(name))
          found.reportKey(
            'scenarios.yaml',
            [...at, tableName, key, name],
            'unknown-column',
            unknownName(`column of ${tableName}`, name, columns),
          );
    }
  }
}

/** One expectation as written in scenarios.yaml. */
interface Written {
  readonly at: YamlPath;
  readonly value: string;
  readonly policy: { readonly at: YamlPath; readonly id: string } | undefined;
}

/**
 * The expectations of one list as written: where each value is (the item itself, or its `key`
 * in the mapping form), the value, and the policy it names with where that is.
 */
function written(raw: unknown, expected: YamlPath, group: string, key: string): Written[] {
  const items = valueAt(raw, [group]);
  if (!Array.isArray(items)) return [];
  return (items as unknown[]).flatMap((item, i): Written[] => {
    const at: YamlPath = [...expected, group, i];
    if (typeof item === 'string') return [{ at, value: item, policy: undefined }];
    if (typeof item !== 'object' || item === null) return [];
    const { [key]: value, policy } = item as Record<string, unknown>;
    if (typeof value !== 'string') return [];
    return [
      {
        at: [...at, key],
        value,
        policy: typeof policy === 'string' ? { at: [...at, 'policy'], id: policy } : undefined,
      },
    ];
  });
}
