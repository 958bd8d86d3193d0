import type { ModelRole } from '../models/chat.ts';
import type { Row } from '../format/model.ts';
import type { CallFailure, Finding, RunSource, SimEvent, SimScenario } from './events.ts';
import { ERROR_ENDINGS, findingState, runStartOf } from './events.ts';
import type { AssertionOpinion } from './assertionOpinions.ts';
import { assertionOpinions } from './assertionOpinions.ts';
import type { Transcript, TranscriptCall, TranscriptMessage } from './transcript.ts';
import { transcriptOf } from './transcript.ts';
import { keyOf } from './replayFrame.ts';

/*
 * Replay: one dialogue of a log as a sequence of steps a person walks through (each message,
 * each tool call with its guard decision and result, each failed model call, the ending), and
 * the frame at any step: the database as it stood, the verdicts reached so far, and the policies
 * the step concerns. A fold over the log alone; it never calls a model.
 */

/** What one step of a replay shows. */
export type ReplayStepKind = 'message' | 'call' | 'fault' | 'ending';

/** A model call of the dialogue that failed (it may have been retried or repaired after). */
export interface ReplayFault {
  readonly role: ModelRole;
  readonly model: string;
  readonly failure: CallFailure;
}

/** One step of a dialogue's replay. */
export interface ReplayStep {
  readonly index: number;
  readonly kind: ReplayStepKind;
  /** The raw message index this step belongs to (a call: its agent turn). */
  readonly turn: number;
  /** The message, for a message step. */
  readonly message?: TranscriptMessage;
  /** The tool call, for a call step. */
  readonly call?: TranscriptCall;
  readonly fault?: ReplayFault;
  /** Policies this step concerns: a deciding guard rule's, a finding's or opinion's pinned here, a tool's. */
  readonly policies: readonly string[];
  /** Policies broken here: a refusing guard rule's, a failed finding's pinned here. */
  readonly breached: readonly string[];
  /** A deterministic finding or a judge's opinion is pinned to this step. */
  readonly pinned: boolean;
}

/** A judge's opinion of one policy in the dialogue: a model's opinion, never a verdict. */
export interface ReplayOpinion {
  readonly policy: string;
  readonly violated: boolean;
  readonly turn: number | undefined;
  readonly reason: string;
  readonly evidence: string;
}

/** A finding or an opinion pinned to the step it concerns. */
export interface Pinned<T> {
  readonly step: number;
  readonly item: T;
}

/**
 * A person's latest mark on a finding (by id), on the judge's opinion of a policy (by policy) and
 * on its opinion of an assertion (by the assertion's id).
 */
export interface ReplayMarks {
  readonly findings: ReadonlyMap<string, boolean>;
  readonly judge: ReadonlyMap<string, boolean>;
  readonly assertions: ReadonlyMap<string, boolean>;
}

/** One dialogue ready to replay. */
export interface Replay {
  readonly dialogue: string;
  readonly transcript: Transcript;
  readonly scenario: SimScenario | undefined;
  readonly scenarioSource: 'hand-written' | 'generated' | undefined;
  readonly trial: number | undefined;
  readonly models: Readonly<Partial<Record<ModelRole, string>>>;
  readonly seed: number | undefined;
  /** The time the run's conditions saw, when the log recorded it. */
  readonly now: string | undefined;
  /** The run this one was derived from, when it was. */
  readonly source: RunSource | undefined;
  readonly ending:
    { readonly reason: string; readonly detail: string; readonly role?: ModelRole } | undefined;
  readonly steps: readonly ReplayStep[];
  readonly findings: readonly Pinned<Finding>[];
  readonly opinions: readonly Pinned<ReplayOpinion>[];
  /**
   * The scenario's natural-language assertions, each with the judge's opinion pinned to the turn
   * it named (else the ending), or not judged; opinions, never verdicts.
   */
  readonly assertions: readonly Pinned<AssertionOpinion>[];
  readonly marks: ReplayMarks;
  /** People's notes by raw turn (the latest per turn; removed ones left out). */
  readonly notes: ReadonlyMap<number, string>;
  /** The database the dialogue began from; null when the log did not record the seed rows. */
  readonly startDb: StartTables | null;
}

/** The starting database: per table, its key and rows in order. */
export type StartTables = readonly {
  readonly name: string;
  readonly key: string;
  readonly rows: readonly Row[];
}[];

/** Which tools each policy names, for lighting the policies a tool call concerns. */
export type ToolPolicies = ReadonlyMap<string, readonly string[]>;

/** The events of one dialogue, from its latest start (a resumed run starts a cut-off one again). */
function dialogueEvents(events: readonly SimEvent[], dialogue: string): SimEvent[] {
  const own: SimEvent[] = [];
  for (const event of events) {
    if (!('dialogue' in event) || event.dialogue !== dialogue) continue;
    if (event.type === 'dialogue-started') own.length = 0;
    own.push(event);
  }
  return own;
}

/**
 * Folds one dialogue of a log into its replay. `toolPolicies` (tool → the policies that name
 * it) lets a tool call light the policies under test that it concerns; without it only rules,
 * findings and opinions do.
 */
