import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ExpectedArgs } from '../format/model.ts';
import { argDifferences } from './actionMatch.ts';

/*
 * tau2-bench's own expected actions (../shared/tau2/retail, when it is there), held to the
 * matching rule: each matches a call with its arguments in another order, and stops matching when
 * a compared argument changes. Read from the shared folder, never copied into the project.
 */

const TASKS = fileURLToPath(
  new URL('../../../../shared/tau2/retail/data/tasks.json', import.meta.url),
);

interface Tau2Action {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly compare_args?: string[] | null;
}

function actions(): Tau2Action[] {
  const tasks = JSON.parse(readFileSync(TASKS, 'utf8')) as {
    evaluation_criteria?: { actions?: Tau2Action[] | null };
  }[];
  return tasks.flatMap((t) => t.evaluation_criteria?.actions ?? []);
}

const expectedOf = (a: Tau2Action): ExpectedArgs => ({
  args: a.arguments,
  ...(a.compare_args !== null && a.compare_args !== undefined && { compare: a.compare_args }),
});

describe.skipIf(!existsSync(TASKS))('tau2-bench retail’s expected actions', () => {
  it('each matches its own call with the arguments reversed, and not with a compared one changed', () => {
    const all = actions();
    expect(all.length).toBeGreaterThan(100);
    for (const action of all) {
      const reversed = Object.fromEntries(Object.entries(action.arguments).reverse());
      expect(argDifferences(expectedOf(action), reversed), action.name).toEqual([]);
      const compared = action.compare_args ?? Object.keys(action.arguments);
      for (const name of compared) {
        const changed = { ...reversed, [name]: ['changed', reversed[name]] };
        expect(argDifferences(expectedOf(action), changed).map((d) => d.name)).toEqual([name]);
      }
    }
  });

  it('an empty compare_args matches any call to the tool, as tau2-bench does', () => {
    const open = actions().filter((a) => a.compare_args?.length === 0);
    expect(open.length).toBeGreaterThan(0);
    for (const action of open)
      expect(argDifferences(expectedOf(action), { summary: 'something else' })).toEqual([]);
  });
});

if (!existsSync(TASKS))
  console.warn(`Skipped tau2-bench's expected actions: ${TASKS} is not there.`);
