import type { ImportedDomain } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import type { TablePlan } from './database.ts';
import { programOf } from './pyTool.ts';
import type { ToolEntry } from './tools.ts';

/*
 * tau2-bench runs its environment's `sync_tools` after every tool call: the user's phone learns
 * whether its line is active, a bill the user paid is marked paid. The method is read by the
 * tool reader, its `self.tools` and `self.user_tools` being the agent's and the user's toolkits,
 * and written as a `runs: after_each_call` tool (docs/format.md, "Dual control"). When it cannot
 * be read, the report says so first: every task's end may then differ from tau2-bench's.
 */

/** The environment's step after each call, or undefined when the domain has none (noted if unread). */
export function planEnvironment(
  domain: ImportedDomain,
  tables: { readonly agent: readonly TablePlan[]; readonly user: readonly TablePlan[] },
  taken: ReadonlySet<string>,
  notes: CarryNote[],
): (ToolEntry & { readonly runs: 'after_each_call' }) | undefined {
  const environment = domain.environment;
  if (environment === undefined) return undefined;
  const { sync, helpers } = environment;
  const program = programOf(
    sync.body,
    {},
    { properties: {} },
    [...tables.agent, ...tables.user],
    sync.place.line ?? 1,
    {
      known: domain,
      kits: {
        agent: { tables: tables.agent, helpers: helpers.agent },
        user: { tables: tables.user, helpers: helpers.user },
      },
      // Its failures guard against a broken scenario ("Wrong scenario, line not found").
      failuresFirst: true,
    },
  );
  const item = 'environment sync_tools';
  if ('reason' in program) {
    const why = `the environment's step after each call (sync_tools) could not be read (${program.reason})`;
    notes.push({
      file: 'tools.yaml',
      item,
      message: `Not carried: ${why}. A task whose end depends on it may not end where tau2-bench's ends.`,
      notImported: why,
    });
    return undefined;
  }
  if (program.effects.length === 0) return undefined;
  for (const message of program.notes) notes.push({ file: 'tools.yaml', item, message });
  let name = 'sync_tools';
  for (let n = 2; taken.has(name); n++) name = `sync_tools_${n}`;
  return {
    name,
    description:
      "The environment's own step after every tool call (tau2-bench's sync_tools): keeps the user's state and the agent's database in step.",
    kind: 'write',
    parameters: { type: 'object', properties: {} },
    ...(program.requires.length > 0 && { requires: program.requires }),
    effects: program.effects,
    runs: 'after_each_call',
  };
}
