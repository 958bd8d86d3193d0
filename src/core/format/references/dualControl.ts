import type { Diagnostic } from '../../diagnostics.ts';
import { argumentErrors } from '../../sim/toolArguments.ts';
import { sideOfEntity, tablesReadBy, whose } from '../dualControl.ts';
import type { Side, Tool } from '../model.ts';
import type { YamlPath } from '../yamlFile.ts';
import { valueAt } from '../yamlFile.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, readable, unknownName } from './context.ts';

/*
 * Dual control (docs/format.md, "Dual control: the user's own tools and state"): a table or tool
 * marked `side: user` is the simulated user's. The agent's tools and guards never read or write
 * the user's tables, the user's tools only those; the agent is never offered a user tool, so
 * guards and checks on one watch nothing; a scenario's `initialization:` calls name real tools
 * with arguments that fit them; a required action says which side must make it; and
 * `user_assertions:` are valid CEL over the user's tables only.
 */

/** Every dual-control problem of a project (the checker `checkReferences` runs). */
export function checkDualControl(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  if (readable(context, 'database.yaml'))
    for (const tool of context.model.tools) checkToolSide(context, found, tool);
  checkRules(context, found);
  checkScenarioSides(context, found);
  return found.diagnostics;
}

/** The side of the table `name`, when database.yaml defines it. */
function tableSide(context: ReferenceContext, name: string): Side | undefined {
  const table = context.tables.get(name);
  return table && sideOfEntity(table);
}

/** A problem for each table `source` reads that is not on `side`. */
function readsOnly(
  context: ReferenceContext,
  found: Findings,
  file: 'tools.yaml' | 'rules.yaml',
  at: YamlPath,
  source: string,
  side: Side,
  who: string,
): void {
  for (const name of tablesReadBy(source)) {
    const other = tableSide(context, name);
    if (other !== undefined && other !== side)
      found.report(
        file,
        at,
        'wrong-side',
        `${who} reads "${name}", ${whose(other)} table; ${whose(side)} side never sees it.`,
      );
  }
}

function checkToolSide(context: ReferenceContext, found: Findings, tool: Tool): void {
  // The environment's own step (`runs: after_each_call`) keeps both sides in step: it may read
  // and write either side's tables. It takes no arguments: nobody calls it with any.
  if (tool.runs === 'after_each_call') {
    const required = tool.parameters.required ?? [];
    if (required.length > 0)
      found.report(
        'tools.yaml',
        [...tool.path, 'runs'],
        'wrong-side',
        `"${tool.name}" runs after each call with no arguments, but requires ${required.join(', ')}.`,
      );
    return;
  }
  const side = sideOfEntity(tool);
  const who = `"${tool.name}" (${whose(side)} tool)`;
  const reads = (at: YamlPath, source: string | undefined) => {
    if (source !== undefined) readsOnly(context, found, 'tools.yaml', at, source, side, who);
  };
  for (const effect of tool.effects) {
    const other = tableSide(context, effect.table);
    if (other !== undefined && other !== side)
      found.report(
        'tools.yaml',
        [...effect.path, effect.op],
        'wrong-side',
        `${who} cannot ${effect.op === 'select' ? 'read' : 'write'} "${effect.table}", ${whose(other)} table.`,
      );
    reads([...effect.path, 'where'], effect.where);
    reads([...effect.path, 'for_each'], effect.forEach);
    reads([...effect.path, 'when'], effect.when);
    for (const [column, source] of Object.entries(effect.columns))
      reads([...effect.path, effect.op === 'update' ? 'set' : 'values', column], source);
  }
  reads([...tool.path, 'returns'], tool.returns);
  for (const precondition of tool.requires ?? [])
    reads([...precondition.path, 'condition'], precondition.condition);
}

/** Guards hold the agent: none on a user tool, none reading the user's tables. */
function checkRules(context: ReferenceContext, found: Findings): void {
  const userTools = new Set(
    context.model.tools.filter((t) => sideOfEntity(t) === 'user').map((t) => t.name),
  );
  for (const guards of context.model.guards) {
    if (userTools.has(guards.tool))
      found.reportKey(
        'rules.yaml',
        guards.path,
        'wrong-side',
        `"${guards.tool}" is the user’s tool: guard rules hold the agent, which is never offered it.`,
      );
    for (const rule of guards.rules)
      if (rule.when !== undefined && readable(context, 'database.yaml'))
        readsOnly(
          context,
          found,
          'rules.yaml',
          [...rule.path, 'when'],
          rule.when,
          'agent',
          `Rule "${rule.id}"`,
        );
  }
  for (const check of context.model.checks)
    for (const key of ['tool', 'first', 'then'] as const) {
      const name = check[key];
      if (name !== undefined && userTools.has(name))
        found.report(
          'rules.yaml',
          [...check.path, key],
          'wrong-side',
          `"${name}" is the user’s tool: checks watch the agent’s calls, so this one sees none of it.`,
          'warning',
        );
    }
}

