import type { ImportNote, ImportedAction, ImportedTask, JsonValue } from './domain.ts';
import { dualControlOfTask } from './tau2User.ts';

type Obj = Readonly<Record<string, JsonValue>>;
const isObj = (v: JsonValue | undefined): v is Obj =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: JsonValue | undefined): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : undefined;
const texts = (v: JsonValue | undefined): string[] =>
  Array.isArray(v)
    ? (v as readonly JsonValue[]).flatMap((x) =>
        typeof x === 'string' ? [x] : [JSON.stringify(x)],
      )
    : [];

/** Parts of a tau2 task read into fields of their own; everything else non-empty is an extra. */
const KNOWN_CRITERIA = new Set([
  'actions',
  'communicate_info',
  'nl_assertions',
  'reward_basis',
  'env_assertions',
]);

/**
 * Reads tau2's tasks.json: each task's persona, reason for calling, what the user knows and does
 * not, the expected actions with arguments, what the agent must communicate and the
 * natural-language assertions. Parts with no field here (initial state, environment
 * assertions, user tools) are kept as extras, named.
 */
export function tau2Tasks(
  source: string,
  file: string,
): { tasks: ImportedTask[]; notes: ImportNote[] } {
  const notes: ImportNote[] = [];
  let data: JsonValue;
  try {
    data = JSON.parse(source) as JsonValue;
  } catch (error) {
    notes.push({
      item: file,
      message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
      place: { file },
    });
    return { tasks: [], notes };
  }
  if (!Array.isArray(data)) {
    notes.push({ item: file, message: 'Expected a list of tasks.', place: { file } });
    return { tasks: [], notes };
  }
  const tasks: ImportedTask[] = [];
  (data as readonly JsonValue[]).forEach((raw, index) => {
    if (!isObj(raw)) {
      notes.push({
        item: `task #${index + 1}`,
        message: 'Not an object; left out.',
        place: { file },
      });
      return;
    }
    tasks.push(taskOf(raw, index, notes, file));
  });
  return { tasks, notes };
}

function taskOf(raw: Obj, index: number, notes: ImportNote[], file: string): ImportedTask {
  const id =
    typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : String(index);
  const scenario = isObj(raw.user_scenario) ? raw.user_scenario : {};
  const instructions = scenario.instructions;
  const parts = isObj(instructions) ? instructions : {};
  const goal = text(parts.reason_for_call) ?? text(instructions) ?? '';
  if (goal === '')
    notes.push({
      item: `task ${id}`,
      message: 'Has no reason for calling; its goal is empty.',
      place: { file },
    });
  const criteria = isObj(raw.evaluation_criteria) ? raw.evaluation_criteria : {};
  const actions: ImportedAction[] = [];
  for (const a of Array.isArray(criteria.actions)
    ? (criteria.actions as readonly JsonValue[])
    : []) {
    if (!isObj(a) || typeof a.name !== 'string') {
      notes.push({
        item: `task ${id}`,
        message: 'An expected action without a name was left out.',
        place: { file },
      });
      continue;
    }
    const compare = Array.isArray(a.compare_args)
      ? (a.compare_args as readonly JsonValue[]).filter((c): c is string => typeof c === 'string')
      : undefined;
    actions.push({
      name: a.name,
      arguments: isObj(a.arguments) ? a.arguments : {},
      ...(compare !== undefined ? { compareArgs: compare } : {}),
      ...(a.requestor === 'user' && { requestor: 'user' as const }),
    });
  }
  const extras: Array<{ what: string; value: JsonValue }> = [];
  const keep = (what: string, value: JsonValue | undefined) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value) && value.length === 0) return;
    if (isObj(value) && Object.values(value).every((v) => v === null)) return;
    extras.push({ what, value });
  };
  const dual = dualControlOfTask(raw);
  keep('initial_state', dual.rest);
  keep('an environment call without a func_name', dual.nameless);
  for (const [key, value] of Object.entries(criteria))
    if (!KNOWN_CRITERIA.has(key)) keep(key, value);
  for (const [key, value] of Object.entries(scenario))
    if (key !== 'persona' && key !== 'instructions') keep(`user_scenario.${key}`, value);
  const taskInstructions = text(parts.task_instructions);
  const persona = text(scenario.persona);
  return {
    id,
    ...(persona !== undefined ? { persona } : {}),
    goal,
    ...(taskInstructions !== undefined ? { instructions: taskInstructions } : {}),
    knows: [text(parts.known_info)].filter((s): s is string => s !== undefined),
    unknown: [text(parts.unknown_info)].filter((s): s is string => s !== undefined),
    actions,
    communicate: texts(criteria.communicate_info),
    nlAssertions: texts(criteria.nl_assertions),
    ...(dual.initialization.length > 0 && { initialization: dual.initialization }),
    ...(dual.messageHistory.length > 0 && { messageHistory: dual.messageHistory }),
    ...(dual.envAssertions.length > 0 && { envAssertions: dual.envAssertions }),
    ...(dual.initialData && { initialData: dual.initialData }),
    ...(Array.isArray(criteria.reward_basis) && { rewardBasis: texts(criteria.reward_basis) }),
    extras,
  };
}