export function replayOf(
  events: readonly SimEvent[],
  dialogue: string,
  toolPolicies: ToolPolicies = new Map(),
): Replay {
  const started = runStartOf(events);
  const own = dialogueEvents(events, dialogue);
  const transcript = transcriptOf(own, dialogue);
  const begun = own.find((e) => e.type === 'dialogue-started');
  const scenarioId = begun?.type === 'dialogue-started' ? begun.scenario : undefined;
  let scenarioEvent: Extract<SimEvent, { type: 'scenario' }> | undefined;
  for (const e of events)
    if (e.type === 'scenario' && e.scenario.id === scenarioId) scenarioEvent = e;

  const underTest = new Set(scenarioEvent?.scenario.policies ?? []);
  const messages = new Map(transcript.messages.map((m) => [m.turn, m]));
  // The transcript holds the calls in log order; ids cannot find them, as models reuse an id
  // from turn to turn.
  let callsSeen = 0;
  const steps: MutableStep[] = [];
  const messageStep = new Map<number, MutableStep>();
  let ending: Replay['ending'];
  let findings: readonly Finding[] = [];
  const judged: ReplayOpinion[] = [];
  const asserted: Extract<SimEvent, { type: 'assertion' }>[] = [];
  const findingMarks = new Map<string, boolean>();
  const judgeMarks = new Map<string, boolean>();
  const assertionMarks = new Map<string, boolean>();
  const notes = new Map<number, string>();
  let lastTurn = 0;

  for (const e of own) {
    switch (e.type) {
      case 'message': {
        const message = messages.get(e.turn);
        if (!message || messageStep.has(e.turn)) break;
        const step = newStep(steps, 'message', e.turn, { message });
        messageStep.set(e.turn, step);
        lastTurn = e.turn;
        break;
      }
      case 'tool-call': {
        const call = transcript.calls[callsSeen++];
        if (!call) break;
        const step = newStep(steps, 'call', e.turn, { call });
        // A tool lights the policies under test that name it (not every policy that does).
        for (const p of toolPolicies.get(call.tool) ?? []) if (underTest.has(p)) concern(step, p);
        if (call.guard?.policy !== undefined) {
          concern(step, call.guard.policy);
          if (!call.guard.allowed && !call.guard.noted) breach(step, call.guard.policy);
        }
        // A precondition that encodes a policy refused it: an attempt at what the policy forbids.
        const refusal = call.result?.refusedBy;
        if (refusal) {
          concern(step, refusal.policy);
          if (!refusal.noted) breach(step, refusal.policy);
        }
        lastTurn = e.turn;
        break;
      }
      case 'usage':
        if (e.failed !== undefined)
          newStep(steps, 'fault', lastTurn, {
            fault: { role: e.role, model: e.model, failure: e.failed },
          });
        break;
      case 'dialogue-ended':
        ending = { reason: e.reason, detail: e.detail, ...(e.role && { role: e.role }) };
        newStep(steps, 'ending', lastTurn, {});
        break;
      case 'checks':
        findings = e.findings;
        break;
      case 'judge':
        judged.push({
          policy: e.policy,
          violated: e.violated,
          turn: e.turn,
          reason: e.reason,
          evidence: e.evidence,
        });
        break;
      case 'assertion':
        asserted.push(e);
        break;
      case 'mark': {
        const marks =
          e.target.kind === 'finding'
            ? findingMarks
            : e.target.kind === 'judge'
              ? judgeMarks
              : assertionMarks;
        const key = e.target.kind === 'judge' ? e.target.policy : e.target.id;
        if (e.correct === null) marks.delete(key);
        else marks.set(key, e.correct);
        break;
      }
      case 'note':
        if (e.text === '') notes.delete(e.turn);
        else notes.set(e.turn, e.text);
        break;
      default:
        break;
    }
  }

  // Findings and opinions with a turn are pinned to that message; the rest to the ending (or the
  // last step, for a dialogue whose ending never came).
  // (A judge's failed call after the ending is a step of its own; pins still go to the ending.)
  const fallback = steps.find((step) => step.kind === 'ending') ?? steps.at(-1);
  const pinStep = (turn: number | undefined) =>
    (turn === undefined ? undefined : messageStep.get(turn)) ?? fallback;
  const pinnedFindings: Pinned<Finding>[] = [];
  for (const finding of findings) {
    const step = pinStep(finding.turn);
    if (!step) continue;
    step.pinned = true;
    if (finding.policy !== undefined) {
      concern(step, finding.policy);
      if (findingState(finding) === 'broken') breach(step, finding.policy);
    }
    pinnedFindings.push({ step: step.index, item: finding });
  }
  const opinions: Pinned<ReplayOpinion>[] = [];
  for (const opinion of judged) {
    const step = pinStep(opinion.turn);
    if (!step) continue;
    step.pinned = true;
    concern(step, opinion.policy);
    opinions.push({ step: step.index, item: opinion });
  }

  const assertions: Pinned<AssertionOpinion>[] = [];
  const opinionsOfAssertions = assertionOpinions(scenarioEvent?.scenario, asserted, {
    judge: started?.models.judge !== undefined,
    ended: ending !== undefined,
    error: transcript.ending !== undefined && ERROR_ENDINGS.has(transcript.ending.reason),
  });
  for (const opinion of opinionsOfAssertions) {
    const step = pinStep(opinion.turn);
    if (!step) continue;
    step.pinned = true;
    if (opinion.policy !== undefined) concern(step, opinion.policy);
    assertions.push({ step: step.index, item: opinion });
  }

  return {
    dialogue,
    transcript,
    scenario: scenarioEvent?.scenario,
    scenarioSource: scenarioEvent?.source,
    trial: transcript.trial,
    models: started?.models ?? {},
    seed: started?.seed,
    now: started?.now,
    source: started?.source,
    ending,
    steps,
    findings: pinnedFindings,
    opinions,
    assertions,
    marks: { findings: findingMarks, judge: judgeMarks, assertions: assertionMarks },
    notes,
    startDb: started?.database
      ? startTables(started.database.tables, scenarioEvent?.scenario.rows)
      : null,
  };
}

