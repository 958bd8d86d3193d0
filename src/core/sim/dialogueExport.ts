import type { ModelRole } from '../models/chat.ts';
import type { SimEvent, SimScenario } from './events.ts';
import { ENDING_LABELS, LOG_VERSION } from './events.ts';
import { capital, conversationMarkdown } from './exportConversation.ts';
import { inlineText, quoteBlock } from './markdownText.ts';
import { personaOf } from './prompts.ts';
import type { Replay } from './replay.ts';
import { replayOf } from './replay.ts';
import { reportOf } from './report.ts';
import type { DialogueReport, PolicyFacts, Verdict } from './reportTypes.ts';
import { readerTurns } from './transcript.ts';

/*
 * One dialogue of a log as a document to put in a ticket (Markdown) or to hand on (JSON).
 * Everything a model or a file wrote goes through markdownText.ts, so it reads as written and
 * cannot change the document's structure.
 */

type RunStarted = Extract<SimEvent, { type: 'run-started' }>;

/** The `format` of a dialogue exported as JSON. */
export const DIALOGUE_FORMAT = 'policylab-dialogue';

/** One dialogue as JSON: the run's start (without its seed rows), its scenario, its events. */
export interface DialogueJson {
  readonly format: typeof DIALOGUE_FORMAT;
  /** The log format its events are in (`LOG_VERSION`). */
  readonly version: number;
  /** The run's `run-started` event without its database; null when the log has none. */
  readonly run: Omit<RunStarted, 'database'> | null;
  /** The scenario the dialogue played, as the log announced it; null when it did not. */
  readonly scenario: SimScenario | null;
  /** Every event of this dialogue, in log order (a dialogue started again keeps both starts). */
  readonly events: readonly SimEvent[];
}

const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  pass: 'passed',
  fail: 'failed',
  error: 'error (an outside reason, not the agent’s failure)',
  suspect: 'suspect (the simulated user probably erred; waiting for a person’s review)',
  running: 'still running',
};

const ROLE_WORDS: Readonly<Record<ModelRole, string>> = {
  agent: 'the agent’s',
  user: 'the simulated user’s',
  judge: 'the judge’s',
  generator: 'the generator’s',
};

const list = (items: readonly string[], none: string): string =>
  items.length === 0 ? none : items.map(inlineText).join(', ');

/** The run's first start event, and the latest announcement of a scenario. */
function runAndScenario(events: readonly SimEvent[], id: string | undefined) {
  let run: RunStarted | undefined;
  let scenario: Extract<SimEvent, { type: 'scenario' }> | undefined;
  for (const e of events) {
    if (e.type === 'run-started') run ??= e;
    else if (e.type === 'scenario' && e.scenario.id === id) scenario = e;
  }
  return { run, scenario };
}

/**
 * One dialogue of a log as JSON: `{ format, version, run, scenario, events }`, where `run` is
 * the run's start without the project's seed rows. Plain data, for `JSON.stringify`.
 */
export function dialogueJson(events: readonly SimEvent[], dialogue: string): DialogueJson {
  const own = events.filter((e) => 'dialogue' in e && e.dialogue === dialogue);
  const started = own.findLast((e) => e.type === 'dialogue-started');
  const { run, scenario } = runAndScenario(
    events,
    started?.type === 'dialogue-started' ? started.scenario : undefined,
  );
  let runWithoutRows: DialogueJson['run'] = null;
  if (run) {
    const { database: _rows, ...rest } = run;
    runWithoutRows = rest;
  }
  return {
    format: DIALOGUE_FORMAT,
    version: LOG_VERSION,
    run: runWithoutRows,
    scenario: scenario?.scenario ?? null,
    events: own,
  };
}

/**
 * One dialogue of a log as Markdown for a ticket: its title, the scenario card, the run (models,
 * seed, the time it saw), how it ended, every message with its tool calls (arguments, the guard's
 * decision, the result, the rows changed), the deterministic findings (failed first), the judge
 * model's opinions apart and labelled as such, and people's marks and notes. `facts` names each
 * policy's category.
 */
export function dialogueMarkdown(
  events: readonly SimEvent[],
  dialogue: string,
  facts: PolicyFacts = new Map(),
): string {
  const own = events.filter((e) => !('dialogue' in e) || e.dialogue === dialogue);
  const report = reportOf(own, facts).dialogues.find((d) => d.dialogue === dialogue);
  if (!report) return `# Dialogue ${inlineText(dialogue)}\n\nThis log has no such dialogue.\n`;
  const replay = replayOf(events, dialogue);
  const { run } = runAndScenario(events, undefined);
  const turnName = readerTurns(replay.transcript.messages);
  const blocks = [
    `# ${inlineText(report.scenario)}, trial ${report.trial + 1}: ${VERDICT_WORDS[report.verdict]}`,
    `Dialogue ${inlineText(dialogue)}.`,
    ...scenarioCard(replay, facts),
    ...runFacts(replay, report, run, turnName),
    ...conversationMarkdown(replay.transcript, turnName),
    ...findings(replay, report),
    ...opinions(replay, turnName),
    ...assertionOpinionsMarkdown(replay, turnName),
    ...people(replay, turnName),
  ];
  return `${blocks.join('\n\n')}\n`;
}

