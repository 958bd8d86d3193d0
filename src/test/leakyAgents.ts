import { readFileSync } from 'node:fs';
import type {
  ChatEngine,
  ChatRequest,
  ProjectModel,
  RunReport,
  SimEvent,
  SimScenario,
} from '../core/index.ts';
import {
  USER_STOP,
  parseProject,
  projectFromFiles,
  reportOf,
  runSimulation,
} from '../core/index.ts';
import { PROJECT_FILES } from '../core/project.ts';
import type { PolicyFacts } from '../core/sim/report.ts';
import { modelReply, waitingRuntime } from './scriptedModels.ts';

/*
 * Leaky scripted agents: an agent under test played from a script that breaks one named policy at
 * a known turn, a simulated user that answers from what the agent last said, and a runner that
 * puts one such dialogue through `runSimulation` (no judge model) and folds its report. The
 * tables of cases live in src/core/sim/leaky/*.test.ts.
 */

/** An example project of public/examples, parsed, with the facts the report needs. */
export function loadExample(name: string): { model: ProjectModel; facts: PolicyFacts } {
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/${name}/${f.name}`, 'utf8')]),
  );
  const model = parseProject(projectFromFiles(name, files).project).model;
  const facts: PolicyFacts = new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
  return { model, facts };
}

/** One tool call of a scripted agent. */
export interface StepCall {
  readonly tool: string;
  readonly args: object;
}

/** One answer of the scripted agent: words, tool calls, or both (one agent turn). */
export interface Step {
  readonly say?: string;
  readonly calls?: readonly StepCall[];
}

/** The agent says `text` and waits for the user. */
export const say = (text: string): Step => ({ say: text });

/** The agent calls one tool (with optional words in the same turn). */
export const call = (tool: string, args: object, text = ''): Step => ({
  say: text,
  calls: [{ tool, args }],
});

/** The agent calls several tools in one turn. */
export const calls = (...list: [tool: string, args: object][]): Step => ({
  say: '',
  calls: list.map(([tool, args]) => ({ tool, args })),
});

/**
 * The steps of `base` with `count` steps from index `at` replaced by `put`: how a leaky case is
 * written from its scenario's compliant script.
 */
export function edit(
  base: readonly Step[],
  at: number,
  count: number,
  ...put: readonly Step[]
): Step[] {
  return [...base.slice(0, at), ...put, ...base.slice(at + count)];
}

/**
 * A scripted agent: its n-th answer in a dialogue (counted from what the request holds, so
 * dialogues never share state) is `steps[n]`; past the end it signs off.
 */
export function scriptedAgent(steps: readonly Step[], signOff: string): ChatEngine {
  return {
    chat(request: ChatRequest) {
      const n = request.messages.filter((m) => m.role === 'assistant').length;
      const step = steps[n] ?? say(signOff);
      const calls = (step.calls ?? []).map((c, i) => ({
        id: `call-${n}-${i}`,
        name: c.tool,
        args: c.args,
      }));
      return Promise.resolve(modelReply(step.say ?? '', calls));
    },
  };
}

/**
 * What the scripted customer says: `opening` first, then the answer to the first pattern the
 * agent's last words match; a question a guard puts to it (`ask_user`) gets `askUser`; anything
 * else ends the conversation politely.
 */
export interface Customer {
  readonly opening: string;
  readonly answers: readonly (readonly [RegExp, string])[];
  readonly askUser?: string;
}

/** Words of the ask_user prompt (prompts.ts) that tell a guard's question from the agent's. */
const GUARD_QUESTION = /which needs you first:/;

/** The simulated user of a Customer script. */
export function scriptedUser(customer: Customer): ChatEngine {
  return {
    chat(request: ChatRequest) {
      const spoken = request.messages.filter((m) => m.role === 'assistant').length;
      const heard = request.messages.at(-1)?.content ?? '';
      const text =
        spoken === 0
          ? customer.opening
          : GUARD_QUESTION.test(heard)
            ? (customer.askUser ?? 'Yes, go ahead.')
            : (customer.answers.find(([pattern]) => pattern.test(heard))?.[1] ??
              `Thank you, goodbye. ${USER_STOP}`);
      return Promise.resolve(modelReply(text));
    },
  };
}

// Only the per-dialogue time limit sleeps long here, and it never expires.
const { runtime } = waitingRuntime();

/** One dialogue of `scenario` between the scripted agent and customer, and its report. */
export async function runLeaky(
  model: ProjectModel,
  facts: PolicyFacts,
  scenario: SimScenario,
  agent: ChatEngine,
  user: ChatEngine,
): Promise<{ events: SimEvent[]; report: RunReport }> {
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(
    model,
    {
      seed: 1,
      projectHash: 'leaky',
      scenarios: [{ scenario, source: 'hand-written' }],
      trials: 1,
      concurrency: 1,
      agent: { engine: agent, model: 'leaky-agent' },
      user: { engine: user, model: 'scripted-user' },
      prices: {},
      now: '2026-05-15T19:00:00Z',
    },
    { runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  return { events, report: reportOf(events, facts) };
}

/** What a report charges, in brief: each breach as `policy@turn (source:id)`. */
export interface Charged {
  readonly verdict: string;
  readonly ending: string | null;
  readonly breaches: readonly string[];
  readonly policies: readonly string[];
  readonly unattributed: readonly string[];
  readonly suspect: readonly string[];
}

/** The report of a one-dialogue run, in brief. */
export function charged(report: RunReport): Charged {
  const [d] = report.dialogues;
  const show = (b: {
    policy: string | undefined;
    turn: number | undefined;
    source: string;
    id: string;
  }) => `${b.policy ?? '?'}@${b.turn === undefined ? '-' : b.turn} (${b.source}:${b.id})`;
  return {
    verdict: d?.verdict ?? 'none',
    ending: d?.ending ?? null,
    breaches: (d?.breaches ?? []).map(show),
    policies: report.byPolicy.filter((p) => p.breaches.length > 0).map((p) => p.policy),
    unattributed: report.unattributed.map(show),
    suspect: d?.suspect ?? [],
  };
}

/** A scenario of `model` by id, with `extra` policies put in play (for a policy no scenario tests). */
export function scenarioOf(
  model: ProjectModel,
  id: string,
  extra: readonly string[] = [],
): SimScenario {
  const found = model.scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`No scenario "${id}".`);
  if (extra.length === 0) return found;
  return { ...found, id: `${id}+${extra.join('+')}`, policies: [...found.policies, ...extra] };
}
