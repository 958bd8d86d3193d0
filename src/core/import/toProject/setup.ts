import type { ImportedDomain, ImportedTool } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import type { TablePlan } from './database.ts';
import type { ToolEntry } from './tools.ts';
import { planTools } from './tools.ts';

/*
 * tau2's initialization actions may call a toolkit's methods that are not tools (a break
 * function: `set_data_usage`, `turn_data_off`). Each one some task names is read by the same
 * tool reader and written as a `runs: setup` tool of its side: scenarios' `initialization`
 * calls it, and no model is ever offered it (docs/format.md, "Dual control").
 */

/** The setup tools as tools.yaml writes them, and each source function's name in the project. */
export interface SetupPlan {
  readonly entries: ReadonlyArray<ToolEntry & { readonly runs: 'setup'; readonly side?: 'user' }>;
  readonly agent: ReadonlyMap<string, string>;
  readonly user: ReadonlyMap<string, string>;
}

/** Plans a setup tool for each function a task's initialization names that is not a tool. */
export function planSetupTools(
  domain: ImportedDomain,
  tables: { readonly agent: readonly TablePlan[]; readonly user: readonly TablePlan[] },
  taken: ReadonlySet<string>,
  notes: CarryNote[],
): SetupPlan {
  const used = new Set(taken);
  const entries: Array<ToolEntry & { runs: 'setup'; side?: 'user' }> = [];
  const plan = (side: 'agent' | 'user') => {
    const tools = new Set(
      (side === 'user' ? (domain.userTools ?? []) : domain.tools).map((t) => t.name),
    );
    const named = new Set(
      domain.tasks.flatMap((task) =>
        (task.initialization ?? [])
          .filter(
            (call) => (call.env === 'user' ? 'user' : 'agent') === side && !tools.has(call.func),
          )
          .map((call) => call.func),
      ),
    );
    const sources: readonly ImportedTool[] = domain.setupFunctions?.[side] ?? [];
    const chosen = sources.filter((f) => named.has(f.name));
    const own: CarryNote[] = [];
    const planned = planTools(chosen, tables[side], own, domain);
    const names = new Map<string, string>();
    planned.entries.forEach((entry, i) => {
      const source = chosen[i];
      if (!source) return;
      let name = entry.name;
      for (let n = 2; used.has(name); n++) name = `${entry.name}_${n}`;
      used.add(name);
      names.set(source.name, name);
      entries.push({
        ...entry,
        name,
        runs: 'setup',
        ...(side === 'user' && { side: 'user' as const }),
      });
    });
    for (const note of own)
      notes.push({
        ...note,
        item: note.item.replace(/^tool /, `setup function ${side === 'user' ? '(user) ' : ''}`),
      });
    return names;
  };
  const agent = plan('agent');
  const user = plan('user');
  return { entries, agent, user };
}