/** A list item's text; a blank item would underline the line before it into a heading. */
function listItem(text: string): string {
  const shown = inlineText(text);
  return shown === '' ? '*(empty)*' : shown;
}

function scenarioCard(replay: Replay, facts: PolicyFacts): string[] {
  const s = replay.scenario;
  if (!s) return ['## Scenario', 'The log does not announce this dialogue’s scenario.'];
  const policy = (p: string) => {
    const category = facts.get(p)?.category;
    return category === undefined ? inlineText(p) : `${inlineText(p)} (${inlineText(category)})`;
  };
  const e = s.expected;
  const expected = [
    ['The database holds', e.database],
    ['Required actions', e.requiredActions],
    ['Forbidden actions', e.forbiddenActions],
    ['The agent must say', e.mustSay],
    ['The agent must not say', e.mustNotSay],
    ['The judge is asked (its opinion only)', (e.assertions ?? []).map((a) => a.text)],
  ] as const;
  const asked = expected.filter(([, items]) => items.length > 0);
  const source = [replay.scenarioSource, s.level === undefined ? undefined : `level ${s.level}`];
  return [
    '## Scenario',
    [
      `- **Scenario:** ${inlineText(s.id)} (${source.filter((x) => x !== undefined).join(', ')})`,
      `- **Persona:** ${inlineText(personaOf(s))}${s.persona.trim() === '' ? ' (the default: the scenario gives none)' : ''}`,
      `- **Goal:** ${inlineText(s.goal)}`,
      `- **The user knows:** ${list(s.knows, 'nothing in particular')}`,
      `- **The user does not know:** ${list(s.unknown, 'nothing in particular')}`,
      `- **Policies under test:** ${s.policies.length === 0 ? 'none' : s.policies.map(policy).join(', ')}`,
      `- **Expected outcome:**${asked.length === 0 ? ' nothing in particular' : ''}`,
      ...asked.flatMap(([what, items]) => [
        `  - ${what}:`,
        ...items.map((item) => `    - ${listItem(item)}`),
      ]),
    ].join('\n'),
  ];
}

function runFacts(
  replay: Replay,
  report: DialogueReport,
  run: RunStarted | undefined,
  turnName: (turn: number) => string,
): string[] {
  const models = Object.entries(replay.models).map(
    ([role, model]) => `${inlineText(role)} ${inlineText(model)}`,
  );
  const { ending: reason, endingRole: role } = report;
  const ending =
    reason === null
      ? ['It has not ended (still running, or the log was cut short).']
      : [
          ENDING_LABELS[reason].sentence,
          role && `(${capital(ROLE_WORDS[role])} model call.)`,
          inlineText(report.endingDetail),
        ];
  const source = replay.source;
  const lines = [
    `- **Models:** ${models.length === 0 ? 'not recorded' : models.join(', ')}`,
    `- **Seed:** ${replay.seed ?? 'not recorded'}`,
    replay.now !== undefined && `- **The time the run saw:** ${inlineText(replay.now)}`,
    run && `- **Project version (content hash):** ${inlineText(run.projectHash)}`,
    source?.kind === 'continued' &&
      `- **Continued from:** dialogue ${inlineText(source.dialogue)} of run ${inlineText(source.run)}, re-run from ${turnName(source.turn)}`,
    source?.kind === 'rechecked' &&
      `- **Re-checked from:** run ${inlineText(source.run)}, judged again against the project's checks and expectations as they were then`,
    `- **How it ended:** ${ending.filter(Boolean).join(' ')}`,
    report.suspect.length > 0 &&
      `- **The simulated user probably erred:** ${list(report.suspect, '')}; a person’s review: ${report.review ?? 'none yet'}`,
  ];
  return ['## Run', lines.filter((l) => typeof l === 'string' && l !== '').join('\n')];
}

