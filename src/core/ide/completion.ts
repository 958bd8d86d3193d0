import { LIST_FUNCTIONS } from '../celFunctions.ts';
import { CEL_VARIABLES } from '../celVariables.ts';
import type { CelContext } from '../celVariables.ts';
import type { ProjectModel } from '../format/model.ts';
import { CHECK_KIND_HELP, CHECK_KINDS } from '../format/schemas.ts';
import type { ProjectFileName } from '../project.ts';
import { promptCompletions } from './promptPlaces.ts';

/** One completion the editor may offer. */
export interface CompletionItem {
  readonly label: string;
  readonly kind:
    'policy' | 'tool' | 'table' | 'column' | 'parameter' | 'variable' | 'function' | 'value';
  readonly detail: string;
  readonly documentation?: string;
}

// After the field name: a list being written (`[a, b, pa`) or a partly typed name (`refund-wi`).
const POLICY_FIELDS = /(?:^|\s|-\s)(policy|policies|between)\s*:\s*(?:\[[^\]]*|[\w-]*)$/;
const TOOL_FIELDS =
  /(?:^|\s|-\s)(tool|first|then|tools|required_actions|forbidden_actions)\s*:\s*(?:\[[^\]]*|\w*)$/;
const TABLE_FIELDS = /(?:^|\s|-\s)(select|insert|update|delete|references)\s*:\s*\w*$/;
const CEL_FIELDS = /(?:^|\s|-\s)(when|where|returns|condition|for_each)\s*:\s*/;
const ENUM_FIELDS: Record<string, readonly string[]> = {
  decision: ['allow', 'forbid'],
  fallback: ['message', 'end', 'ask_user'],
  if_missing: ['forbid', 'skip'],
  attempt: ['fails', 'noted'],
  covers: ['listed', 'turn', 'each'],
  after_refusal: ['true', 'false'],
  default: ['allow', 'deny'],
  origin: ['manual', 'heuristic', 'model'],
  challenge: ['1', '2', '3', '4', '5'],
};
const CEL_FUNCTIONS = [
  'exists',
  'all',
  'exists_one',
  'filter',
  'map',
  'size',
  'has',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'int',
  'double',
  'string',
  'timestamp',
  'duration',
  ...LIST_FUNCTIONS,
];

/**
 * What to offer at a position of a project file: ids, names and values that fit where the cursor
 * is, read from the current line and the entries above it.
 */
export function completionsAt(
  model: ProjectModel,
  file: ProjectFileName,
  text: string,
  offset: number,
): CompletionItem[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const above = text.slice(0, lineStart);
  if (file === 'scenarios.yaml') {
    const prompt = promptCompletions(text, offset);
    if (prompt) return prompt;
  }

  const policies = () =>
    model.policies.map((p): CompletionItem => ({
      label: p.id,
      kind: 'policy',
      detail: `${p.category} · challenge ${p.challenge}`,
      documentation: p.text,
    }));
  const tools = () =>
    model.tools.map((t): CompletionItem => ({
      label: t.name,
      kind: 'tool',
      detail: `${t.kind} tool`,
      documentation: t.description,
    }));
  const tables = () =>
    model.tables.map((t): CompletionItem => ({
      label: t.name,
      kind: 'table',
      detail: `table · ${t.rows.length} rows`,
      documentation: `Columns: ${t.columns.map((c) => c.name).join(', ')}`,
    }));

  const cel =
    CEL_FIELDS.exec(before) ??
    (file === 'scenarios.yaml' && /^\s*-\s+.*\bdb\b/.test(before) ? ['', 'assertion'] : null);
  if (cel) {
    const field = cel[1];
    const context: CelContext =
      field === 'when'
        ? 'guard'
        : field === 'returns' || field === 'condition'
          ? 'returns'
          : field === 'where'
            ? 'effect'
            : 'assertion';
    return celCompletions(model, file, context, before, above);
  }
  if (POLICY_FIELDS.test(before)) return policies();
  if (TOOL_FIELDS.test(before)) return tools();
  if (TABLE_FIELDS.test(before)) return tables();
  // Under `guards:`, the keys are tool names.
  if (
    file === 'rules.yaml' &&
    /^ {2}[a-z0-9_]*$/.test(before) &&
    lastTopLevelKey(above) === 'guards'
  )
    return tools();
  // Under a scenario's `rows:`, the keys are table names.
  if (
    file === 'scenarios.yaml' &&
    /^ {6}[a-z0-9_]*$/.test(before) &&
    /\n {4}rows:\s*\n(?: {6,}.*\n)*$/.test(above)
  )
    return tables();

  const enumField = /(?:^|\s|-\s)(\w+)\s*:\s*\w*$/.exec(before)?.[1];
  if (enumField === 'kind') {
    if (file === 'rules.yaml')
      return CHECK_KINDS.map((v) => ({
        label: v,
        kind: 'value',
        detail: 'check kind',
        documentation: CHECK_KIND_HELP[v],
      }));
    const values = file === 'tools.yaml' ? ['read', 'write'] : [];
    return values.map((v) => ({ label: v, kind: 'value', detail: 'kind' }));
  }
  // grounded's `facts:` is a list of kinds of fact: offered inside its brackets too.
  if (/(?:^|\s|-\s)facts\s*:\s*\[[^\]]*$/.test(before))
    return ['amounts', 'ids', 'dates', 'numbers'].map((v) => ({
      label: v,
      kind: 'value',
      detail: 'facts',
    }));
  if (enumField !== undefined && ENUM_FIELDS[enumField]) {
    return (ENUM_FIELDS[enumField] ?? []).map((v) => ({
      label: v,
      kind: 'value',
      detail: enumField,
    }));
  }
  return [];
}

