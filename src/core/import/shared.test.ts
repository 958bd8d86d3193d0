import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import { parseProject } from '../format/parseProject.ts';
import { seedDatabase } from '../sim/database.ts';
import { runTool } from '../sim/toolRuntime.ts';
import { replayTasks } from './replay.ts';
import { readTau2Domain } from './tau2.ts';
import { projectOfDomain } from './toProject/index.ts';

// tau2-bench's retail domain, beside the repository (never copied into it).
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const RETAIL = path.resolve(root, '..', 'shared', 'tau2', 'retail');
const present = existsSync(RETAIL);
const absent = present ? '' : ' (skipped: ../shared/tau2/retail is absent)';

function retail(limit?: number) {
  const files = new Map<string, string>();
  for (const [name, file] of [
    ['policy.md', 'data/policy.md'],
    ['tasks.json', 'data/tasks.json'],
    ['db.json', 'data/db.json'],
    ['tools.py', 'src/tools.py'],
    ['data_model.py', 'src/data_model.py'],
  ] as const)
    files.set(name, readFileSync(path.join(RETAIL, file), 'utf8'));
  return readTau2Domain('retail', files, { limit });
}

describe('the tau2-bench retail import', () => {
  it.skipIf(!present)(`reads every tool, task and table and checks without errors${absent}`, () => {
    const domain = retail();
    expect(domain.notes.filter((n) => !n.message.startsWith('Sliced to'))).toEqual([]);
    expect(domain.tasks).toHaveLength(114);
    const { files } = projectOfDomain(domain);
    const errors = analyzeProject(projectFromFiles('retail', files).project).diagnostics.filter(
      (d) => d.severity === 'error',
    );
    expect(errors).toEqual([]);
  });

  it.skipIf(!present)(
    `runs every expected read; each finds what it finds in the whole database${absent}`,
    () => {
      const run = (limit: number) => {
        const domain = retail(limit);
        const { files } = projectOfDomain(domain);
        const { model } = parseProject(projectFromFiles('retail', files).project);
        const { db, problems } = seedDatabase(model);
        expect(problems).toEqual([]);
        const reads = new Set(model.tools.filter((t) => t.kind === 'read').map((t) => t.name));
        return domain.tasks.flatMap((task) =>
          task.actions
            .filter((action) => reads.has(action.name))
            .map((action) => {
              const call = { tool: action.name, args: action.arguments };
              const outcome = runTool(model, db, call, { now: '2024-05-15T15:00:00-05:00' });
              return outcome.ok ? outcome.result : `error: ${outcome.error}`;
            }),
        );
      };
      const sliced = run(200);
      expect(sliced.length).toBeGreaterThan(350);
      // The slice keeps every row an expected read call looks up (some look-ups find nothing
      // in tau2-bench too: a user giving a wrong email or zip, an order id that does not exist).
      expect(sliced).toEqual(run(Number.POSITIVE_INFINITY));
    },
  );

  it.skipIf(!present)(
    `replays each task's expected actions through the guards and tools; only calls tau2-bench's own tools refuse fail${absent}`,
    () => {
      const domain = retail(200);
      const { files, toolNames } = projectOfDomain(domain);
      const { model } = parseProject(projectFromFiles('retail', files).project);
      const replays = replayTasks(model, domain.tasks, toolNames, '2024-05-15T15:00:00-05:00');
      // A call to a tool whose answer the reader could not follow is an error, never a success:
      // this one computes its answer in a dict built from a table. (get_item_details, a search
      // over every product's variants with `.items()`, is read; answers.test.ts checks it.)
      const missing = new Set(['list_all_product_types']);
      // calculate's eval() of arithmetic is carried: each expected call answers what Python's
      // str(round(float(eval(e)), 2)) gives (worked out by python3 for these expressions).
      const calculated = domain.tasks.flatMap((task) =>
        task.actions
          .filter((a) => a.name === 'calculate')
          .map((a) => {
            const outcome = runTool(
              model,
              seedDatabase(model).db,
              {
                tool: 'calculate',
                args: a.arguments,
              },
              { now: '2024-05-15T15:00:00-05:00' },
            );
            // The agent is answered the text Python returns, as JSON.
            return `${task.id} ${outcome.ok ? String(JSON.parse(outcome.result)) : `error: ${outcome.error}`}`;
          }),
      );
      expect(calculated).toEqual([
        '16 8276.23',
        '21 41.92',
        '28 918.43',
        '38 1130.85',
        '44 -17.99',
        '45 9.89',
        '46 1126.04',
        '46 1497.65',
        '47 1095.55',
        '47 1528.14',
        '49 26.48',
        '61 30.18',
        '63 1288.65',
      ]);
      expect(model.tools.filter((t) => t.notImported !== undefined).map((t) => t.name)).toEqual(
        [...missing].sort(),
      );
      const failures = replays.flatMap((t) =>
        t.calls.filter((c) => !c.ok).map((c) => `${t.task} ${c.tool}: ${c.error ?? ''}`),
      );
      const notImported = failures.filter((f) => f.includes('was not imported'));
      expect(notImported.every((f) => missing.has(f.split(/[ :]/)[1] ?? ''))).toBe(true);
      // Each other failure is one the task's own data makes tau2-bench's tool raise too: a user
      // who gives a wrong email or zip first, a product or order id that does not exist, an
      // exchange asked of an order that is still pending (answers.test.ts checks each answer).
      expect(failures.filter((f) => !f.includes('was not imported'))).toEqual([
        '2 get_product_details: Product not found',
        '3 get_product_details: Product not found',
        '4 get_product_details: Product not found',
        '35 find_user_id_by_email: User not found',
        '37 find_user_id_by_email: User not found',
        '38 find_user_id_by_email: User not found',
        '39 find_user_id_by_name_zip: User not found',
        '46 get_order_details: Order not found',
        '46 get_order_details: Order not found',
        '47 get_order_details: Order not found',
        '47 get_order_details: Order not found',
        '54 find_user_id_by_email: User not found',
        '55 find_user_id_by_email: User not found',
        '64 exchange_delivered_order_items: Non-delivered order cannot be exchanged',
        '67 find_user_id_by_name_zip: User not found',
        '67 find_user_id_by_name_zip: User not found',
        '68 find_user_id_by_name_zip: User not found',
        '105 exchange_delivered_order_items: Insufficient gift card balance to pay for the price difference',
      ]);
      // The address changes are carried as effects: each such call changes its row.
      const moves = replays.flatMap((t) =>
        t.calls.filter((c) => c.tool.startsWith('modify_') && c.tool.endsWith('_address')),
      );
      expect(moves.length).toBeGreaterThan(10);
      expect(moves.every((c) => c.changes === 1)).toBe(true);
    },
  );
});

// The end states of these replays against tau2-bench's own: endStates.test.ts.