function findings(replay: Replay, report: DialogueReport): string[] {
  const policyOf = (p: string | undefined) =>
    p === undefined ? 'no policy (unattributed)' : `policy ${inlineText(p)}`;
  const at = (label: string | undefined) => (label === undefined ? '' : `, at ${label}`);
  const source = {
    check: 'Check',
    guard: 'Guard rule',
    precondition: 'Tool precondition',
    ending: 'Ending',
    assertion: 'Assertion (the judge’s opinion)',
    judge: 'Decided by a model (the judge)',
  } as const;
  const failed = report.breaches.map(
    (b) =>
      `- **${b.attempt ? 'Failed (tried, refused)' : 'Failed'}:** ${source[b.source]} ${inlineText(b.id)}, ${policyOf(b.policy)}${at(b.turnLabel)}. ${inlineText(b.detail)}`,
  );
  const noted = report.noted.map(
    (b) =>
      `- **Tried, refused (noted, not failing):** ${source[b.source]} ${inlineText(b.id)}, ${policyOf(b.policy)}${at(b.turnLabel)}. ${inlineText(b.detail)}`,
  );
  const unclear = report.unclear.map(
    (u) => `- **Unclear:** ${inlineText(u.id)}, ${policyOf(u.policy)}. ${inlineText(u.detail)}`,
  );
  const ungraded = report.ungraded.map(
    (u) => `- **Not graded:** ${inlineText(u.id)}, ${policyOf(u.policy)}. ${inlineText(u.detail)}`,
  );
  const faults = report.scenarioFaults.map(
    (detail) => `- **Cannot be judged (the scenario’s fault):** ${inlineText(detail)}`,
  );
  const passed = replay.findings
    .map((f) => f.item)
    .filter((f) => f.passed && !f.unclear && f.fault === undefined)
    .map((f) => {
      // A check that could not judge (lint says why) examined nothing: it did not hold either.
      const skipped = f.detail.startsWith('Skipped:');
      const detail = skipped ? f.detail.slice('Skipped:'.length) : f.detail;
      const what = skipped ? 'Skipped' : 'Held';
      return `- **${what}:** ${inlineText(f.id)}, ${policyOf(f.policy)}. ${inlineText(detail)}`;
    });
  const examined = new Set([
    ...report.examined,
    ...[...report.breaches, ...report.noted].map((b) => b.policy),
  ]);
  const unexamined = (replay.scenario?.policies ?? []).filter((p) => !examined.has(p));
  const lines = [...failed, ...noted, ...unclear, ...faults, ...ungraded, ...passed];
  const blocks = ['## Deterministic findings'];
  if (lines.length > 0) blocks.push(lines.join('\n'));
  else blocks.push(report.checked ? 'No finding.' : 'The checks have not run.');
  if (unexamined.length > 0 && report.ending !== null)
    blocks.push(`Not checked here (in play, nothing examined it): ${list(unexamined, '')}.`);
  return blocks;
}

function opinions(replay: Replay, turnName: (turn: number) => string): string[] {
  if (replay.opinions.length === 0) return [];
  const blocks = [
    '## The judge model’s opinion',
    '*A model’s opinion, not a finding: it is kept apart and never changes the verdict.*',
  ];
  for (const { item } of replay.opinions) {
    const where = item.turn === undefined ? '' : `, at ${turnName(item.turn)}`;
    blocks.push(
      `**${inlineText(item.policy)}: ${item.violated ? 'violated' : 'kept'}**${where}. ${inlineText(item.reason)}`,
    );
    if (item.evidence !== '') blocks.push('Evidence it quoted:', quoteBlock(item.evidence));
  }
  return blocks;
}

/** The scenario's natural-language assertions: the judge's opinion of each, or not judged. */
function assertionOpinionsMarkdown(replay: Replay, turnName: (turn: number) => string): string[] {
  if (replay.assertions.length === 0) return [];
  const words = { met: 'holds', 'not-met': 'does not hold', 'not-judged': 'not judged' } as const;
  const blocks = [
    '## The judge model’s opinion of the assertions',
    '*A model’s opinion, not a finding: it never changes the verdict. One not judged is not held either.*',
  ];
  for (const { item } of replay.assertions) {
    const where = item.turn === undefined ? '' : `, at ${turnName(item.turn)}`;
    blocks.push(
      `**“${inlineText(item.text)}”: ${words[item.opinion]}**${where}. ${inlineText(item.reason)}`,
    );
    if (item.evidence !== '') blocks.push('Evidence it quoted:', quoteBlock(item.evidence));
  }
  return blocks;
}

function people(replay: Replay, turnName: (turn: number) => string): string[] {
  const word = (correct: boolean) => (correct ? 'right' : 'wrong');
  const marks = [
    ...[...replay.marks.findings].map(
      ([id, correct]) => `- Finding ${inlineText(id)}: a person marked it ${word(correct)}.`,
    ),
    ...[...replay.marks.judge].map(
      ([policy, correct]) =>
        `- The judge’s opinion on ${inlineText(policy)}: a person marked it ${word(correct)}.`,
    ),
    ...[...replay.marks.assertions].map(
      ([id, correct]) =>
        `- The judge’s opinion of assertion ${inlineText(id)}: a person marked it ${word(correct)}.`,
    ),
  ];
  const notes = [...replay.notes].sort(([a], [b]) => a - b);
  const blocks: string[] = [];
  if (marks.length > 0) blocks.push('## People’s marks', marks.join('\n'));
  if (notes.length > 0) blocks.push('## People’s notes');
  for (const [turn, text] of notes) blocks.push(`### On ${turnName(turn)}`, quoteBlock(text));
  return blocks;
}
