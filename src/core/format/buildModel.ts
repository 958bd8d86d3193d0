import type {
  Check,
  CheckKind,
  Column,
  ColumnType,
  Effect,
  EffectOp,
  EndState,
  ExpectedArgs,
  GeneratedSpec,
  GradedExpectation,
  GuardRule,
  JsonSchemaObject,
  NlAssertion,
  Policy,
  Precondition,
  PromptOverride,
  Relation,
  Row,
  Scenario,
  ScenarioExpectations,
  Table,
  Tool,
  ToolGuards,
} from './model.ts';
import { PROMPT_TEMPLATES } from '../sim/prompts.ts';
import { CHECK_KINDS, GRADED_EXPECTATIONS } from './schemas.ts';
import { initializationOf, messageHistoryOf, requestorsOf, sideOf } from './dualControl.ts';
import { attackFieldsOf } from './attackTags.ts';

// The builders read values that may or may not have passed their schema, so each takes only
// what has the right type and skips an entry that lacks its identity. Problems are reported by
// the schema and reference checks, not here.

type Obj = Readonly<Record<string, unknown>>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === value) ?? fallback;
}

/** Builds policies and relations from the value of policies.yaml. */
export function buildPolicies(value: unknown): { policies: Policy[]; relations: Relation[] } {
  const root = isObj(value) ? value : {};
  const policies: Policy[] = [];
  list(root.policies).forEach((item, i) => {
    if (!isObj(item)) return;
    const id = str(item.id);
    if (id === undefined) return;
    const source = isObj(item.source) ? item.source : undefined;
    const line = num(source?.line);
    const endLine = num(source?.endLine);
    const flows = strings(item.flows);
    policies.push({
      path: ['policies', i],
      id,
      text: str(item.text) ?? '',
      category: str(item.category) ?? 'uncategorised',
      challenge: Math.min(5, Math.max(1, Math.round(num(item.challenge) ?? 1))),
      tools: strings(item.tools),
      ...(line === undefined
        ? {}
        : { source: endLine === undefined ? { line } : { line, endLine } }),
      ...(flows.length > 0 && { flows }),
      ...(item.judge === 'decides' && { judgeDecides: true as const }),
    });
  });
  const relations: Relation[] = [];
  list(root.relations).forEach((item, i) => {
    if (!isObj(item)) return;
    const [a, b] = strings(item.between);
    const weight = num(item.weight);
    if (a === undefined || b === undefined || weight === undefined) return;
    const reason = str(item.reason)?.trim();
    relations.push({
      path: ['relations', i],
      between: [a, b],
      weight,
      origin: pick(item.origin, ['manual', 'heuristic', 'model'], 'manual'),
      ...(reason ? { reason } : {}),
    });
  });
  return { policies, relations };
}

const EFFECT_OPS: readonly EffectOp[] = ['select', 'insert', 'update', 'delete'];

/** Builds tools from the value of tools.yaml. */
export function buildTools(value: unknown): Tool[] {
  const root = isObj(value) ? value : {};
  const tools: Tool[] = [];
  list(root.tools).forEach((item, i) => {
    if (!isObj(item)) return;
    const name = str(item.name);
    if (name === undefined) return;
    const path = ['tools', i] as const;
    const effects: Effect[] = [];
    list(item.effects).forEach((effect, j) => {
      if (!isObj(effect)) return;
      const op = EFFECT_OPS.find((o) => typeof effect[o] === 'string');
      if (op === undefined) return;
      const columns = isObj(effect.set) ? effect.set : isObj(effect.values) ? effect.values : {};
      const where = str(effect.where);
      const forEach = str(effect.for_each);
      const as = str(effect.as);
      const when = str(effect.when);
      effects.push({
        path: [...path, 'effects', j],
        op,
        table: str(effect[op]) ?? '',
        ...(where === undefined ? {} : { where }),
        ...(forEach === undefined ? {} : { forEach }),
        ...(as === undefined ? {} : { as }),
        ...(when === undefined ? {} : { when }),
        columns: Object.fromEntries(
          Object.entries(columns).filter((e): e is [string, string] => typeof e[1] === 'string'),
        ),
      });
    });
    const returns = str(item.returns);
    const notImported = str(item.not_imported);
    const runs = item.runs === 'setup' || item.runs === 'after_each_call' ? item.runs : undefined;
    const requires = preconditionsOf(item.requires, [...path, 'requires']);
    tools.push({
      path,
      name,
      description: str(item.description) ?? '',
      kind: pick(item.kind, ['read', 'write'], 'read'),
      parameters: parametersOf(item.parameters),
      effects,
      ...(returns === undefined ? {} : { returns }),
      ...(requires.length > 0 && { requires }),
      ...sideOf(item.side),
      ...(notImported !== undefined && { notImported }),
      ...(runs !== undefined && { runs }),
    });
  });
  return tools;
}

