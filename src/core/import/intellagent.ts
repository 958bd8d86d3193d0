import { readCsv } from './csv.ts';
import type {
  DomainFiles,
  ImportNote,
  ImportedDomain,
  ImportedTable,
  ImportedTool,
  JsonValue,
} from './domain.ts';
import { isNotLiteral, literalOf, literalOfText } from './python/literal.ts';
import type { PyFunction } from './python/module.ts';
import { readPythonModule } from './python/module.ts';
import type { PyStatement } from './python/statements.ts';
import { inferSchema } from './tables.ts';
import { INTELLAGENT_VALIDATORS, readValidators } from './validators.ts';

/** The wiki's name in `DomainFiles`; tools are `tools/<file>.py`, data `data/<table>.csv`. */
export const INTELLAGENT_WIKI = 'wiki.md';

const READ_NAME = /^(get|find|list|search|lookup|calculate|think|check)_?/;

/**
 * Reads an IntellAgent input folder: `wiki.md` as the policy, each `tools/*.py` whose class has
 * a `get_info()` returning an OpenAI function schema as a tool (parsed, never run), and each
 * `data/*.csv` as a table (cells holding Python literals read as nested values); the data
 * validators of `validators/*.py` are listed by name, to be reported as not carried.
 */
export function readIntellagentDomain(name: string, files: DomainFiles): ImportedDomain {
  const notes: ImportNote[] = [];
  const policy = files.get(INTELLAGENT_WIKI);
  if (policy === undefined)
    notes.push({ item: INTELLAGENT_WIKI, message: 'Not found; agent.md is left empty.' });
  const tools: ImportedTool[] = [];
  const tables: ImportedTable[] = [];
  const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
  for (const [file, text] of sorted)
    if (/^tools\/[^/]+\.py$/.test(file)) tools.push(...toolsOf(file, text, notes));
  const argNames = new Set(
    tools.flatMap((t) => Object.keys((t.parameters.properties as object | undefined) ?? {})),
  );
  for (const [file, text] of sorted) {
    if (!/^data\/[^/]+\.csv$/.test(file)) continue;
    const table = tableOf(file, text, argNames, notes);
    if (table) tables.push(table);
  }
  if (tools.length === 0)
    notes.push({ item: 'tools/', message: 'No tool with a get_info() schema was found.' });
  const validators = sorted.flatMap(([file, text]) =>
    INTELLAGENT_VALIDATORS.test(file) ? readValidators(file, text, notes) : [],
  );
  return {
    name,
    source: 'intellagent',
    policy: policy ?? '',
    tools,
    tables,
    tasks: [],
    ...(validators.length > 0 && { validators }),
    notes,
  };
}

function toolsOf(file: string, source: string, notes: ImportNote[]): ImportedTool[] {
  const module = readPythonModule(source);
  for (const p of module.problems)
    notes.push({ item: file, message: p.message, place: { file, line: p.line } });
  const tools: ImportedTool[] = [];
  for (const c of module.classes) {
    const info = c.methods.find((m) => m.name === 'get_info');
    if (info === undefined) continue;
    const schema = returnedLiteral(info.body);
    const fn = isObject(schema) && isObject(schema.function) ? schema.function : undefined;
    if (fn === undefined || typeof fn.name !== 'string') {
      notes.push({
        item: `${file}: ${c.name}.get_info`,
        message:
          'It does not return a plain {"type": "function", "function": {...}} literal; the tool is left out.',
        place: { file, line: info.line },
      });
      continue;
    }
    const invoke = c.methods.find((m) => m.name === 'invoke');
    const parameters = isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
    tools.push({
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : '',
      kind: kindOf(fn.name, invoke),
      parameters,
      preconditions: (invoke?.raises ?? []).map((r) => ({
        ...(r.condition !== undefined ? { condition: r.condition } : {}),
        ...(r.direct === true ? { direct: true } : {}),
        message: r.message,
        place: { file, line: r.line },
      })),
      body: invoke?.text ?? '',
      place: { file, line: info.line },
    });
  }
  return tools;
}

/** Write when the body stores data back (`update_df`, an assignment into `data[...]`), else by name. */
function kindOf(name: string, invoke: PyFunction | undefined): ImportedTool['kind'] {
  if (invoke && /\bupdate_df\s*\(|\bdata\[[^\]]+\]\s*=/.test(invoke.text)) return 'write';
  if (name === 'think') return 'think';
  return READ_NAME.test(name) ? 'read' : 'generic';
}

function returnedLiteral(body: readonly PyStatement[]): JsonValue | undefined {
  for (const statement of body) {
    if (statement.tokens[0]?.value === 'return') {
      const value = literalOf(statement.tokens.slice(1));
      return isNotLiteral(value) ? undefined : value;
    }
  }
  return undefined;
}

const isObject = (v: JsonValue | undefined): v is Readonly<Record<string, JsonValue>> =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A CSV table: the first column is the key; cells that read as Python lists or dicts are nested values. */
function tableOf(
  file: string,
  text: string,
  argNames: ReadonlySet<string>,
  notes: ImportNote[],
): ImportedTable | undefined {
  const csv = readCsv(text);
  for (const p of csv.problems)
    notes.push({ item: file, message: p.message, place: { file, line: p.line } });
  const name = file.slice('data/'.length, -'.csv'.length);
  // A column of unique values named like an id, else one a tool takes as an argument, else the
  // first column.
  const unique = csv.header.filter(
    (_, c) => new Set(csv.rows.map((r) => r[c])).size === csv.rows.length,
  );
  const key =
    unique.find((h) => /(^|_)id$/.test(h)) ?? unique.find((h) => argNames.has(h)) ?? csv.header[0];
  if (key === undefined) {
    notes.push({ item: file, message: 'The file has no header; left out.', place: { file } });
    return undefined;
  }
  const rows: Array<Record<string, JsonValue>> = csv.rows.map((cells, r) => {
    const row: Record<string, JsonValue> = {};
    csv.header.forEach((column, c) => {
      row[column] = cellValue(cells[c] ?? '', () =>
        notes.push({
          item: `${file}, row ${r + 1}, column ${column}`,
          message: 'It looks like a Python list or dict but could not be read; kept as text.',
          place: { file, line: csv.lines[r] ?? 0 },
        }),
      );
    });
    return row;
  });
  const columns = csv.header.map((column) => ({
    name: column,
    schema: inferSchema(rows.map((r) => r[column] ?? null)),
    required: true,
  }));
  return { name, key, columns, rows, sourceRows: rows.length };
}

/** A cell as data: Python literals for lists and dicts, booleans for True/False, else its text. */
function cellValue(cell: string, unreadable: () => void): JsonValue {
  const trimmed = cell.trim();
  if (/^[[{]/.test(trimmed)) {
    const value = literalOfText(trimmed);
    if (!isNotLiteral(value)) return value;
    unreadable();
  }
  if (trimmed === 'True' || trimmed === 'False') return trimmed === 'True';
  return cell;
}
