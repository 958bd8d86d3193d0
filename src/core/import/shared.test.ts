import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import { parseProject } from '../format/parseProject.ts';
import { seedDatabase } from '../sim/database.ts';
import { runTool } from '../sim/toolRuntime.ts';
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
    `runs every expected call of every task; each read finds what it finds in the whole database${absent}`,
    () => {
      const run = (limit: number) => {
        const domain = retail(limit);
        const { files } = projectOfDomain(domain);
        const { model } = parseProject(projectFromFiles('retail', files).project);
        const { db, problems } = seedDatabase(model);
        expect(problems).toEqual([]);
        return domain.tasks.flatMap((task) =>
          task.actions.map((action) => {
            const call = { tool: action.name, args: action.arguments };
            const outcome = runTool(model, db, call, { now: '2024-05-15T15:00:00-05:00' });
            expect(outcome.ok, `task ${task.id}: ${action.name}`).toBe(true);
            return outcome.ok ? outcome.result : outcome.error;
          }),
        );
      };
      const sliced = run(200);
      expect(sliced.length).toBeGreaterThan(500);
      // The slice keeps every row an expected read call looks up (16 look-ups find nothing in
      // tau2-bench too: a user giving a wrong email or zip, an order id that does not exist).
      expect(sliced).toEqual(run(Number.POSITIVE_INFINITY));
    },
  );
});