/** A tool's `requires:` list: each precondition with both its condition and its error. */
function preconditionsOf(value: unknown, path: readonly (string | number)[]): Precondition[] {
  return list(value).flatMap((item, i) => {
    if (!isObj(item)) return [];
    const condition = str(item.condition);
    const error = str(item.error);
    return condition === undefined || error === undefined
      ? []
      : [
          {
            path: [...path, i],
            condition,
            error,
            ...(item.not_imported === true && { notImported: true as const }),
            ...(typeof item.policy === 'string' && { policy: item.policy }),
            ...(item.attempt === 'noted' && { attempt: 'noted' as const }),
          },
        ];
  });
}

/** A tool's parameter schema, keeping only what has the right shape (the schema check reports the rest). */
function parametersOf(value: unknown): JsonSchemaObject {
  if (!isObj(value)) return {};
  const properties = isObj(value.properties)
    ? Object.fromEntries(
        Object.entries(value.properties).filter((entry): entry is [string, Obj] => isObj(entry[1])),
      )
    : {};
  return { type: value.type, properties, required: strings(value.required) };
}

const COLUMN_TYPES: readonly ColumnType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'array',
  'object',
];

/** `generated: true` or `{ prefix, digits }`; absent (or false) means none. */
function generatedOf(value: unknown): GeneratedSpec | undefined {
  if (value === true) return { prefix: '', digits: 1 };
  if (!isObj(value)) return undefined;
  const digits = num(value.digits);
  return {
    prefix: str(value.prefix) ?? '',
    digits: digits !== undefined && Number.isInteger(digits) && digits > 0 ? digits : 1,
  };
}

/** Builds tables (with their seed rows) from the value of database.yaml. */
export function buildTables(value: unknown): Table[] {
  const root = isObj(value) ? value : {};
  const tables: Table[] = [];
  list(root.tables).forEach((item, i) => {
    if (!isObj(item)) return;
    const name = str(item.name);
    if (name === undefined) return;
    const columns: Column[] = Object.entries(isObj(item.columns) ? item.columns : {}).flatMap(
      ([columnName, spec]) => {
        if (!isObj(spec)) return [];
        const references = str(spec.references);
        const generated = generatedOf(spec.generated);
        return [
          {
            name: columnName,
            type: pick(spec.type, COLUMN_TYPES, 'string'),
            ...(Array.isArray(spec.enum) ? { enum: spec.enum as unknown[] } : {}),
            nullable: spec.nullable === true,
            ...(references === undefined ? {} : { references }),
            ...(isObj(spec.schema) ? { schema: spec.schema } : {}),
            ...(generated === undefined ? {} : { generated }),
          },
        ];
      },
    );
    tables.push({
      path: ['tables', i],
      name,
      key: str(item.key) ?? '',
      columns,
      rows: list(item.rows).filter(isObj),
      ...sideOf(item.side),
    });
  });
  return tables;
}

