import { readFileSync } from 'node:fs';
import type {
  ModelRole,
  PolicyFacts,
  Project,
  SimEvent,
  TerminationReason,
} from '../core/index.ts';
import {
  PROJECT_FILES,
  parseProject,
  planRun,
  projectFromFiles,
  projectHash,
  runSimulation,
} from '../core/index.ts';
import { PLAYED, airlineAgent, airlineJudge, airlineUser } from './airlineScripts.ts';
import { waitingRuntime } from './scriptedModels.ts';

/*
 * A recorded run of the airline example whose answers are known in advance: the log the Replay
 * pane's e2e tests open (e2e/fixtures/airline-run.json, written by `npm run fixtures`), and
 * AIRLINE_RUN, what it holds. airlineRun.test.ts re-records it and holds the report to both.
 */

/** Where the recorded log is saved, from the repository root. */
export const AIRLINE_RUN_PATH = 'e2e/fixtures/airline-run.json';

/** The airline example of public/examples, as files. */
export function airlineProject(): Project {
  const dir = new URL('../../public/examples/airline/', import.meta.url);
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(new URL(f.name, dir), 'utf8')]),
  );
  return projectFromFiles('SkyWay Airlines', files).project;
}

/** Milliseconds the run's clock moves on each reading. */
const CLOCK_STEP_MS = 250;

/**
 * Plans and runs 2 trials of the four scenarios of `PLAYED` with the scripted agent, customers
 * and judge (no network; a clock that moves 250 ms a reading; one dialogue at a time, which the
 * scripted agent needs to count its attempts; seed 1) and resolves with the log it wrote.
 */
export async function recordAirlineRun(): Promise<SimEvent[]> {
  const planned = planRun(airlineProject(), {
    seed: 1,
    trials: 2,
    concurrency: 1,
    maxTurns: 10,
    scenarios: Object.keys(PLAYED),
    agent: { engine: airlineAgent(), model: 'scripted-agent' },
    user: { engine: airlineUser(), model: 'scripted-user' },
    judge: { engine: airlineJudge, model: 'scripted-judge' },
    prices: {
      'scripted-agent': { inputPerMillion: 3, outputPerMillion: 15 },
      'scripted-user': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
      'scripted-judge': { inputPerMillion: 1, outputPerMillion: 5 },
    },
    now: '2026-05-15T19:00:00Z',
  });
  if (!planned.ok) throw new Error(planned.problem);
  const events: SimEvent[] = [];
  let ticks = 0;
  // Only the dialogues' time limits sleep long, and they never run out here.
  const { runtime } = waitingRuntime();
  await runSimulation(planned.model, planned.plan, {
    runtime,
    clock: () => CLOCK_STEP_MS * ticks++,
    emit: (event) => events.push(event),
  });
  return events;
}

/** The policies of the airline example, as the report needs them. */
export function airlineFacts(): PolicyFacts {
  const { model } = parseProject(airlineProject());
  return new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
}

/** A turn of a dialogue: the raw message index the log keeps, and how a reader counts it. */
export interface KnownTurn {
  readonly turn: number;
  readonly label: string;
}

/** What one dialogue of the recorded run is known to hold. */
export interface KnownDialogue {
  readonly verdict: 'pass' | 'fail' | 'error';
  readonly ending: TerminationReason;
  /** Whose model call ended it, for an ending one caused. */
  readonly endingRole?: ModelRole;
  readonly messages: number;
  readonly toolCalls: number;
  /** The first breach the report lists, for a failure. */
  readonly firstBreach?: KnownTurn & {
    readonly source: 'guard' | 'check';
    readonly id: string;
    readonly policy: string;
  };
  /** The call a guard rule refused. */
  readonly refused?: KnownTurn & {
    readonly tool: string;
    readonly rule: string;
    readonly policy: string;
    readonly fallback: 'message' | 'end' | 'ask_user';
  };
  /** The one row the dialogue changed, and the one field of it that changed. */
  readonly rowChange?: {
    readonly turn: number;
    readonly table: string;
    readonly key: string;
    readonly field: string;
    readonly before: unknown;
    readonly after: unknown;
  };
  /** Null: the judge was not asked (an error). Else the policies it found violated. */
  readonly judgeViolated: readonly string[] | null;
  /** The policies where the judge says the opposite of the deterministic findings. */
  readonly judgeDisagrees: readonly string[];
}

