import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from '../cel.ts';
import { diffDatabases, seedDatabase, tableKeys } from '../sim/database.ts';
import type { Database } from '../sim/events.ts';
import { endStateDifferences } from '../sim/endState.ts';
import { runInitialization } from '../sim/initialization.ts';
import { runTool } from '../sim/toolRuntime.ts';
import {
  canonical,
  changedSources,
  digest,
  importedTau2,
  present,
  skipped,
} from '../../test/sharedTau2.ts';

/*
 * Each tau2-bench domain beside the repository (../shared/tau2, never copied in), imported as a
 * user imports it, and each task's gold run made through the imported project: the scenario's
 * starting rows and initialization calls (tau2's initialization actions and the tool calls of its
 * message history), then the expected actions in order. The rows it changes are compared with
 * hashes of the rows tau2-bench's own tools change (scripts/tau2/expected_end_states.py), and
 * the `end_state` the import wrote must describe exactly that end.
 */

const here = path.dirname(new URL(import.meta.url).pathname);

interface Oracle {
  readonly sources: Record<string, string>;
  readonly tasks: Record<
    string,
    { readonly changed: Record<string, string>; readonly env_assertions: unknown[] }
  >;
}

const imported = importedTau2;

/** Each task's gold run through the imported project, and the end it reaches. */
function goldRuns(domain: string) {
  const { model, domain: read } = imported(domain);
  const now = model.now ?? '2024-01-01T00:00:00Z';
  const keys = tableKeys(model);
  const side = new Map(model.tables.map((t) => [t.name, t.side === 'user' ? 'user:' : '']));
  return read.tasks.map((task, i) => {
    const scenario = model.scenarios[i];
    if (!scenario) throw new Error(`task ${task.id} has no scenario`);
    const start = seedDatabase(model, scenario.rows).db;
    let db: Database = runInitialization(model, start, scenario.initialization ?? [], now).db;
    // A call its tool refuses changes nothing, as in tau2-bench (the agent is told the error).
    for (const action of task.actions) {
      const outcome = runTool(model, db, { tool: action.name, args: action.arguments }, { now });
      if (outcome.ok) db = outcome.db;
    }
    // tau2-bench's hashes count every row that differs from the domain's own database, rows the
    // task's initialization_data changed included; the end state describes the scenario's run.
    const changes = diffDatabases(start, db, model);
    const changed: Record<string, string> = {};
    // A one-record table (the phone) keeps its record under `id`, its name; tau2 has no such field.
    const record = (table: string, row: Record<string, unknown> | undefined) =>
      row !== undefined && row.id === table
        ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'id'))
        : row;
    for (const change of diffDatabases(seedDatabase(model).db, db, model)) {
      const after =
        change.after === undefined ? undefined : digest(record(change.table, change.after));
      const before = change.before && digest(record(change.table, change.before));
      if (after === undefined || before === after) continue;
      changed[`${side.get(change.table) ?? ''}${change.table}/${change.key}`] = after;
    }
    // The env assertions as carried (database and user assertions), judged on the gold end.
    const carried = [...scenario.expected.database, ...(scenario.expected.userAssertions ?? [])];
    const judged = carried.map((cel) => {
      const compiled = compileCel(cel);
      if (isCelProblem(compiled)) return 'not CEL';
      try {
        return compiled.run({ db }) === true;
      } catch {
        return false;
      }
    });
    const asserted = carried.length === (task.envAssertions?.length ?? 0) ? judged : undefined;
    const end = scenario.expected.endState;
    const described =
      end === undefined
        ? undefined
        : endStateDifferences(end, changes, start, keys).map((d) => d.text);
    return { task: task.id, changed, described, asserted };
  });
}

