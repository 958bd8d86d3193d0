import type { CelContext } from '../cel.ts';
import { checkCel } from '../cel.ts';
import type { Diagnostic, Severity } from '../diagnostics.ts';
import { diagnosticAt } from '../diagnostics.ts';
import type { ProjectFileName } from '../project.ts';
import { closest } from '../text.ts';
import type { Column, ProjectModel, Row, Table } from './model.ts';
import type { YamlFile, YamlPath } from './yamlFile.ts';

/** The parsed YAML files of a project, by name (agent.md is not YAML). */
export type YamlFiles = Readonly<Record<Exclude<ProjectFileName, 'agent.md'>, YamlFile>>;

/**
 * Checks everything that ties one file to another: ids that must exist, ids that must be unique,
 * rows that must fit their tables, and conditions that must be valid CEL.
 */
export function checkReferences(
  model: ProjectModel,
  files: YamlFiles,
  promptLineCount: number,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (
    file: keyof YamlFiles,
    path: YamlPath,
    code: string,
    message: string,
    severity: Severity = 'error',
  ) => out.push(files[file].at(path, severity, code, message));

  const policyIds = new Set(model.policies.map((p) => p.id));
  const toolNames = new Set(model.tools.map((t) => t.name));
  const tables = new Map(model.tables.map((t) => [t.name, t]));
  // A file that could not be read yields no names; checking against it would only report
  // every reference to it as unknown, burying the one real error.
  const readable = (file: keyof YamlFiles) => files[file].value !== undefined;

  const unknownName = (kind: string, name: string, known: Iterable<string>) => {
    const guess = closest(name, known);
    return `Unknown ${kind} "${name}".${guess ? ` Did you mean "${guess}"?` : ''}`;
  };
  const checkPolicyRef = (file: keyof YamlFiles, path: YamlPath, id: string) => {
    if (readable('policies.yaml') && !policyIds.has(id))
      report(file, path, 'unknown-policy', unknownName('policy', id, policyIds));
  };
  const checkToolRef = (file: keyof YamlFiles, path: YamlPath, name: string) => {
    if (readable('tools.yaml') && !toolNames.has(name))
      report(file, path, 'unknown-tool', unknownName('tool', name, toolNames));
  };
  const checkCondition = (
    file: keyof YamlFiles,
    path: YamlPath,
    source: string,
    context: CelContext,
  ) => {
    const problem = checkCel(source, context);
    if (problem)
      out.push(celDiagnostic(files[file], path, source, problem.offset, problem.message));
  };
  const duplicates = <T>(
    items: readonly T[],
    idOf: (item: T) => string,
    onDuplicate: (item: T, id: string) => void,
  ) => {
    const seen = new Set<string>();
    for (const item of items) {
      const id = idOf(item);
      if (seen.has(id)) onDuplicate(item, id);
      seen.add(id);
    }
  };

  // policies.yaml
  duplicates(
    model.policies,
    (p) => p.id,
    (p, id) =>
      report(
        'policies.yaml',
        [...p.path, 'id'],
        'duplicate-id',
        `The policy id "${id}" is used twice; ids must be unique.`,
      ),
  );
  for (const policy of model.policies) {
    policy.tools.forEach((tool, i) => {
      checkToolRef('policies.yaml', [...policy.path, 'tools', i], tool);
    });
    if (policy.source && policy.source.line > promptLineCount) {
      report(
        'policies.yaml',
        [...policy.path, 'source', 'line'],
        'bad-source',
        `agent.md has ${promptLineCount} lines; line ${policy.source.line} does not exist.`,
        'warning',
      );
    }
  }
  const pairs = new Set<string>();
  for (const relation of model.relations) {
    const [a, b] = relation.between;
    checkPolicyRef('policies.yaml', [...relation.path, 'between', 0], a);
    checkPolicyRef('policies.yaml', [...relation.path, 'between', 1], b);
    if (a === b)
      report(
        'policies.yaml',
        [...relation.path, 'between'],
        'self-relation',
        `A policy cannot relate to itself ("${a}").`,
      );
    const key = [a, b].sort().join('\u0000');
    if (pairs.has(key)) {
      report(
        'policies.yaml',
        [...relation.path, 'between'],
        'duplicate-relation',
        `"${a}" and "${b}" are already related above; keep one weight per pair.`,
        'warning',
      );
    }
    pairs.add(key);
  }

  // database.yaml
  duplicates(
    model.tables,
    (t) => t.name,
    (t, name) =>
      report(
        'database.yaml',
        [...t.path, 'name'],
        'duplicate-id',
        `The table "${name}" is defined twice.`,
      ),
  );
  for (const table of model.tables) {
    const columnNames = table.columns.map((c) => c.name);
    if (table.key !== '' && !columnNames.includes(table.key)) {
      report(
        'database.yaml',
        [...table.path, 'key'],
        'unknown-column',
        unknownName('column', table.key, columnNames).replace('.', ` in table "${table.name}".`),
      );
    }
    for (const column of table.columns) {
      if (column.references !== undefined && !tables.has(column.references)) {
        report(
          'database.yaml',
          [...table.path, 'columns', column.name, 'references'],
          'unknown-table',
          unknownName('table', column.references, tables.keys()),
        );
      }
    }
    checkRows('database.yaml', [...table.path, 'rows'], table, table.rows, true);
  }
  checkForeignKeys();

  // tools.yaml
  duplicates(
    model.tools,
    (t) => t.name,
    (t, name) =>
      report(
        'tools.yaml',
        [...t.path, 'name'],
        'duplicate-id',
        `The tool "${name}" is defined twice.`,
      ),
  );
  for (const tool of model.tools) {
    const properties = Object.keys(tool.parameters.properties ?? {});
    (tool.parameters.required ?? []).forEach((name, i) => {
      if (!properties.includes(name)) {
        report(
          'tools.yaml',
          [...tool.path, 'parameters', 'required', i],
          'unknown-parameter',
          `"${name}" is required but not among the parameters (${properties.join(', ') || 'none'}).`,
        );
      }
    });
    for (const effect of tool.effects) {
      const table = tables.get(effect.table);
      if (!table && readable('database.yaml')) {
        report(
          'tools.yaml',
          [...effect.path, effect.op],
          'unknown-table',
          unknownName('table', effect.table, tables.keys()),
        );
      }
      if ((effect.op === 'update' || effect.op === 'delete') && effect.where === undefined) {
        report(
          'tools.yaml',
          effect.path,
          'missing-where',
          `This ${effect.op} has no "where", so it would touch every row of "${effect.table}". Add a condition (use "where: true" if you mean all rows).`,
          'warning',
        );
      }
      if (effect.where !== undefined)
        checkCondition('tools.yaml', [...effect.path, 'where'], effect.where, 'effect');
      const field = effect.op === 'insert' ? 'values' : 'set';
      for (const [column, expression] of Object.entries(effect.columns)) {
        if (table && !table.columns.some((c) => c.name === column)) {
          report(
            'tools.yaml',
            [...effect.path, field, column],
            'unknown-column',
            unknownName(
              'column',
              column,
              table.columns.map((c) => c.name),
            ).replace('.', ` in table "${table.name}".`),
          );
        }
        checkCondition('tools.yaml', [...effect.path, field, column], expression, 'effect');
      }
    }
    if (tool.returns !== undefined)
      checkCondition('tools.yaml', [...tool.path, 'returns'], tool.returns, 'returns');
  }

  // rules.yaml
  const ruleIds = [
    ...model.guards.flatMap((g) => g.rules.map((r) => ({ id: r.id, path: r.path }))),
    ...model.checks.map((c) => ({ id: c.id, path: c.path })),
  ];
  duplicates(
    ruleIds,
    (r) => r.id,
    (r, id) =>
      report(
        'rules.yaml',
        [...r.path, 'id'],
        'duplicate-id',
        `The rule id "${id}" is used twice; ids must be unique.`,
      ),
  );
  for (const guards of model.guards) {
    if (readable('tools.yaml') && !toolNames.has(guards.tool)) {
      out.push(
        files['rules.yaml'].atKey(
          guards.path,
          'error',
          'unknown-tool',
          unknownName('tool', guards.tool, toolNames),
        ),
      );
    }
    for (const rule of guards.rules) {
      checkPolicyRef('rules.yaml', [...rule.path, 'policy'], rule.policy);
      if (rule.when !== undefined)
        checkCondition('rules.yaml', [...rule.path, 'when'], rule.when, 'guard');
      if (rule.decision === 'forbid' && rule.fallback !== 'end' && rule.message === undefined) {
        report(
          'rules.yaml',
          [...rule.path, 'decision'],
          'missing-message',
          'This rule forbids the call but gives no "message": the agent will only hear that the call was blocked.',
          'info',
        );
      }
    }
  }
  for (const check of model.checks) {
    checkPolicyRef('rules.yaml', [...check.path, 'policy'], check.policy);
    const needs: Record<
      typeof check.kind,
      readonly ('pattern' | 'tool' | 'first' | 'then' | 'max')[]
    > = {
      must_say: ['pattern'],
      must_not_say: ['pattern'],
      tool_order: ['first', 'then'],
      confirm_before: ['tool'],
      never_call: ['tool'],
      max_calls: ['tool', 'max'],
    };
    for (const field of needs[check.kind]) {
      if (check[field] === undefined) {
        report(
          'rules.yaml',
          [...check.path, 'kind'],
          'missing-field',
          `A ${check.kind} check needs "${field}".`,
        );
      }
    }
    for (const field of ['tool', 'first', 'then'] as const) {
      const name = check[field];
      if (name !== undefined) checkToolRef('rules.yaml', [...check.path, field], name);
    }
    if (check.pattern !== undefined) {
      try {
        new RegExp(check.pattern, 'iu');
      } catch (error) {
        report(
          'rules.yaml',
          [...check.path, 'pattern'],
          'bad-pattern',
          `This is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  // scenarios.yaml
  duplicates(
    model.scenarios,
    (s) => s.id,
    (s, id) =>
      report(
        'scenarios.yaml',
        [...s.path, 'id'],
        'duplicate-id',
        `The scenario id "${id}" is used twice; ids must be unique.`,
      ),
  );
  for (const scenario of model.scenarios) {
    scenario.policies.forEach((id, i) => {
      checkPolicyRef('scenarios.yaml', [...scenario.path, 'policies', i], id);
    });
    for (const [tableName, rows] of Object.entries(scenario.rows)) {
      const table = tables.get(tableName);
      if (!table) {
        if (!readable('database.yaml')) continue;
        out.push(
          files['scenarios.yaml'].atKey(
            [...scenario.path, 'rows', tableName],
            'error',
            'unknown-table',
            unknownName('table', tableName, tables.keys()),
          ),
        );
        continue;
      }
      checkRows('scenarios.yaml', [...scenario.path, 'rows', tableName], table, rows, false);
    }
    scenario.expected.database.forEach((assertion, i) => {
      checkCondition(
        'scenarios.yaml',
        [...scenario.path, 'expected', 'database', i],
        assertion,
        'assertion',
      );
    });
    scenario.expected.requiredActions.forEach((tool, i) => {
      checkToolRef('scenarios.yaml', [...scenario.path, 'expected', 'required_actions', i], tool);
    });
    scenario.expected.forbiddenActions.forEach((tool, i) => {
      checkToolRef('scenarios.yaml', [...scenario.path, 'expected', 'forbidden_actions', i], tool);
    });
  }

  return out;

  function checkRows(
    file: keyof YamlFiles,
    path: YamlPath,
    table: Table,
    rows: readonly Row[],
    seed: boolean,
  ) {
    const keys = new Map<unknown, number>();
    const seedKeys = new Set(table.rows.map((r) => r[table.key]));
    rows.forEach((row, i) => {
      for (const problem of rowProblems(table, row)) {
        report(file, [...path, i, ...problem.at], 'bad-row', problem.message);
      }
      const key = row[table.key];
      if (key === undefined) return;
      if (keys.has(key)) {
        report(
          file,
          [...path, i, table.key],
          'duplicate-key',
          `Another row of "${table.name}" already has ${table.key} ${JSON.stringify(key)}.`,
        );
      } else if (!seed && seedKeys.has(key)) {
        report(
          file,
          [...path, i, table.key],
          'duplicate-key',
          `The seed data of "${table.name}" already has ${table.key} ${JSON.stringify(key)}; this row would replace it.`,
          'warning',
        );
      }
      keys.set(key, i);
    });
  }

  function checkForeignKeys() {
    for (const table of model.tables) {
      for (const column of table.columns) {
        const target = column.references === undefined ? undefined : tables.get(column.references);
        if (!target) continue;
        const targetKeys = new Set(target.rows.map((r) => r[target.key]));
        table.rows.forEach((row, i) => {
          const value = row[column.name];
          if (value !== undefined && value !== null && !targetKeys.has(value)) {
            report(
              'database.yaml',
              [...table.path, 'rows', i, column.name],
              'missing-row',
              `No row of "${target.name}" has ${target.key} ${JSON.stringify(value)}.`,
            );
          }
        });
      }
    }
  }
}

/** What is wrong with one row of a table: unknown columns, missing values, wrong types. */
export function rowProblems(table: Table, row: Row): { at: YamlPath; message: string }[] {
  const problems: { at: YamlPath; message: string }[] = [];
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  for (const [name, value] of Object.entries(row)) {
    const column = byName.get(name);
    if (!column) {
      const guess = closest(name, byName.keys());
      problems.push({
        at: [name],
        message: `"${table.name}" has no column "${name}".${guess ? ` Did you mean "${guess}"?` : ''}`,
      });
      continue;
    }
    const wrong = valueProblem(column, value);
    if (wrong) problems.push({ at: [name], message: wrong });
  }
  for (const column of table.columns) {
    if (!(column.name in row) && !column.nullable) {
      problems.push({
        at: [],
        message: `This row of "${table.name}" lacks "${column.name}" (${column.type}).`,
      });
    }
  }
  return problems;
}

function valueProblem(column: Column, value: unknown): string | undefined {
  if (value === null)
    return column.nullable
      ? undefined
      : `"${column.name}" may not be empty (null); it is not nullable.`;
  const ok =
    (column.type === 'string' && typeof value === 'string') ||
    (column.type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (column.type === 'integer' && Number.isInteger(value)) ||
    (column.type === 'boolean' && typeof value === 'boolean');
  if (!ok) {
    const article = column.type === 'integer' ? 'an integer' : `a ${column.type}`;
    return `"${column.name}" must be ${article}, not ${JSON.stringify(value)}.`;
  }
  if (column.enum && !column.enum.includes(value)) {
    return `"${column.name}" must be one of ${column.enum.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(value)}.`;
  }
  return undefined;
}

/** Points a CEL problem at its own line and column inside the YAML scalar that holds it. */
function celDiagnostic(
  file: YamlFile,
  path: YamlPath,
  source: string,
  offset: number,
  message: string,
): Diagnostic {
  const span = file.spanOf(path);
  const written = file.text.slice(span.start, span.end);
  const at = written.indexOf(source);
  if (at >= 0) {
    const start = span.start + at + Math.min(offset, source.length);
    const tokenEnd = /^[\w.]+/.exec(source.slice(offset))?.[0].length ?? 1;
    return diagnosticAt(
      file.file,
      file.index,
      { start, end: start + Math.max(1, tokenEnd) },
      'error',
      'cel',
      `CEL: ${message}`,
    );
  }
  return diagnosticAt(file.file, file.index, span, 'error', 'cel', `CEL: ${message}`);
}
