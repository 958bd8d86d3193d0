import type { Diagnostic } from '../../diagnostics.ts';
import type { Effect, Tool } from '../model.ts';
import type { ReferenceContext } from './context.ts';
import { schemaPatternProblems } from '../../regex/schemaPatterns.ts';
import { Findings, duplicates, readable, unknownName } from './context.ts';

/**
 * tools.yaml: each tool name used once, each required parameter among the parameters, each
 * effect on an existing table and its columns, every `where`, value and `returns` valid CEL, and
 * every `pattern` of the parameters one the linear matcher runs, and a precondition's `policy` a
 * policy of policies.yaml.
 */
export function checkTools(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  duplicates(
    context.model.tools,
    (t) => t.name,
    (t, name) => {
      found.report(
        'tools.yaml',
        [...t.path, 'name'],
        'duplicate-id',
        `The tool "${name}" is defined twice.`,
      );
    },
  );
  for (const tool of context.model.tools) {
    checkParameters(found, tool);
    for (const effect of tool.effects) checkEffect(context, found, effect);
    if (tool.returns !== undefined)
      found.condition('tools.yaml', [...tool.path, 'returns'], tool.returns, 'returns');
    // A precondition that encodes a policy names one that exists.
    for (const pre of tool.requires ?? [])
      if (pre.policy !== undefined)
        found.policyRef('tools.yaml', [...pre.path, 'policy'], pre.policy);
  }
  return found.diagnostics;
}

function checkParameters(found: Findings, tool: Tool) {
  const properties = Object.keys(tool.parameters.properties ?? {});
  (tool.parameters.required ?? []).forEach((name, i) => {
    if (!properties.includes(name)) {
      found.report(
        'tools.yaml',
        [...tool.path, 'parameters', 'required', i],
        'unknown-parameter',
        `"${name}" is required but not among the parameters (${properties.join(', ') || 'none'}).`,
      );
    }
  });
  // A pattern the linear matcher refuses would leave the arguments unchecked: said here.
  for (const { path, pattern, problem } of schemaPatternProblems(tool.parameters)) {
    found.report(
      'tools.yaml',
      [...tool.path, 'parameters', ...path],
      problem.construct === undefined ? 'bad-pattern' : 'unsupported-pattern',
      `The pattern /${pattern}/ ${problem.construct === undefined ? `is not a valid regular expression: ${problem.message}` : `cannot be used: ${problem.message}`}`,
    );
  }
}

/** An effect names a table that exists, columns of it, and valid CEL; a change needs `where`. */
function checkEffect(context: ReferenceContext, found: Findings, effect: Effect) {
  const table = context.tables.get(effect.table);
  if (!table && readable(context, 'database.yaml')) {
    found.report(
      'tools.yaml',
      [...effect.path, effect.op],
      'unknown-table',
      unknownName('table', effect.table, context.tables.keys()),
    );
  }
  if ((effect.op === 'update' || effect.op === 'delete') && effect.where === undefined) {
    found.report(
      'tools.yaml',
      effect.path,
      'missing-where',
      `This ${effect.op} has no "where", so it would touch every row of "${effect.table}". Add a condition (use "where: true" if you mean all rows).`,
      'warning',
    );
  }
  // A `for_each` list is read before its items exist; the rest of the effect sees the item.
  if (effect.forEach !== undefined)
    found.condition('tools.yaml', [...effect.path, 'for_each'], effect.forEach, 'effect');
  const item = effect.forEach === undefined ? [] : [effect.as ?? 'item'];
  if (effect.when !== undefined)
    found.condition('tools.yaml', [...effect.path, 'when'], effect.when, 'effect', item);
  if (effect.where !== undefined)
    found.condition('tools.yaml', [...effect.path, 'where'], effect.where, 'effect', item);
  const field = effect.op === 'insert' ? 'values' : 'set';
  for (const [column, expression] of Object.entries(effect.columns)) {
    if (table && !table.columns.some((c) => c.name === column)) {
      found.report(
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
    found.condition('tools.yaml', [...effect.path, field, column], expression, 'effect', item);
  }
}
