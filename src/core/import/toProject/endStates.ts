import type { ProjectModel } from '../../format/model.ts';
import { diffDatabases, seedDatabase } from '../../sim/database.ts';
import { runInitialization } from '../../sim/initialization.ts';
import { changedColumns, toPlain } from '../../sim/plainValues.ts';
import { runTool } from '../../sim/toolRuntime.ts';
import type { ImportedTask } from '../domain.ts';
import type { CarryNote } from './carry.ts';

/** `expected.end_state` as scenarios.yaml writes it. */
type EndStateText = Record<string, Record<string, Record<string, unknown> | null>>;

/** Where no project clock is stated: any fixed time, so that an import is reproducible. */
const IMPORT_NOW = '2024-01-01T00:00:00Z';

/**
 * The end state tau2-bench grades a task's database by, as its gold run reaches it through the
 * imported project: the scenario's starting rows and initialization calls, then the task's
 * expected actions in order, each through its side's tool (a call its tool refuses changes
 * nothing, as in tau2-bench, where the error goes back to the agent). Returned per scenario (by
 * index): the rows that changed, field by field, or undefined when the task is not graded on the
 * database (`reward_basis` without `DB`) or its gold run cannot be made here, which is noted.
 */
export function goldEndStates(
  model: ProjectModel,
  tasks: readonly ImportedTask[],
  names: {
    readonly agent: ReadonlyMap<string, string>;
    readonly user: ReadonlyMap<string, string>;
  },
  notes: CarryNote[],
): Array<EndStateText | undefined> {
  const now = model.now ?? IMPORT_NOW;
  const tools = new Map(model.tools.map((t) => [t.name, t]));
  // Seeding checks every row: done once for the scenarios that add no rows of their own.
  let seed: ReturnType<typeof seedDatabase>['db'] | undefined;
  const startOf = (rows: (typeof model.scenarios)[number]['rows']) =>
    Object.keys(rows).length > 0 ? seedDatabase(model, rows).db : (seed ??= seedDatabase(model).db);
  return tasks.map((task, i) => {
    const scenario = model.scenarios[i];
    const basis = task.rewardBasis ?? ['DB', 'COMMUNICATE'];
    if (!scenario || !basis.includes('DB')) return undefined;
    const note = (why: string) =>
      notes.push({
        file: 'scenarios.yaml',
        item: `task ${task.id}`,
        message: `The end state tau2-bench grades by is not carried: ${why}.`,
      });
    const start = startOf(scenario.rows);
    const setup = runInitialization(model, start, scenario.initialization ?? [], now);
    if (setup.problem !== undefined) {
      note(setup.problem);
      return undefined;
    }
    let db = setup.db;
    for (const action of task.actions) {
      const name = (action.requestor === 'user' ? names.user : names.agent).get(action.name);
      const tool = name === undefined ? undefined : tools.get(name);
      if (!tool) {
        note(`its expected action ${action.name} is not a tool of the project`);
        return undefined;
      }
      // A read changes nothing, whatever it answers: only the writes are run.
      if (tool.kind === 'read') continue;
      if (tool.notImported !== undefined) {
        note(`its expected action ${action.name} calls a tool that was not imported`);
        return undefined;
      }
      const outcome = runTool(model, db, { tool: tool.name, args: action.arguments }, { now });
      if (outcome.ok) db = outcome.db;
    }
    const end: EndStateText = {};
    for (const change of diffDatabases(start, db, model)) {
      const table = (end[change.table] ??= {});
      if (change.kind === 'delete') table[change.key] = null;
      else if (change.kind === 'insert') table[change.key] = plainRow(change.after ?? {});
      else {
        const after = change.after ?? {};
        const fields = changedColumns(change.before ?? {}, after);
        table[change.key] = plainRow(Object.fromEntries(fields.map((f) => [f, after[f] ?? null])));
      }
    }
    return end;
  });
}

function plainRow(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toPlain(v)]));
}