/** Builds guards per tool and transcript checks from the value of rules.yaml. */
export function buildRules(value: unknown): { guards: ToolGuards[]; checks: Check[] } {
  const root = isObj(value) ? value : {};
  const guards: ToolGuards[] = Object.entries(isObj(root.guards) ? root.guards : {}).flatMap(
    ([tool, spec]) => {
      if (!isObj(spec)) return [];
      const path = ['guards', tool] as const;
      const rules: GuardRule[] = [];
      list(spec.rules).forEach((rule, i) => {
        if (!isObj(rule)) return;
        const id = str(rule.id);
        if (id === undefined) return;
        const when = str(rule.when);
        const message = str(rule.message);
        rules.push({
          path: [...path, 'rules', i],
          id,
          tool,
          policy: str(rule.policy) ?? '',
          decision: pick(rule.decision, ['allow', 'forbid'], 'forbid'),
          ...(when === undefined ? {} : { when }),
          fallback: pick(rule.fallback, ['message', 'end', 'ask_user'], 'message'),
          ...(message === undefined ? {} : { message }),
          ifMissing: pick(rule.if_missing, ['forbid', 'skip'], 'forbid'),
          attempt: pick(rule.attempt, ['fails', 'noted'], 'fails'),
        });
      });
      return [
        { path, tool, defaultDecision: pick(spec.default, ['allow', 'deny'], 'allow'), rules },
      ];
    },
  );
  const checks: Check[] = [];
  list(root.checks).forEach((item, i) => {
    if (!isObj(item)) return;
    const id = str(item.id);
    const kind = CHECK_KINDS.find((k) => k === item.kind);
    if (id === undefined || kind === undefined) return;
    const optional = (key: 'pattern' | 'tool' | 'first' | 'then') => {
      const v = str(item[key]);
      return v === undefined ? {} : { [key]: v };
    };
    const max = num(item.max);
    const covers = (['each', 'turn', 'listed'] as const).find((c) => c === item.covers);
    const facts = Array.isArray(item.facts)
      ? (['amounts', 'ids', 'dates', 'numbers'] as const).filter((k) =>
          (item.facts as unknown[]).includes(k),
        )
      : undefined;
    checks.push({
      path: ['checks', i],
      id,
      policy: str(item.policy) ?? '',
      kind: kind satisfies CheckKind,
      ...optional('pattern'),
      ...optional('tool'),
      ...optional('first'),
      ...optional('then'),
      ...(max === undefined ? {} : { max }),
      ...(covers === undefined ? {} : { covers }),
      ...(facts === undefined ? {} : { facts }),
      ...(typeof item.after_refusal === 'boolean' ? { afterRefusal: item.after_refusal } : {}),
    });
  });
  return { guards, checks };
}

/** Builds scenarios from the value of scenarios.yaml. */
export function buildScenarios(value: unknown): Scenario[] {
  const root = isObj(value) ? value : {};
  const scenarios: Scenario[] = [];
  list(root.scenarios).forEach((item, i) => {
    if (!isObj(item)) return;
    const id = str(item.id);
    if (id === undefined) return;
    const expected = isObj(item.expected) ? item.expected : {};
    const rows = isObj(item.rows) ? item.rows : {};
    const initialization = initializationOf(item.initialization);
    const messageHistory = messageHistoryOf(item.message_history);
    scenarios.push({
      path: ['scenarios', i],
      id,
      policies: strings(item.policies),
      persona: str(item.persona) ?? '',
      goal: str(item.goal) ?? '',
      knows: strings(item.knows),
      unknown: strings(item.unknown),
      rows: Object.fromEntries(
        Object.entries(rows).map(([table, tableRows]) => [
          table,
          list(tableRows).filter(isObj) as Row[],
        ]),
      ),
      expected: expectationsOf(expected),
      ...(initialization.length > 0 && { initialization }),
      ...(messageHistory.length > 0 && { messageHistory }),
      ...attackFieldsOf(item),
    });
  });
  return scenarios;
}

/**
 * A scenario's expectations: each list's values, whether written alone or as a mapping with
 * the policy they hold the agent to, and those policies by finding id.
 */
