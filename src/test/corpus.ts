import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import type {
  ChatEngine,
  DialogueReport,
  PolicyFacts,
  ProjectModel,
  SimEvent,
} from '../core/index.ts';
import {
  parseProject,
  judgeDecidedPolicies,
  ModelError,
  PROJECT_FILES,
  projectFromFiles,
  reportOf,
  runSimulation,
  USER_STOP,
} from '../core/index.ts';
import { modelReply, waitingRuntime } from './scriptedModels.ts';

/*
 * The verdict corpus: small projects of domains written for it (not the examples), each with
 * dialogues whose right findings were written down before the code that finds them. A dialogue
 * is a script (what the customer says, what the agent says and calls), played through the real
 * run (guards, tools, preconditions, checks, expectations, the report's fold) with models that
 * only read their lines; what the report says is compared with the findings written.
 */

/** One model turn of a script: the customer's message, or the agent's reply and its calls. */
export type ScriptStep =
  | { readonly user: string }
  | {
      readonly agent: string;
      readonly calls?: readonly { readonly tool: string; readonly args: object }[];
    };

/** A dialogue of the corpus, as its domain's dialogues.yaml writes it. */
export interface CorpusDialogue {
  readonly id: string;
  readonly scenario: string;
  /** The mechanisms it exercises (attempts, confirmations, ...), for the coverage test. */
  readonly covers: readonly string[];
  readonly turns: readonly ScriptStep[];
  readonly verdict: DialogueReport['verdict'];
  /** `<policy or id> <state> @<agent reply>`, states as `findingsOf` writes them. */
  readonly findings: readonly string[];
  /**
   * When given, a judge model runs: what it says of each policy it is asked about
   * (`violated@<agent reply>`, `fails` for a judge that errs; kept when not listed).
   */
  readonly judge?: Readonly<Record<string, string>>;
  /** The run lets the judge decide the policies no check covers. */
  readonly judgeDecides?: boolean;
  /** The judge is asked this many times per policy; `judge` then lists answers by commas. */
  readonly judgeRepeats?: number;
  /** The report's judge spread, when given: pairs judged more than once, and unanimous ones. */
  readonly judgeSpread?: { readonly repeated: number; readonly unanimous: number };
  /** The agent is the user's own endpoint ("this endpoint is my own agent"). */
  readonly ownAgent?: boolean;
  /** The policies the judge must have been asked about, when given (in any order). */
  readonly judgeAsked?: readonly string[];
}

export interface CorpusDomain {
  readonly name: string;
  readonly model: ProjectModel;
  readonly facts: PolicyFacts;
  readonly dialogues: readonly CorpusDialogue[];
}

const ROOT = path.join(import.meta.dirname, '../core/sim/testdata/corpus');

/** Every domain of the corpus, its project read and checked, its dialogues listed. */
export function corpusDomains(): CorpusDomain[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const folder = path.join(ROOT, entry.name);
      const files = Object.fromEntries(
        PROJECT_FILES.map((f) => [f.name, readFileSync(path.join(folder, f.name), 'utf8')]),
      );
      const { model, diagnostics } = parseProject(projectFromFiles(entry.name, files).project);
      const errors = diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0)
        throw new Error(
          `The corpus domain ${entry.name} has errors: ${errors.map((e) => e.message).join(' ')}`,
        );
      const read = load(readFileSync(path.join(folder, 'dialogues.yaml'), 'utf8')) as {
        dialogues: CorpusDialogue[];
      };
      return {
        name: entry.name,
        model,
        facts: new Map(
          model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
        ),
        dialogues: read.dialogues,
      };
    });
}

/**
 * Two engines that read a script in order: the agent's replies and the customer's messages. A
 * model asked out of turn fails loudly (the script does not fit the dialogue); a customer with
 * nothing left to say leaves.
 */
function scriptedPlayers(turns: readonly ScriptStep[]): { agent: ChatEngine; user: ChatEngine } {
  let next = 0;
  let calls = 0;
  const lastUser = turns.findLastIndex((t) => 'user' in t);
  const step = (role: 'agent' | 'user') => {
    const at = turns[next];
    if (at === undefined || !(role in at))
      throw new Error(
        `The script asks for ${at === undefined ? 'nothing more' : `the ${role === 'agent' ? 'customer' : 'agent'}`} at step ${String(next + 1)}, but the ${role} is asked to speak.`,
      );
    return { at, index: next++ };
  };
  return {
    agent: {
      chat() {
        const { at } = step('agent');
        if (!('agent' in at)) throw new Error('unreachable');
        const scripted = (at.calls ?? []).map((c) => ({ ...c, id: `c${String(++calls)}` }));
        return Promise.resolve(
          modelReply(
            at.agent,
            scripted.map((c) => ({ id: c.id, name: c.tool, args: c.args })),
          ),
        );
      },
    },
    user: {
      chat() {
        if (next >= turns.length) return Promise.resolve(modelReply(USER_STOP));
        const { at, index } = step('user');
        if (!('user' in at)) throw new Error('unreachable');
        const leaves = index === lastUser && index === turns.length - 1;
        return Promise.resolve(modelReply(leaves ? `${at.user} ${USER_STOP}` : at.user));
      },
    },
  };
}