function checkScenarioSides(context: ReferenceContext, found: Findings): void {
  const tools = new Map(context.model.tools.map((t) => [t.name, t]));
  const raw = context.files['scenarios.yaml'].value;
  for (const scenario of context.model.scenarios) {
    scenario.initialization?.forEach((call, i) => {
      const at = [...scenario.path, 'initialization', i];
      found.toolRef('scenarios.yaml', [...at, 'tool'], call.tool);
      const tool = tools.get(call.tool);
      if (!tool) return;
      const wrong = argumentErrors(tool, call.args);
      if (wrong.length > 0)
        found.report(
          'scenarios.yaml',
          at,
          'initialization-args',
          `The arguments of "${call.tool}" do not fit its parameters: ${wrong.join('; ')}.`,
        );
    });
    const required = valueAt(raw, [...scenario.path, 'expected', 'required_actions']);
    if (Array.isArray(required))
      required.forEach((item: unknown, i) => {
        const written = typeof item === 'object' && item !== null ? item : { tool: item };
        const { tool: name, requestor } = written as Record<string, unknown>;
        const tool = typeof name === 'string' ? tools.get(name) : undefined;
        if (!tool) return;
        const must: Side = requestor === 'user' ? 'user' : 'agent';
        const at = [...scenario.path, 'expected', 'required_actions', i];
        if (tool.runs !== undefined) {
          found.report(
            'scenarios.yaml',
            typeof item === 'object' ? [...at, 'tool'] : at,
            'wrong-side',
            `"${tool.name}" runs ${tool.runs === 'setup' ? 'in setup only' : 'after each call'}; no model is offered it, so this action can never be made.`,
          );
          return;
        }
        if (sideOfEntity(tool) === must) return;
        found.report(
          'scenarios.yaml',
          typeof item === 'object' ? [...at, 'tool'] : at,
          'wrong-side',
          must === 'user'
            ? `"${tool.name}" is the agent’s tool; the user cannot make this call. Leave out "requestor: user", or name one of the user’s tools.`
            : `"${tool.name}" is the user’s tool, which the agent is never offered; write { tool: ${tool.name}, requestor: user }.`,
        );
      });
    scenario.expected.forbiddenActions.forEach((name, i) => {
      const tool = tools.get(name);
      if (tool && sideOfEntity(tool) === 'user')
        found.report(
          'scenarios.yaml',
          [...scenario.path, 'expected', 'forbidden_actions', i],
          'wrong-side',
          `"${name}" is the user’s tool, which the agent is never offered: forbidding it checks nothing.`,
          'warning',
        );
    });
    checkUserAssertions(context, found, raw, [...scenario.path, 'expected', 'user_assertions']);
  }
}

/** Each user assertion valid CEL over `db`, reading the user's tables and no others. */
function checkUserAssertions(
  context: ReferenceContext,
  found: Findings,
  raw: unknown,
  path: YamlPath,
): void {
  const items = valueAt(raw, path);
  if (!Array.isArray(items)) return;
  items.forEach((item: unknown, i) => {
    const isMapping = typeof item === 'object' && item !== null;
    const source = isMapping ? (item as Record<string, unknown>).assert : item;
    if (typeof source !== 'string') return;
    const at = isMapping ? [...path, i, 'assert'] : [...path, i];
    found.condition('scenarios.yaml', at, source, 'assertion');
    const tables = tablesReadBy(source);
    if (tables.length === 0)
      found.report(
        'scenarios.yaml',
        at,
        'user-assertion-table',
        'A user assertion reads the user’s tables (db.<table>); this one reads none.',
      );
    if (!readable(context, 'database.yaml')) return;
    for (const name of tables) {
      const side = tableSide(context, name);
      if (side === undefined)
        found.report(
          'scenarios.yaml',
          at,
          'unknown-table',
          unknownName('table', name, context.tables.keys()),
        );
      else if (side !== 'user')
        found.report(
          'scenarios.yaml',
          at,
          'user-assertion-table',
          `"${name}" is the agent’s table; a user assertion reads only the user’s (side: user). Put it under expected.database instead.`,
        );
    }
  });
}