interface MutableStep {
  index: number;
  kind: ReplayStepKind;
  turn: number;
  message?: TranscriptMessage;
  call?: TranscriptCall;
  fault?: ReplayFault;
  policies: string[];
  breached: string[];
  pinned: boolean;
}

function newStep(
  steps: MutableStep[],
  kind: ReplayStepKind,
  turn: number,
  parts: Pick<MutableStep, 'message' | 'call' | 'fault'>,
): MutableStep {
  const step: MutableStep = {
    index: steps.length,
    kind,
    turn,
    ...parts,
    policies: [],
    breached: [],
    pinned: false,
  };
  steps.push(step);
  return step;
}

function concern(step: MutableStep, policy: string) {
  if (!step.policies.includes(policy)) step.policies.push(policy);
}

function breach(step: MutableStep, policy: string) {
  if (!step.breached.includes(policy)) step.breached.push(policy);
}

/**
 * The database a dialogue began from: the run's seed rows, with the scenario's own rows replacing
 * seed rows of the same key or added after them (as the run seeded it).
 */
function startTables(
  seed: StartTables,
  scenarioRows: Readonly<Record<string, readonly Row[]>> | undefined,
): StartTables {
  return seed.map((table) => {
    const extra =
      scenarioRows && Object.hasOwn(scenarioRows, table.name)
        ? scenarioRows[table.name]
        : undefined;
    if (!extra || extra.length === 0) return table;
    const rows = [...table.rows];
    const at = new Map(rows.map((row, i) => [keyOf(row, table.key), i]));
    for (const row of extra) {
      const i = at.get(keyOf(row, table.key));
      if (i === undefined) {
        at.set(keyOf(row, table.key), rows.length);
        rows.push(row);
      } else rows[i] = row;
    }
    return { ...table, rows };
  });
}

/** The first step that concerns `policy`, or undefined when none does. */
export function firstStepFor(replay: Replay, policy: string): number | undefined {
  return replay.steps.find((s) => s.policies.includes(policy))?.index;
}

/** The step of a raw message turn (its message, or the first step of that turn). */
export function stepOfTurn(replay: Replay, turn: number): number | undefined {
  const steps = replay.steps;
  return (
    steps.find((s) => s.kind === 'message' && s.turn === turn)?.index ??
    steps.find((s) => s.turn >= turn)?.index
  );
}

/** The next step after `from` (or before it, going back) that passes `test`. */
export function nextStep(
  replay: Replay,
  from: number,
  direction: 1 | -1,
  test: (step: ReplayStep) => boolean,
): number | undefined {
  const steps = replay.steps;
  for (let i = from + direction; i >= 0 && i < steps.length; i += direction) {
    const step = steps[i];
    if (step && test(step)) return i;
  }
  return undefined;
}

/**
 * Where a quoted piece of evidence sits in a message: an exact match first, then ignoring case,
 * then ignoring how the whitespace runs. Null when the quote is not in the text (a judge may
 * paraphrase): the opinion is then shown without a highlight.
 */
export function quoteSpan(text: string, quote: string): { start: number; end: number } | null {
  const wanted = quote
    .trim()
    .replace(/^["“”'‘’]+|["“”'‘’]+$/g, '')
    .trim();
  if (wanted === '') return null;
  const exact = text.indexOf(wanted);
  if (exact >= 0) return { start: exact, end: exact + wanted.length };
  const lower = text.toLowerCase().indexOf(wanted.toLowerCase());
  if (lower >= 0 && text.length === text.toLowerCase().length)
    return { start: lower, end: lower + wanted.length };
  // Collapse whitespace in the text, keeping where each kept character came from.
  const kept: number[] = [];
  let squeezed = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) {
      if (squeezed.endsWith(' ') || squeezed === '') continue;
      squeezed += ' ';
    } else squeezed += ch.toLowerCase();
    kept.push(i);
  }
  const target = wanted.replace(/\s+/g, ' ').toLowerCase();
  const at = squeezed.indexOf(target);
  if (at < 0) return null;
  const start = kept[at] ?? 0;
  const end = (kept[at + target.length - 1] ?? start) + 1;
  return { start, end };
}
