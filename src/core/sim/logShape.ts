import { MODEL_ROLES } from '../models/chat.ts';
import { GRADED_EXPECTATIONS } from '../format/schemas.ts';
import type { CallFailure, SimEventType } from './events.ts';
import { ENDING_LABELS } from './events.ts';

/*
 * The shape of every event of the current log format, as checks that say in words what is
 * wrong. `readLog` (logFormat.ts) holds each event of a log to these after migrating it.
 */

/** Says what is wrong with a value (`where` names it), or nothing when it fits. */
type Shape = (value: unknown, where: string) => string | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const text: Shape = (v, where) => (typeof v === 'string' ? undefined : `"${where}" must be text`);
const number: Shape = (v, where) =>
  typeof v === 'number' && Number.isFinite(v) ? undefined : `"${where}" must be a number`;
const count: Shape = (v, where) =>
  Number.isInteger(v) && (v as number) >= 0 ? undefined : `"${where}" must be a whole number`;
const flag: Shape = (v, where) =>
  typeof v === 'boolean' ? undefined : `"${where}" must be true or false`;
const anything: Shape = () => undefined;

function oneOf(...values: readonly unknown[]): Shape {
  return (v, where) =>
    values.includes(v)
      ? undefined
      : `"${where}" must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
}

function nullable(shape: Shape): Shape {
  return (v, where) => (v === null ? undefined : shape(v, where));
}

function list(item: Shape): Shape {
  return (v, where) => {
    if (!Array.isArray(v)) return `"${where}" must be a list`;
    for (const [i, x] of v.entries()) {
      const wrong = item(x, `${where}[${i}]`);
      if (wrong !== undefined) return wrong;
    }
    return undefined;
  };
}

function map(value: Shape): Shape {
  return (v, where) => {
    if (!isRecord(v)) return `"${where}" must be a mapping`;
    for (const [key, x] of Object.entries(v)) {
      const wrong = value(x, `${where}.${key}`);
      if (wrong !== undefined) return wrong;
    }
    return undefined;
  };
}

/** Fields and their shapes; a name ending in `?` may be left out. */
type Fields = Readonly<Record<string, Shape>>;

function object(fields: Fields): Shape {
  return (v, where) => {
    if (!isRecord(v)) return `"${where}" must be a mapping`;
    for (const [name, shape] of Object.entries(fields)) {
      const optional = name.endsWith('?');
      const key = optional ? name.slice(0, -1) : name;
      if (!Object.hasOwn(v, key) || v[key] === undefined) {
        if (optional) continue;
        return `${where === '' ? 'it' : `"${where}"`} lacks "${key}"`;
      }
      const wrong = shape(v[key], where === '' ? key : `${where}.${key}`);
      if (wrong !== undefined) return wrong;
    }
    return undefined;
  };
}

const rows = map(list(map(anything)));
const scenario = object({
  id: text,
  policies: list(text),
  'level?': number,
  persona: text,
  goal: text,
  knows: list(text),
  unknown: list(text),
  rows,
  expected: object({
    database: list(text),
    requiredActions: list(text),
    forbiddenActions: list(text),
    mustSay: list(text),
    mustNotSay: list(text),
    'attributions?': map(text),
    'actionArgs?': map(object({ args: map(anything), 'compare?': list(text) })),
    'assertions?': list(object({ text, 'policy?': text })),
    'userAssertions?': list(text),
    'requestors?': map(oneOf('user')),
    'endState?': map(map(anything)),
    'gradedBy?': list(oneOf(...GRADED_EXPECTATIONS)),
    'notChecked?': list(text),
  }),
  'initialization?': list(object({ tool: text, args: map(anything) })),
  'messageHistory?': list(object({ role: oneOf('user', 'assistant'), content: text })),
  'tags?': list(text),
  'tactic?': text,
  'twinOf?': text,
});
const finding = object({
  id: text,
  'policy?': text,
  passed: flag,
  'turn?': count,
  detail: text,
  'fault?': oneOf('scenario'),
  'unclear?': oneOf(true),
  'ungraded?': oneOf(true),
  'attempt?': oneOf(true),
  'noted?': oneOf(true),
});
const change = object({
  table: text,
  key: text,
  kind: oneOf('insert', 'update', 'delete'),
  'before?': map(anything),
  'after?': map(anything),
});
const ENDINGS = Object.keys(ENDING_LABELS);
/** Every way a call can fail, typed so that a new kind cannot be left out of the check. */
const FAILURES = Object.keys({
  'rate-limit': true,
  server: true,
  timeout: true,
  network: true,
  cors: true,
  auth: true,
  'not-found': true,
  'context-length': true,
  'bad-request': true,
  aborted: true,
  'malformed-output': true,
  'schema-violation': true,
  'too-long': true,
  unexpected: true,
} satisfies Record<CallFailure, true>);
const dialogue = { at: number, dialogue: text };

/** A mark's target: a finding by id, the judge's opinion of a policy or of an assertion. */
const markTarget: Shape = (v, where) => {
  if (!isRecord(v)) return `"${where}" must be a mapping`;
  if (v.kind === 'finding') return object({ kind: anything, id: text })(v, where);
  if (v.kind === 'judge') return object({ kind: anything, policy: text })(v, where);
  if (v.kind === 'assertion') return object({ kind: anything, id: text })(v, where);
  return `"${where}.kind" must be one of "finding", "judge", "assertion"`;
};

/** Where a derived run came from: a continued dialogue, or a re-check of a whole run. */
const runSource: Shape = (v, where) => {
  if (!isRecord(v)) return `"${where}" must be a mapping`;
  if (v.kind === 'continued')
    return object({ kind: anything, run: text, dialogue: text, turn: count })(v, where);
  if (v.kind === 'rechecked') return object({ kind: anything, run: text })(v, where);
  return `"${where}.kind" must be one of "continued", "rechecked"`;
};

/** The fields of each event type of the current format (`at` is on every one). */
export const EVENT_FIELDS: Readonly<Record<SimEventType, Fields>> = {
  'run-started': {
    at: number,
    version: count,
    seed: number,
    projectHash: text,
    'files?': map(text),
    models: object(Object.fromEntries(MODEL_ROLES.map((role) => [`${role}?`, text]))),
    trials: count,
    'externalAgent?': oneOf(true),
    prompts: list(object({ id: text, version: count, source: oneOf('built-in', 'project') })),
    'now?': text,
    'database?': object({
      tables: list(object({ name: text, key: text, rows: list(map(anything)) })),
    }),
    'source?': runSource,
    'shard?': object({ index: count, count }),
    'judgeDecides?': list(text),
    'judgeRepeats?': count,
  },
  scenario: {
    at: number,
    scenario,
    source: oneOf('hand-written', 'generated'),
    'baseline?': object({ passes: flag, detail: text }),
  },
  'scenario-failed': {
    at: number,
    sample: object({ policies: list(text), level: number }),
    error: text,
    'attempts?': count,
  },
  'dialogue-started': { ...dialogue, scenario: text, trial: count },
  message: { ...dialogue, turn: count, speaker: oneOf('user', 'agent'), text },
  'tool-call': {
    ...dialogue,
    turn: count,
    call: text,
    tool: text,
    args: map(anything),
    'by?': oneOf('user', 'setup'),
  },
  guard: {
    ...dialogue,
    call: text,
    allowed: flag,
    'rule?': text,
    'policy?': text,
    'fallback?': oneOf('message', 'end', 'ask_user'),
    reason: text,
    'noted?': oneOf(true),
  },
  'tool-result': {
    ...dialogue,
    call: text,
    ok: flag,
    result: text,
    changes: list(change),
    'refusedBy?': object({ precondition: count, policy: text, 'noted?': oneOf(true) }),
    'checked?': list(text),
  },
  'dialogue-ended': {
    ...dialogue,
    reason: oneOf(...ENDINGS),
    detail: text,
    'role?': oneOf(...MODEL_ROLES),
  },
  checks: { ...dialogue, findings: list(finding) },
  suspect: { ...dialogue, reasons: list(text) },
  review: { ...dialogue, decision: oneOf('counts', 'discarded'), 'note?': text },
  mark: { ...dialogue, target: markTarget, correct: nullable(flag) },
  note: { ...dialogue, turn: count, text },
  judge: {
    ...dialogue,
    policy: text,
    violated: flag,
    'turn?': count,
    reason: text,
    evidence: text,
  },
  'judge-failed': { ...dialogue, policy: text, error: text },
  assertion: {
    ...dialogue,
    id: text,
    text,
    'policy?': text,
    met: flag,
    'turn?': count,
    reason: text,
    evidence: text,
  },
  usage: {
    at: number,
    'dialogue?': text,
    role: oneOf(...MODEL_ROLES),
    model: text,
    inputTokens: count,
    outputTokens: count,
    cost: nullable(number),
    ms: number,
    'failed?': oneOf(...FAILURES),
    'estimated?': text,
  },
  'run-resumed': { at: number, rerun: list(text) },
  'run-ended': { at: number, reason: oneOf('done', 'cancelled', 'budget') },
};

/**
 * What is wrong with one event of the current format, in words (`"turn" must be a whole
 * number`, `it lacks "dialogue"`), or undefined when it fits.
 */
export function eventProblem(event: unknown): string | undefined {
  if (!isRecord(event)) return 'it is not a mapping';
  const type = event.type;
  if (typeof type !== 'string' || !Object.hasOwn(EVENT_FIELDS, type))
    return `its type ${JSON.stringify(type)} is not one PolicyLab writes`;
  return object(EVENT_FIELDS[type as SimEventType])(event, '');
}
