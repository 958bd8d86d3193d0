import { CEL_VARIABLES } from '../../celVariables.ts';
import type { Diagnostic } from '../../diagnostics.ts';
import { columnSchemaProblem } from '../columnValues.ts';
import type { Effect, Table } from '../model.ts';
import type { ReferenceContext } from './context.ts';
import { Findings } from './context.ts';

/** Names an effect's expressions already give a meaning to; an item may not take one. */
const TAKEN: ReadonlySet<string> = new Set(CEL_VARIABLES.effect);

/**
 * What structured data asks of database.yaml and tools.yaml: a column's `schema:` usable (and
 * only on `array` and `object` columns), `generated:` only on text and integer columns, every
 * insert giving each column a row needs (not nullable, not generated), and an effect's `as`
 * naming the item of a `for_each` with a name of its own.
 */
export function checkStructuredData(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  for (const table of context.model.tables) checkColumns(found, table);
  for (const tool of context.model.tools) {
    for (const effect of tool.effects) {
      checkItem(found, effect);
      const table = context.tables.get(effect.table);
      if (effect.op === 'insert' && table) checkInsert(found, effect, table);
    }
  }
  return found.diagnostics;
}

function checkColumns(found: Findings, table: Table): void {
  for (const column of table.columns) {
    const at = [...table.path, 'columns', column.name] as const;
    const structured = column.type === 'array' || column.type === 'object';
    if (column.schema !== undefined && !structured) {
      found.report(
        'database.yaml',
        [...at, 'schema'],
        'schema-unused',
        `"${column.name}" is a ${column.type} column, so its schema is never read; a schema describes an array or object column.`,
        'warning',
      );
    }
    const problem = structured ? columnSchemaProblem(column) : undefined;
    if (problem !== undefined)
      found.report('database.yaml', [...at, 'schema'], 'bad-schema', problem);
    if (column.generated !== undefined && column.type !== 'string' && column.type !== 'integer') {
      found.report(
        'database.yaml',
        [...at, 'generated'],
        'bad-generated',
        `"${column.name}" is a ${column.type} column; only string and integer columns can be generated.`,
      );
    }
  }
}

function checkItem(found: Findings, effect: Effect): void {
  if (effect.as === undefined) return;
  if (effect.forEach === undefined) {
    found.report(
      'tools.yaml',
      [...effect.path, 'as'],
      'unused-as',
      `"as" names the item of a "for_each", and this effect has none.`,
      'warning',
    );
  } else if (TAKEN.has(effect.as)) {
    found.report(
      'tools.yaml',
      [...effect.path, 'as'],
      'bad-as',
      `"${effect.as}" already means something in an effect; name the item otherwise (such as "item").`,
    );
  }
}

function checkInsert(found: Findings, effect: Effect, table: Table): void {
  const missing = table.columns.filter(
    (c) => !c.nullable && c.generated === undefined && !Object.hasOwn(effect.columns, c.name),
  );
  if (missing.length === 0) return;
  const names = missing.map((c) => `"${c.name}"`).join(', ');
  const one = missing.length === 1;
  found.report(
    'tools.yaml',
    [...effect.path, 'insert'],
    'missing-column',
    `This insert into "${table.name}" gives no value for ${names}, which ${one ? 'is' : 'are'} not nullable, so every call would fail. Add ${one ? 'it' : 'them'} under "values" (or make ${one ? 'it' : 'them'} nullable or generated).`,
  );
}
