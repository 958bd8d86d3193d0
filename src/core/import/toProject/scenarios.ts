import type { ImportedAction, ImportedTask, JsonValue } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { safeId, uniqueNames } from './carry.ts';

/**
 * Plans scenarios.yaml from tasks, graded as tau2-bench grades them: the goal (with the task's
 * instructions for the user), what the user knows and does not, the persona only when the task
 * gives one, each expected action with its arguments (and `compare_args`), what the agent must
 * communicate as `must_say`, and the natural-language assertions as `assertions`. A task names no
 * policy, so neither does its scenario (a failure is reported unattributed rather than charged
 * to a policy the task never named). Parts with no field yet are noted per task.
 */
export function planScenarios(
  tasks: readonly ImportedTask[],
  toolNames: ReadonlyMap<string, string>,
  notes: CarryNote[],
  userToolNames: ReadonlyMap<string, string> = new Map(),
): Array<Record<string, unknown>> {
  const unique = uniqueNames('-');
  return tasks.map((task) => {
    const id = unique(safeId(`task-${task.id}`, 'task'));
    const item = `task ${task.id}`;
    const goal = [task.goal, task.instructions ?? '']
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join('\n\n');
    const required: unknown[] = [];
    const seen = new Set<string>();
    const missing = new Set<string>();
    for (const action of task.actions) {
      const name = (action.requestor === 'user' ? userToolNames : toolNames).get(action.name);
      if (name === undefined) {
        if (!missing.has(action.name))
          notes.push({
            file: 'scenarios.yaml',
            item,
            message: `Expects a call to ${action.name}, which is not a tool of the domain; left out.`,
          });
        missing.add(action.name);
        continue;
      }
      const entry = requiredAction(name, action);
      const key = JSON.stringify(entry);
      if (!seen.has(key)) required.push(entry);
      seen.add(key);
    }
    for (const extra of task.extras)
      notes.push({
        file: 'scenarios.yaml',
        item,
        message: `${extra.what} not carried: ${JSON.stringify(extra.value).slice(0, 200)}.`,
      });
    const expected: Record<string, unknown> = {};
    if (required.length > 0) expected.required_actions = required;
    if (task.communicate.length > 0) expected.must_say = [...task.communicate];
    if (task.nlAssertions.length > 0) expected.assertions = [...task.nlAssertions];
    return {
      id,
      ...(task.persona !== undefined && task.persona.trim() !== ''
        ? { persona: task.persona.trim() }
        : {}),
      goal: goal || '(the task states no goal)',
      ...(task.knows.length > 0 ? { knows: [...task.knows] } : {}),
      ...(task.unknown.length > 0 ? { unknown: [...task.unknown] } : {}),
      ...(Object.keys(expected).length > 0 ? { expected } : {}),
    };
  });
}

/** A required action: the tool name alone, or `{tool, args, compare_args}` as the task gives it. */
function requiredAction(tool: string, action: ImportedAction): unknown {
  const args: Record<string, JsonValue> = { ...action.arguments };
  const requestor = action.requestor === 'user' ? { requestor: 'user' } : {};
  if (Object.keys(args).length === 0 && action.compareArgs === undefined)
    return action.requestor === 'user' ? { tool, ...requestor } : tool;
  return {
    tool,
    args,
    ...(action.compareArgs !== undefined ? { compare_args: [...action.compareArgs] } : {}),
    ...requestor,
  };
}
