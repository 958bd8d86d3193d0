import type { ImportedTable, JsonSchema, JsonValue } from '../domain.ts';
import { structuredValueProblem } from '../../format/columnValues.ts';
import type { CarryNote } from './carry.ts';
import { safeName, uniqueNames } from './carry.ts';

type Scalar = 'string' | 'integer' | 'number' | 'boolean';
type Structured = 'array' | 'object';
const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

/** A column of database.yaml and how to get its value from an imported row. */
export interface ColumnPlan {
  readonly name: string;
  /** The imported field it holds (set once planned into a table). */
  readonly source?: string;
  readonly spec: {
    type: Scalar | Structured;
    nullable?: boolean;
    enum?: JsonValue[];
    description?: string;
    /** The JSON Schema of a list or object value. */
    schema?: JsonSchema;
  };
  readonly value: (row: Readonly<Record<string, JsonValue>>) => JsonValue;
}

/** A table of database.yaml: its name, key and columns, and the source table's name. */
export interface TablePlan {
  readonly name: string;
  readonly source: string;
  readonly key: string;
  readonly columns: readonly ColumnPlan[];
  readonly rows: ReadonlyArray<Record<string, JsonValue>>;
  readonly description?: string;
  /** One record (a user's phone), read by code as `self.db.<source>` (ImportedTable.record). */
  readonly record?: true;
}

/** The scalar type of a schema and whether it allows null, or undefined for a nested value. */
function scalarOf(schema: JsonSchema): { type: Scalar; nullable: boolean } | undefined {
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as JsonSchema[];
    const nonNull = options.filter((o) => o.type !== 'null');
    const inner = nonNull.length === 1 && nonNull[0] ? scalarOf(nonNull[0]) : undefined;
    return inner
      ? { type: inner.type, nullable: inner.nullable || nonNull.length < options.length }
      : undefined;
  }
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 0 && Array.isArray(schema.enum)) {
    const values = schema.enum as JsonValue[];
    return values.every((v) => typeof v === 'string')
      ? { type: 'string', nullable: false }
      : undefined;
  }
  if (nonNull.length === 2 && nonNull.includes('integer') && nonNull.includes('number'))
    return { type: 'number', nullable: nonNull.length < types.length };
  const [only] = nonNull;
  if (nonNull.length !== 1 || only === undefined || !SCALARS.has(only)) return undefined;
  return { type: only as Scalar, nullable: nonNull.length < types.length };
}

/**
 * A list or an object (optionally null): the column type, the value's JSON Schema without the
 * null option and the top-level description, and whether it allows null.
 */
function structuredOf(
  schema: JsonSchema,
): { type: Structured; schema: JsonSchema; nullable: boolean } | undefined {
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : undefined;
  if (options !== undefined) {
    const nonNull = options.filter((o) => o.type !== 'null');
    const inner = nonNull.length === 1 && nonNull[0] ? structuredOf(nonNull[0]) : undefined;
    return inner && { ...inner, nullable: inner.nullable || nonNull.length < options.length };
  }
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const nonNull = types.filter((t) => t !== 'null');
  const [only] = nonNull;
  if (nonNull.length !== 1 || (only !== 'array' && only !== 'object')) return undefined;
  const rest = Object.fromEntries(
    Object.entries(schema).filter(([k]) => k !== 'description' && k !== 'type'),
  );
  return { type: only, schema: { type: only, ...rest }, nullable: nonNull.length < types.length };
}

const fits = (type: Scalar | Structured, v: JsonValue): boolean =>
  type === 'array'
    ? Array.isArray(v)
    : type === 'object'
      ? typeof v === 'object' && v !== null && !Array.isArray(v)
      : type === 'integer'
        ? Number.isInteger(v)
        : type === 'number'
          ? typeof v === 'number'
          : typeof v === type;

/**
 * Plans database.yaml for the imported tables: a scalar column stays as it is, a list or an
 * object becomes an `array` or `object` column with its JSON Schema (`schema:`), and only a value
 * of several shapes (a list in one row, a number in another) is kept as JSON text, noted for each
 * such column.
 */
