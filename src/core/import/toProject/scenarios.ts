import type { ImportedTask } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { safeId, uniqueNames } from './carry.ts';

/** The policy every imported scenario is held to: the domain's policy document as a whole. */
export const DOMAIN_POLICY = 'domain-policy';

const NO_PERSONA = 'A customer (the task gives no persona).';

/**
 * Plans scenarios.yaml from tasks: the goal, what the user knows and does not, persona (or the
 * task's instructions for the user), required actions by tool name, and what the agent must
 * communicate as `must_say`. Expected arguments, natural-language assertions and parts with no
 * field yet are noted per task.
 */
export function planScenarios(
  tasks: readonly ImportedTask[],
  toolNames: ReadonlyMap<string, string>,
  notes: CarryNote[],
): Array<Record<string, unknown>> {
  const unique = uniqueNames('-');
  return tasks.map((task) => {
    const id = unique(safeId(`task-${task.id}`, 'task'));
    const item = `task ${task.id}`;
    const persona = task.persona ?? task.instructions ?? NO_PERSONA;
    if (task.persona === undefined)
      notes.push({
        file: 'scenarios.yaml',
        item,
        message:
          task.instructions !== undefined
            ? "No persona; the task's instructions for the user stand in."
            : 'No persona; a placeholder stands in.',
      });
    const goal =
      task.persona !== undefined && task.instructions !== undefined
        ? `${task.goal}\n\n${task.instructions}`
        : task.goal;
    const required: string[] = [];
    const missing = new Set<string>();
    for (const action of task.actions) {
      const name = toolNames.get(action.name);
      if (name === undefined && !missing.has(action.name)) {
        missing.add(action.name);
        notes.push({
          file: 'scenarios.yaml',
          item,
          message: `Expects a call to ${action.name}, which is not a tool of the domain; left out.`,
        });
      }
      if (name !== undefined && !required.includes(name)) required.push(name);
    }
    const withArgs = task.actions.filter((a) => Object.keys(a.arguments).length > 0).length;
    if (withArgs > 0)
      notes.push({
        file: 'scenarios.yaml',
        item,
        message: `${withArgs} expected action(s) with arguments carried as tool names only; the end state they reach is not asserted.`,
      });
    for (const assertion of task.nlAssertions)
      notes.push({
        file: 'scenarios.yaml',
        item,
        message: `Natural-language assertion not carried: "${assertion}".`,
      });
    for (const extra of task.extras)
      notes.push({
        file: 'scenarios.yaml',
        item,
        message: `${extra.what} not carried: ${JSON.stringify(extra.value).slice(0, 200)}.`,
      });
    const expected: Record<string, unknown> = {};
    if (required.length > 0) expected.required_actions = required;
    if (task.communicate.length > 0) expected.must_say = [...task.communicate];
    return {
      id,
      policies: [DOMAIN_POLICY],
      persona: persona.trim() || NO_PERSONA,
      goal: goal.trim() || '(the task states no goal)',
      ...(task.knows.length > 0 ? { knows: [...task.knows] } : {}),
      ...(task.unknown.length > 0 ? { unknown: [...task.unknown] } : {}),
      ...(Object.keys(expected).length > 0 ? { expected } : {}),
    };
  });
}