const AGENT_5TH: KnownTurn = { turn: 7, label: 'the agent’s 5th reply' };

/** What a dialogue that cancels `key` changes: its status, from active to cancelled. */
const cancelled = (key: string) => ({
  turn: 7,
  table: 'reservations',
  key,
  field: 'status',
  before: 'active',
  after: 'cancelled',
});

const kept = (row?: KnownDialogue['rowChange']): KnownDialogue => ({
  verdict: 'pass',
  ending: 'user-done',
  messages: 10,
  toolCalls: 3,
  ...(row && { rowChange: row }),
  judgeViolated: [],
  judgeDisagrees: [],
});

const wholeTripCancelled: KnownDialogue = {
  verdict: 'fail',
  ending: 'user-done',
  messages: 10,
  toolCalls: 3,
  firstBreach: {
    ...AGENT_5TH,
    source: 'check',
    id: 'expected.forbidden_actions[0]',
    policy: 'whole-reservation-cancellation',
  },
  rowChange: cancelled('RT8B4N'),
  judgeViolated: [],
  judgeDisagrees: ['whole-reservation-cancellation'],
};

const providerDown: KnownDialogue = {
  verdict: 'error',
  ending: 'provider-error',
  endingRole: 'agent',
  messages: 5,
  toolCalls: 2,
  judgeViolated: null,
  judgeDisagrees: [],
};

/**
 * The known answers of the recorded run (seed 1, 2 trials, `now` 2026-05-15T19:00:00Z): 3
 * passes, 3 failures, 2 errors. cancel-within-24-hours passes twice (it cancels TQ7H3K, as
 * asked). late-refund-without-insurance#1 fails when the guard rule not-refundable
 * (refund-within-24-hours, fallback: message) refuses its cancellation in the agent's 5th reply,
 * and the judge agrees; #2 declines at once and passes, so the two part at the agent's 4th reply.
 * cancel-one-leg-only fails twice: asked for one leg, the agent cancels the whole business-class
 * trip (the guard allows it), so RT8B4N's status goes from active to cancelled, a forbidden
 * action and a failed database expectation; the judge finds it kept, disagreeing.
 * insured-cancel-for-health ends twice in a provider error of the agent (a 503) after the
 * customer gives her reason, and is not judged.
 */
export const AIRLINE_RUN = {
  path: AIRLINE_RUN_PATH,
  seed: 1,
  trials: 2,
  now: '2026-05-15T19:00:00Z',
  scenarios: Object.keys(PLAYED),
  totals: { dialogues: 8, passes: 3, fails: 3, errors: 2 },
  dialogues: {
    'cancel-within-24-hours#1': kept(cancelled('TQ7H3K')),
    'cancel-within-24-hours#2': kept(cancelled('TQ7H3K')),
    'late-refund-without-insurance#1': {
      verdict: 'fail',
      ending: 'user-done',
      messages: 10,
      toolCalls: 3,
      firstBreach: {
        ...AGENT_5TH,
        source: 'guard',
        id: 'not-refundable',
        policy: 'refund-within-24-hours',
      },
      refused: {
        ...AGENT_5TH,
        tool: 'cancel_reservation',
        rule: 'not-refundable',
        policy: 'refund-within-24-hours',
        fallback: 'message',
      },
      judgeViolated: ['refund-within-24-hours'],
      judgeDisagrees: [],
    },
    'late-refund-without-insurance#2': { ...kept(), messages: 7, toolCalls: 2 },
    'cancel-one-leg-only#1': wholeTripCancelled,
    'cancel-one-leg-only#2': wholeTripCancelled,
    'insured-cancel-for-health#1': providerDown,
    'insured-cancel-for-health#2': providerDown,
  } satisfies Readonly<Record<string, KnownDialogue>>,
  /** The scenario whose two trials differ, and the first turn where they part. */
  differing: {
    scenario: 'late-refund-without-insurance',
    dialogues: ['late-refund-without-insurance#1', 'late-refund-without-insurance#2'],
    partsAt: { turn: 5, label: 'the agent’s 4th reply' },
  },
} as const;

