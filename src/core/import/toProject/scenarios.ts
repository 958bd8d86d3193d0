import type { ImportedAction, ImportedTask, JsonValue } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { safeId, uniqueNames } from './carry.ts';

/**
 * Plans scenarios.yaml from tasks, graded as tau2-bench grades them: the goal (with the task's
 * instructions for the user), what the user knows and does not, the persona only when the task
 * gives one, each expected action with its arguments (and `compare_args`), what the agent must
 * communicate as `must_say`, the natural-language assertions as `assertions`, and what its
 * `reward_basis` grades by as `graded_by` (the rest is shown, not graded). Parts with no field
 * yet are noted per task.
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
    const by = gradedBy(task.rewardBasis ?? DEFAULT_BASIS);
    if (typeof by === 'string')
      notes.push({
        file: 'scenarios.yaml',
        item,
        message: `Graded by ${by} in tau2-bench, which PolicyLab cannot grade: every expectation grades it here instead.`,
      });
    else expected.graded_by = by;
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

/** tau2-bench's basis when a task names none. */
const DEFAULT_BASIS = ['DB', 'COMMUNICATE'];

/** What each part of tau2-bench's `reward_basis` grades, as scenarios.yaml names it. */
const BASIS: Readonly<Record<string, readonly string[]>> = {
  DB: ['end_state'],
  ENV_ASSERTION: ['database', 'user_assertions'],
  ACTION: ['required_actions'],
  COMMUNICATE: ['must_say'],
  NL_ASSERTION: ['assertions'],
};

/** `graded_by:` for a task's reward basis, or the first part of it with no counterpart here. */
function gradedBy(basis: readonly string[]): string[] | string {
  const by = new Set<string>();
  for (const part of basis) {
    const mapped = BASIS[part];
    if (!mapped) return part;
    for (const key of mapped) by.add(key);
  }
  return [...by];
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