/**
 * A judge that answers from the dialogue's script: finds the policy it is asked about in its
 * system prompt, and says it was violated at the agent reply named (quoting it), kept, or fails.
 */
function scriptedJudge(says: Readonly<Record<string, string>>, asked: string[]): ChatEngine {
  return {
    chat(request) {
      const system = request.messages[0]?.content ?? '';
      const policy = /The policy \(([^)]+)\)/.exec(system)?.[1] ?? '';
      const nth = asked.filter((p) => p === policy).length;
      asked.push(policy);
      const answers = (says[policy] ?? 'kept').split(',').map((a) => a.trim());
      const said = answers[Math.min(nth, answers.length - 1)] ?? 'kept';
      if (said === 'fails')
        return Promise.reject(new ModelError('auth', 'The judge’s key was refused (401).'));
      const reply = /^violated@(\d+)$/.exec(said)?.[1];
      if (reply === undefined)
        return Promise.resolve(
          modelReply(
            JSON.stringify({ violated: false, turn: null, reason: 'Kept.', evidence: '' }),
          ),
        );
      const lines = [...system.matchAll(/^\[(\d+)\] agent: (.*)$/gm)];
      const line = lines[Number(reply) - 1];
      if (!line) throw new Error(`The transcript has no agent reply ${reply}.`);
      return Promise.resolve(
        modelReply(
          JSON.stringify({
            violated: true,
            turn: Number(line[1]),
            reason: `It broke ${policy}.`,
            evidence: (line[2] ?? '').slice(0, 30),
          }),
        ),
      );
    },
  };
}

/** Plays one scripted dialogue through the real run and folds its log into the report. */
export async function playScripted(domain: CorpusDomain, dialogue: CorpusDialogue) {
  const scenario = domain.model.scenarios.find((s) => s.id === dialogue.scenario);
  if (!scenario) throw new Error(`${domain.name} has no scenario "${dialogue.scenario}".`);
  const { agent, user } = scriptedPlayers(dialogue.turns);
  const asked: string[] = [];
  const judge = dialogue.judge && scriptedJudge(dialogue.judge, asked);
  const events: SimEvent[] = [];
  let tick = 0;
  // Backoff ends at once; the dialogue's time limit waits until the run is over.
  const { runtime } = waitingRuntime();
  await runSimulation(
    domain.model,
    {
      seed: 1,
      projectHash: domain.name,
      scenarios: [{ scenario, source: 'hand-written' }],
      trials: 1,
      concurrency: 1,
      agent: { engine: agent, model: 'scripted-agent' },
      user: { engine: user, model: 'scripted-user' },
      prices: {},
      now: domain.model.now ?? '2026-01-01T00:00:00Z',
      ...(judge && { judge: { engine: judge, model: 'scripted-judge' } }),
      ...(dialogue.ownAgent && { externalAgent: true }),
      ...(judge && dialogue.judgeRepeats !== undefined && { judgeRepeats: dialogue.judgeRepeats }),
      ...(judge && {
        judgeDecides: judgeDecidedPolicies(domain.model, dialogue.judgeDecides === true),
      }),
    },
    { runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  const report = reportOf(events, domain.facts);
  const [played] = report.dialogues;
  if (!played) throw new Error(`${dialogue.id} left no dialogue in the report.`);
  return { events, report, played, asked };
}

/**
 * What the report says of a dialogue, one line per finding: `<policy> <state> @<reply>`, the
 * policy's id (or `unattributed:<id>`), its state (`broken`: a breach that went through;
 * `attempt`: a refused attempt that fails; `noted`: one only noted; `unclear`; `ungraded`) and the
 * agent's reply it is at, counted from 1 (`@-` when it has none). Sorted.
 */
export function findingsOf(played: DialogueReport, events: readonly SimEvent[]): string[] {
  const replies = new Map<number, number>();
  for (const e of events)
    if (e.type === 'message' && e.dialogue === played.dialogue && e.speaker === 'agent')
      replies.set(e.turn, replies.size + 1);
  const at = (turn: number | undefined) =>
    turn === undefined ? '@-' : `@${String(replies.get(turn) ?? `turn${String(turn)}`)}`;
  const who = (f: { readonly policy: string | undefined; readonly id: string }) =>
    f.policy ?? `unattributed:${f.id}`;
  return [
    ...played.breaches.map(
      (b) =>
        `${who(b)} ${b.attempt ? 'attempt' : b.source === 'judge' ? 'decided' : 'broken'} ${at(b.turn)}`,
    ),
    ...played.noted.map((b) => `${who(b)} noted ${at(b.turn)}`),
    ...played.unclear.map((u) => `${who(u)} unclear ${at(u.turn)}`),
    ...played.ungraded.map((u) => `${who(u)} ungraded ${at(u.turn)}`),
    ...played.judgeFailed.map((f) => `${f.policy} judge-failed @-`),
  ].sort();
}