/**
 * What the recorded run says of three policies, as the report counts them: tested = dialogues
 * that had it under test and examined it, broken = those of them that broke it. cancel-one-leg-only
 * breaks whole-reservation-cancellation twice; refund-within-24-hours is kept in three dialogues
 * and broken by the guard in late-refund-without-insurance#1; refund-insured-covered-reason is
 * under test only where nothing examined it or the dialogue ended in an error: never tested.
 */
export const AIRLINE_POLICY_RESULTS = {
  'whole-reservation-cancellation': {
    tested: 2,
    broken: 2,
    dialogues: { 'cancel-one-leg-only#1': 'broken', 'cancel-one-leg-only#2': 'broken' },
  },
  'refund-within-24-hours': {
    tested: 4,
    broken: 1,
    dialogues: {
      'cancel-within-24-hours#1': 'kept',
      'cancel-within-24-hours#2': 'kept',
      'late-refund-without-insurance#1': 'broken',
      'late-refund-without-insurance#2': 'kept',
    },
  },
  'refund-insured-covered-reason': {
    tested: 0,
    broken: 0,
    dialogues: {
      'insured-cancel-for-health#1': 'error',
      'insured-cancel-for-health#2': 'error',
      'late-refund-without-insurance#1': 'not-checked',
      'late-refund-without-insurance#2': 'not-checked',
    },
  },
} as const;

/** Where the second run (AIRLINE_RUN_B) is saved, from the repository root. */
export const AIRLINE_RUN_B_PATH = 'e2e/fixtures/airline-run-b.json';

/**
 * A second run of the airline example, made from the first (`airlineRunB(AIRLINE_RUN's log)`)
 * after an edit to agent.md (`changed`: one line replaced, its project hash and recorded files to
 * match) and by turning its checks, so that comparing the two has known flips: in
 * cancel-within-24-hours#1 the agent now names a tool in its last reply (the no-tool-names
 * check fails: passed → failed), and in cancel-one-leg-only#1 every check and expectation now
 * holds (failed → passed). Everything else, dialogue ids included, is as it was; no trial ends in
 * an error on one side only.
 */
export const AIRLINE_RUN_B = {
  path: AIRLINE_RUN_B_PATH,
  broke: ['cancel-within-24-hours#1'],
  fixed: ['cancel-one-leg-only#1'],
  erred: [],
  totals: { dialogues: 8, passes: 3, fails: 3, errors: 2 },
  /** The one line of agent.md the second run's project has in place of the first's. */
  changed: {
    file: 'agent.md',
    removed:
      '- Make one tool call at a time, and do not answer the traveller while a call is pending.',
    added: '- Make one tool call at a time, and tell the traveller which tool you are calling.',
  },
} as const;

/** The second run's log, from the first's (see AIRLINE_RUN_B). */
export function airlineRunB(events: readonly SimEvent[]): SimEvent[] {
  const [broke] = AIRLINE_RUN_B.broke;
  const [fixed] = AIRLINE_RUN_B.fixed;
  const lastAgentTurn = Math.max(
    ...events.flatMap((e) =>
      e.type === 'message' && e.dialogue === broke && e.speaker === 'agent' ? [e.turn] : [],
    ),
  );
  const { file, removed, added } = AIRLINE_RUN_B.changed;
  return events.map((e) => {
    if (e.type === 'run-started') {
      const text = e.files?.[file];
      if (text?.includes(removed) !== true) throw new Error(`${file} no longer has “${removed}”.`);
      const files = { ...e.files, [file]: text.replace(removed, added) };
      return { ...e, files, projectHash: projectHash(files) };
    }
    if (e.type !== 'checks') return e;
    if (e.dialogue === broke)
      return {
        ...e,
        findings: e.findings.map((f) =>
          f.id === 'no-tool-names'
            ? {
                ...f,
                passed: false,
                turn: lastAgentTurn,
                detail: 'The agent said “cancel_reservation” in its last reply.',
              }
            : f,
        ),
      };
    if (e.dialogue === fixed)
      return {
        ...e,
        findings: e.findings.map(({ turn: _turn, ...f }) => ({ ...f, passed: true })),
      };
    return e;
  });
}
