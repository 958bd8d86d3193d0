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

/** What a task's gold run gives the import: the end it reaches, and what each call answered. */
export interface GoldRun {
  /** The rows that changed, field by field; undefined when not graded on the database or not made. */
  readonly end: EndStateText | undefined;
  /**
   * Each call's tool (as the project names it) and its answer, in order, as far as the run went;
   * the reads only for a task with something for the agent to tell.
   */
  readonly answers: ReadonlyArray<{ readonly tool: string; readonly answer: string }>;
}

/**
 * Each task's gold run through the imported project: the scenario's starting rows and
 * initialization calls, then the task's expected actions in order, each through its side's tool
 * (a call its tool refuses changes nothing, as in tau2-bench, where the error goes back to the
 * agent). Its end is the end state tau2-bench grades the database by, kept when the task is
 * graded on it (`reward_basis` with `DB`); a gold run that cannot be made here is noted for such
 * a task. Returned per scenario, by index.
 */
export function goldRuns(
  model: ProjectModel,
  tasks: readonly ImportedTask[],
  names: {
    readonly agent: ReadonlyMap<string, string>;
    readonly user: ReadonlyMap<string, string>;
  },
  notes: CarryNote[],
): GoldRun[] {
  const now = model.now ?? IMPORT_NOW;
  const tools = new Map(model.tools.map((t) => [t.name, t]));
  // Seeding checks every row: done once for the scenarios that add no rows of their own.
  let seed: ReturnType<typeof seedDatabase>['db'] | undefined;
  const startOf = (rows: (typeof model.scenarios)[number]['rows']) =>
    Object.keys(rows).length > 0 ? seedDatabase(model, rows).db : (seed ??= seedDatabase(model).db);
  return tasks.map((task, i): GoldRun => {
    const answers: { tool: string; answer: string }[] = [];
    const scenario = model.scenarios[i];
    if (!scenario) return { end: undefined, answers };
    const graded = (task.rewardBasis ?? ['DB', 'COMMUNICATE']).includes('DB');
    const tells = task.communicate.length > 0 || task.nlAssertions.length > 0;
    const cut = (why: string): GoldRun => {
      if (graded)
        notes.push({
          file: 'scenarios.yaml',
          item: `task ${task.id}`,
          message: `The end state tau2-bench grades by is not carried: ${why}.`,
        });
      return { end: undefined, answers };
    };
    const start = startOf(scenario.rows);
    const setup = runInitialization(model, start, scenario.initialization ?? [], now);
    if (setup.problem !== undefined) return cut(setup.problem);
    let db = setup.db;
    for (const action of task.actions) {
      const name = (action.requestor === 'user' ? names.user : names.agent).get(action.name);
      const tool = name === undefined ? undefined : tools.get(name);
      if (!tool) return cut(`its expected action ${action.name} is not a tool of the project`);
      if (tool.notImported !== undefined) {
        // A read changes nothing, whatever it answers: the run goes on without its answer.
        if (tool.kind === 'read') continue;
        return cut(`its expected action ${action.name} calls a tool that was not imported`);
      }
      // A read changes nothing: it is run only when what it answers may be wanted, by what the
      // agent must tell (attribution.ts).
      if (tool.kind === 'read' && !tells) continue;
      const outcome = runTool(model, db, { tool: tool.name, args: action.arguments }, { now });
      answers.push({ tool: tool.name, answer: outcome.ok ? outcome.result : outcome.error });
      if (outcome.ok) db = outcome.db;
    }
    if (!graded) return { end: undefined, answers };
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
    return { end, answers };
  });
}

function plainRow(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toPlain(v)]));
}