function celCompletions(
  model: ProjectModel,
  file: ProjectFileName,
  context: CelContext,
  before: string,
  above: string,
): CompletionItem[] {
  const member = /([A-Za-z_][\w]*)\.([\w]*)$/.exec(before);
  if (member) {
    const target = member[1];
    if (target === 'args') {
      const tool = file === 'rules.yaml' ? enclosingGuardTool(above) : enclosingTool(above);
      const spec = model.tools.find((t) => t.name === tool)?.parameters.properties ?? {};
      return Object.entries(spec).map(([name, schema]) => ({
        label: name,
        kind: 'parameter',
        detail: `${typeLabel(schema.type)} parameter of ${tool ?? 'the tool'}`,
        ...(typeof schema.description === 'string' ? { documentation: schema.description } : {}),
      }));
    }
    if (target === 'db') {
      return model.tables.map((t) => ({
        label: t.name,
        kind: 'table',
        detail: `list of ${t.rows.length} rows`,
        documentation: `Columns: ${t.columns.map((c) => c.name).join(', ')}`,
      }));
    }
    if (target === 'row') {
      const table = model.tables.find((t) => t.name === enclosingEffectTable(above, before));
      return (table?.columns ?? []).map((c) => ({
        label: c.name,
        kind: 'column',
        detail: `${c.type} column of ${table?.name ?? ''}`,
      }));
    }
    // A loop variable over db.<table> (as in db.orders.exists(o, o.)) offers that table's columns.
    const loop = new RegExp(`db\\.(\\w+)\\.\\w+\\(\\s*${target ?? ''}\\s*,`).exec(before);
    const table = model.tables.find((t) => t.name === loop?.[1]);
    if (table)
      return table.columns.map((c) => ({
        label: c.name,
        kind: 'column',
        detail: `${c.type} column of ${table.name}`,
      }));
    if (target === 'c' || /history\.\w+\(\s*(\w+)\s*,/.exec(before)?.[1] === target) {
      return ['tool', 'args', 'allowed'].map((f) => ({
        label: f,
        kind: 'variable',
        detail: 'field of a past call',
      }));
    }
    return CEL_FUNCTIONS.map((f) => ({ label: f, kind: 'function', detail: 'CEL function' }));
  }
  return [
    ...CEL_VARIABLES[context].map((v): CompletionItem => ({
      label: v,
      kind: 'variable',
      detail: `CEL variable (${context})`,
    })),
    ...CEL_FUNCTIONS.map((f): CompletionItem => ({
      label: f,
      kind: 'function',
      detail: 'CEL function',
    })),
  ];
}

function lastTopLevelKey(above: string): string | undefined {
  const keys = [...above.matchAll(/^([a-z_]+):/gm)];
  return keys.at(-1)?.[1];
}

/** The guard's tool: the nearest `  tool_name:` key above, two spaces in. */
function enclosingGuardTool(above: string): string | undefined {
  return [...above.matchAll(/^ {2}([a-z0-9_]+):\s*$/gm)].at(-1)?.[1];
}

/** The tool being defined: the nearest `- name: x` above. */
function enclosingTool(above: string): string | undefined {
  return [...above.matchAll(/^\s*-\s+name:\s*([a-z0-9_]+)/gm)].at(-1)?.[1];
}

/** The table of the effect being written: the nearest `select|update|insert|delete: table` above or on the line. */
function enclosingEffectTable(above: string, before: string): string | undefined {
  const pattern = /(?:select|update|insert|delete):\s*([a-z0-9_]+)/g;
  return [...`${above}${before}`.matchAll(pattern)].at(-1)?.[1];
}

/** The JSON Schema type of a parameter, for people ("string", "number", ...). */
export function typeLabel(type: unknown): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join(' or ');
  return 'any';
}
