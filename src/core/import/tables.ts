import type { ImportNote, ImportedTable, JsonSchema, JsonValue } from './domain.ts';

type Row = Readonly<Record<string, JsonValue>>;

/** A JSON Schema that fits every value given (the union of their shapes), for data without a model. */
export function inferSchema(values: readonly JsonValue[]): JsonSchema {
  const types = new Set<string>();
  const arrays: JsonValue[] = [];
  const objects: Array<Readonly<Record<string, JsonValue>>> = [];
  for (const v of values) {
    if (v === null) types.add('null');
    else if (Array.isArray(v)) {
      types.add('array');
      for (const item of v as readonly JsonValue[]) arrays.push(item);
    } else if (typeof v === 'object') {
      types.add('object');
      objects.push(v as Readonly<Record<string, JsonValue>>);
    } else if (typeof v === 'number') types.add(Number.isInteger(v) ? 'integer' : 'number');
    else types.add(typeof v);
  }
  if (types.has('number')) types.delete('integer');
  const schema: Record<string, unknown> = {};
  const list = [...types].sort();
  if (list.length === 1) schema.type = list[0];
  else if (list.length > 1) schema.type = list;
  if (types.has('array')) schema.items = inferSchema(arrays);
  if (types.has('object') && isMapById(objects)) {
    schema.additionalProperties = inferSchema(objects.flatMap((o) => Object.values(o)));
  } else if (types.has('object')) {
    const keys = new Set(objects.flatMap((o) => Object.keys(o)));
    const properties: Record<string, JsonSchema> = {};
    for (const k of keys)
      properties[k] = inferSchema(
        objects.flatMap((o) => (Object.hasOwn(o, k) ? [o[k] as JsonValue] : [])),
      );
    schema.properties = properties;
    const required = [...keys].filter((k) => objects.every((o) => Object.hasOwn(o, k)));
    if (required.length > 0) schema.required = required;
  }
  return schema;
}

/**
 * Objects that are maps by id rather than records: every key is repeated as a field of its own
 * value (`{"paypal_1": {"id": "paypal_1", ...}}`), or the keys vary so much (over 20, none in
 * every object) that they cannot be fixed fields.
 */
function isMapById(objects: ReadonlyArray<Readonly<Record<string, JsonValue>>>): boolean {
  const entries = objects.flatMap((o) => Object.entries(o));
  if (entries.length === 0) return false;
  const byId = entries.every(
    ([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).includes(k),
  );
  if (byId) return true;
  const keys = new Set(entries.map(([k]) => k));
  return keys.size > 20 && [...keys].every((k) => objects.some((o) => !Object.hasOwn(o, k)));
}

/**
 * A table from a JSON collection: an object of rows by id (tau2's `{"#W1": {...}}`) or a list.
 * The key is the row field that equals the id on every row, else an `id` column is added.
 */
export function tableFromCollection(
  name: string,
  collection: JsonValue,
  file: string,
): { table?: ImportedTable; notes: ImportNote[] } {
  const notes: ImportNote[] = [];
  const entries: Array<[string, JsonValue]> = Array.isArray(collection)
    ? (collection as readonly JsonValue[]).map((row, i) => [String(i), row])
    : collection !== null && typeof collection === 'object'
      ? Object.entries(collection)
      : [];
  if (entries.length === 0 && (collection === null || typeof collection !== 'object')) {
    notes.push({
      item: `table ${name}`,
      message: 'It is not a list or a map of rows; left out.',
      place: { file },
    });
    return { notes };
  }
  const rows: Array<Record<string, JsonValue>> = [];
  for (const [id, row] of entries) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      notes.push({
        item: `table ${name}, row ${id}`,
        message: 'The row is not an object; left out.',
        place: { file },
      });
      continue;
    }
    rows.push({ ...(row as Record<string, JsonValue>) });
  }
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  let key = Array.isArray(collection)
    ? fields.find((f) => /(^|_)id$/.test(f) && new Set(rows.map((r) => r[f])).size === rows.length)
    : fields.find((f) =>
        entries.every(
          ([id, row]) =>
            typeof row !== 'object' || row === null || (row as Record<string, JsonValue>)[f] === id,
        ),
      );
  if (key === undefined) {
    key = fields.includes('id') ? '_id' : 'id';
    entries.forEach(([id], i) => {
      const row = rows[i];
      if (row) rows[i] = { [key ?? 'id']: id, ...row };
    });
  }
  const columns = [key, ...fields.filter((f) => f !== key)].map((column) => ({
    name: column,
    schema: inferSchema(rows.map((r) => r[column] ?? null)),
    required: rows.every((r) => Object.hasOwn(r, column)),
  }));
  return { table: { name, key, columns, rows, sourceRows: rows.length }, notes };
}

/** Rows by key, for slicing and reference following. */
export function rowKey(table: ImportedTable, row: Row): string {
  const value = row[table.key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The table's columns typed by its pydantic model, the model's order first. */
export function typedByModel(
  table: ImportedTable,
  model: JsonSchema,
  notes: ImportNote[],
): ImportedTable {
  const properties = model.properties as Record<string, JsonSchema>;
  const required = new Set((model.required as string[] | undefined) ?? []);
  const inferred = new Map(table.columns.map((c) => [c.name, c]));
  const columns = [
    ...table.columns.filter((c) => c.name === table.key && !Object.hasOwn(properties, c.name)),
    ...Object.entries(properties).map(([name, schema]) => ({
      name,
      schema,
      required: required.has(name),
    })),
  ];
  for (const c of inferred.values())
    if (!columns.some((m) => m.name === c.name)) {
      columns.push(c);
      notes.push({
        item: `table ${table.name}, column ${c.name}`,
        message: 'In the data but not in the data model; typed from the data.',
      });
    }
  return { ...table, columns };
}