export function planTables(tables: readonly ImportedTable[], notes: CarryNote[]): TablePlan[] {
  const tableName = uniqueNames();
  return tables.map((table) => {
    const name = tableName(safeName(table.name, 't'));
    const columnName = uniqueNames();
    const columns: ColumnPlan[] = [];
    let key = '';
    for (const column of table.columns) {
      const read = (row: Readonly<Record<string, JsonValue>>) => row[column.name] ?? null;
      const planned = planColumn(
        columnName(safeName(column.name, 'c')),
        column.schema,
        !column.required,
        read,
        `table ${table.name}, column ${column.name}`,
        notes,
      );
      if (column.name === table.key) key = planned.name;
      columns.push({ ...planned, source: column.name });
    }
    const rows = table.rows.map((row) =>
      Object.fromEntries(columns.map((c) => [c.name, c.value(row)])),
    );
    for (const column of columns) settle(column, rows, name, notes);
    return {
      name,
      source: table.name,
      key,
      columns,
      rows,
      ...(table.description !== undefined ? { description: table.description } : {}),
      ...(table.record && { record: true as const }),
    };
  });
}

function planColumn(
  name: string,
  schema: JsonSchema,
  optional: boolean,
  read: (row: Readonly<Record<string, JsonValue>>) => JsonValue,
  item: string,
  notes: CarryNote[],
): ColumnPlan {
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const scalar = scalarOf(schema);
  if (scalar) {
    const en = Array.isArray(schema.enum) ? { enum: [...(schema.enum as JsonValue[])] } : {};
    return {
      name,
      spec: {
        type: scalar.type,
        nullable: scalar.nullable || optional,
        ...en,
        ...(description ? { description } : {}),
      },
      value: read,
    };
  }
  const structured = structuredOf(schema);
  if (structured) {
    return {
      name,
      spec: {
        type: structured.type,
        nullable: structured.nullable || optional,
        ...(description ? { description } : {}),
        schema: structured.schema,
      },
      value: read,
    };
  }
  notes.push({
    file: 'database.yaml',
    item,
    message:
      'A value of several shapes (neither one scalar type, a list nor an object) is kept as JSON text in a string column; conditions cannot look inside it.',
  });
  return {
    name,
    spec: {
      type: 'string',
      nullable: true,
      description: `JSON text${description ? `: ${description}` : ''}`,
    },
    value: (row) => {
      const v = read(row);
      return v === null ? null : JSON.stringify(v);
    },
  };
}

/** Makes a column's declaration fit its rows: nullable where a row has none, enum only when every value is in it. */
function settle(
  column: ColumnPlan,
  rows: ReadonlyArray<Record<string, JsonValue>>,
  table: string,
  notes: CarryNote[],
): void {
  const spec = column.spec;
  const values = rows.map((r) => r[column.name] ?? null);
  if (values.some((v) => v === null)) spec.nullable = true;
  const wrong = values.filter((v) => v !== null && !fits(spec.type, v));
  if (wrong.length > 0) {
    notes.push({
      file: 'database.yaml',
      item: `table ${table}, column ${column.name}`,
      message: `${wrong.length} value(s) are not of type ${spec.type}; the column holds them as text.`,
    });
    spec.type = 'string';
    delete spec.enum;
    delete spec.schema;
    rows.forEach((r) => {
      const v = r[column.name] ?? null;
      if (v !== null && typeof v !== 'string') r[column.name] = JSON.stringify(v);
    });
  }
  if (spec.schema !== undefined && (spec.type === 'array' || spec.type === 'object')) {
    const probe = { name: column.name, type: spec.type, nullable: true, schema: spec.schema };
    const misfits = values.filter((v) => v !== null && structuredValueProblem(probe, v));
    if (misfits.length > 0) {
      notes.push({
        file: 'database.yaml',
        item: `table ${table}, column ${column.name}`,
        message: `${misfits.length} value(s) do not fit the source's schema (${structuredValueProblem(probe, misfits[0]) ?? ''}); the column keeps no schema.`,
      });
      delete spec.schema;
    }
  }
  if (spec.enum && values.some((v) => v !== null && !spec.enum?.includes(v))) delete spec.enum;
  if (spec.nullable === false) delete spec.nullable;
}