function compare(domain: string) {
  const oracle = JSON.parse(
    readFileSync(path.join(here, 'testdata', `tau2-${domain}-end-states.json`), 'utf8'),
  ) as Oracle;
  // The hashes were made from these very files: a changed domain needs them made again.
  expect(
    changedSources(domain, oracle.sources),
    'run python3 scripts/tau2/expected_end_states.py',
  ).toEqual([]);
  const runs = goldRuns(domain);
  const differing = runs
    .filter((run) => canonical(run.changed) !== canonical(oracle.tasks[run.task]?.changed ?? {}))
    .map((run) => run.task);
  // Where the import wrote an end state, it is exactly the end the gold run reached.
  const misdescribed = runs.filter((run) => run.described && run.described.length > 0);
  // Env assertions judged as tau2-bench judges them on its gold end, where all were carried.
  const withAssertions = runs.filter(
    (run) => (oracle.tasks[run.task]?.env_assertions ?? []).length > 0,
  );
  // The scenario keeps the agent's assertions (`database`) before the user's: tau2-bench's
  // outcomes are put in that order to be compared.
  const envOf = new Map(imported(domain).domain.tasks.map((t) => [t.id, t.envAssertions ?? []]));
  const inOrder = (task: string) => {
    const outcomes = oracle.tasks[task]?.env_assertions ?? [];
    const envs = envOf.get(task) ?? [];
    const agentFirst = [...outcomes.keys()].sort(
      (a, b) => Number(envs[a]?.env === 'user') - Number(envs[b]?.env === 'user'),
    );
    return agentFirst.map((k) => outcomes[k]);
  };
  const assertionsDiffer = withAssertions
    .filter(
      (run) =>
        run.asserted === undefined || canonical(run.asserted) !== canonical(inOrder(run.task)),
    )
    .map((run) => run.task);
  return { runs, differing, misdescribed, withAssertions, assertionsDiffer };
}

describe('tau2-bench end states through the imported tools', () => {
  it.skipIf(!present('retail'))(
    `retail: every task ends where tau2-bench's tools end${skipped('retail')}`,
    () => {
      const { runs, differing, misdescribed } = compare('retail');
      expect(runs).toHaveLength(114);
      expect(differing).toEqual([]);
      expect(misdescribed).toEqual([]);
      expect(runs.filter((r) => r.described !== undefined).length).toBe(114);
    },
  );

  it.skipIf(!present('mock'))(
    `mock: every task ends where tau2-bench's tools end, user state and history calls included${skipped('mock')}`,
    () => {
      const { runs, differing, misdescribed, withAssertions, assertionsDiffer } = compare('mock');
      expect(runs).toHaveLength(10);
      // create_task inserts a row (`self.db.tasks[id] = Task(…)`) and appends its new id to the
      // user's list; one task starts from initialization_data merged into the seed rows.
      expect(differing).toEqual([]);
      expect(misdescribed).toEqual([]);
      // Every task graded by the database (all but the one graded by env assertions alone).
      expect(runs.filter((r) => r.described !== undefined).length).toBe(9);
      // Env assertions, judged on the gold end, agree with tau2-bench's.
      expect(withAssertions).toHaveLength(3);
      expect(assertionsDiffer).toEqual([]);
    },
  );

  it.skipIf(!present('telecom'))(
    `telecom: every task ends where tau2-bench's tools end, the phone and the sync included${skipped('telecom')}`,
    () => {
      const { runs, differing, misdescribed, withAssertions, assertionsDiffer } =
        compare('telecom');
      expect(runs).toHaveLength(114);
      expect(misdescribed).toEqual([]);
      // The phone and its surroundings, read from user_db.toml through user_data_model.py: what
      // the file leaves out is the model's default, a factory's enum-keyed map included.
      const { model } = imported('telecom');
      const row = (table: string) =>
        model.tables.find((t) => t.name === table && t.side === 'user')?.rows[0];
      expect(row('device')).toMatchObject({
        sim_card_status: 'active',
        battery_level: 80,
        wifi_ssid: null,
        active_apn_settings: { apn_name: 'internet', reset_at_reboot: false, mms_proxy: null },
      });
      expect(row('surroundings')).toMatchObject({
        phone_number: null,
        line_active: true,
        signal_strength: { '2G': 'poor', '3G': 'fair', '4G': 'good', '5G': 'excellent' },
      });
      // Every task ends where tau2-bench's tools end: the phone's tools, the break functions the
      // tasks' setup calls, and the environment's sync after each call, all read from the source.
      expect(differing).toEqual([]);
      expect(withAssertions).toHaveLength(114);
      // tau2-bench grades telecom by its env assertions: each, carried and judged on the gold
      // end, agrees with tau2-bench's own.
      expect(assertionsDiffer).toEqual([]);
    },
  );
});