function expectationsOf(expected: Record<string, unknown>): ScenarioExpectations {
  const attributions: Record<string, string> = {};
  const group = (name: string, key: string): string[] => {
    const values: string[] = [];
    for (const item of list(expected[name])) {
      const value = typeof item === 'string' ? item : isObj(item) ? str(item[key]) : undefined;
      if (value === undefined) continue;
      const policy = isObj(item) ? str(item.policy) : undefined;
      if (policy !== undefined) attributions[`expected.${name}[${values.length}]`] = policy;
      values.push(value);
    }
    return values;
  };
  const actionArgs = actionArgsOf(expected.required_actions);
  const assertions = assertionsOf(expected.assertions);
  const userAssertions = group('user_assertions', 'assert');
  const requestors = requestorsOf(expected.required_actions);
  const endState = endStateOf(expected.end_state);
  const gradedBy = list(expected.graded_by).filter((g): g is GradedExpectation =>
    (GRADED_EXPECTATIONS as readonly unknown[]).includes(g),
  );
  return {
    database: group('database', 'assert'),
    requiredActions: group('required_actions', 'tool'),
    forbiddenActions: group('forbidden_actions', 'tool'),
    mustSay: group('must_say', 'phrase'),
    mustNotSay: group('must_not_say', 'phrase'),
    ...(Object.keys(attributions).length > 0 && { attributions }),
    ...(Object.keys(actionArgs).length > 0 && { actionArgs }),
    ...(assertions.length > 0 && { assertions }),
    ...(userAssertions.length > 0 && { userAssertions }),
    ...(Object.keys(requestors).length > 0 && { requestors }),
    ...(endState && { endState }),
    ...(expected.graded_by !== undefined && { gradedBy: [...new Set(gradedBy)] }),
    ...(strings(expected.not_checked).length > 0 && { notChecked: strings(expected.not_checked) }),
  };
}

/** `end_state:` as written: rows that are neither a mapping nor null are left out (check says so). */
function endStateOf(value: unknown): EndState | undefined {
  if (!isObj(value)) return undefined;
  const tables: Record<string, Record<string, Record<string, unknown> | null>> = {};
  for (const [table, rows] of Object.entries(value)) {
    if (!isObj(rows)) continue;
    tables[table] = Object.fromEntries(
      Object.entries(rows).flatMap(([key, row]): [string, Record<string, unknown> | null][] =>
        row === null ? [[key, null]] : isObj(row) ? [[key, { ...row }]] : [],
      ),
    );
  }
  return tables;
}

/**
 * The `args:` (and `compare_args:`) of required actions written as mappings, by finding id;
 * counted as `expectationsOf` counts the actions, so the ids agree.
 */
function actionArgsOf(items: unknown): Record<string, ExpectedArgs> {
  const byId: Record<string, ExpectedArgs> = {};
  let index = 0;
  for (const item of list(items)) {
    const tool = typeof item === 'string' ? item : isObj(item) ? str(item.tool) : undefined;
    if (tool === undefined) continue;
    if (isObj(item) && isObj(item.args)) {
      const compare = Array.isArray(item.compare_args) ? strings(item.compare_args) : undefined;
      byId[`expected.required_actions[${index}]`] = {
        args: item.args,
        ...(compare && { compare }),
      };
    }
    index++;
  }
  return byId;
}

/** A scenario's natural-language assertions, written alone or as `{ assertion, policy }`. */
function assertionsOf(items: unknown): NlAssertion[] {
  return list(items).flatMap((item): NlAssertion[] => {
    if (typeof item === 'string') return item.trim() === '' ? [] : [{ text: item }];
    if (!isObj(item)) return [];
    const text = str(item.assertion);
    const policy = str(item.policy);
    if (text === undefined || text.trim() === '') return [];
    return [{ text, ...(policy !== undefined && { policy }) }];
  });
}

/** Builds the project's own prompts from the value of scenarios.yaml (`prompts:`), known keys only. */
export function buildPrompts(value: unknown): PromptOverride[] {
  const root = isObj(value) ? value : {};
  const prompts = isObj(root.prompts) ? root.prompts : {};
  return Object.entries(prompts).flatMap(([key, text]) => {
    const info = PROMPT_TEMPLATES.find((p) => p.key === key);
    return info && typeof text === 'string'
      ? [{ path: ['prompts', key], key: info.key, text }]
      : [];
  });
}
