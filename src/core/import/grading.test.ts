import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../models/chat.ts';
import type { ProjectModel } from '../format/model.ts';
import type { Finding, SimEvent } from '../sim/events.ts';
import { USER_STOP } from '../sim/prompts.ts';
import { reportOf } from '../sim/report.ts';
import type { DialogueReport } from '../sim/reportTypes.ts';
import { runSimulation } from '../sim/run.ts';
import { handWrittenScenarios } from '../sim/scenarios.ts';
import { modelReply as reply, waitingRuntime } from '../../test/scriptedModels.ts';
import { changedSources, importedTau2, present, skipped } from '../../test/sharedTau2.ts';

/*
 * tau2-bench's grade and PolicyLab's verdict, side by side, for agent behaviours scripted on real
 * tasks (testdata/tau2-behaviours.json): the gold run, gold with an unrequested write, gold with
 * its reads skipped, amounts written with separators, nothing said, an NL assertion the judge
 * finds not met, steps left out or reordered, on retail and telecom. tau2-bench's grade is made by
 * its own tools and its evaluator's rules (scripts/tau2/expected_grades.py); PolicyLab's is a
 * real run of the imported project, with scripted models playing the agent, the customer (on
 * their own phone in telecom) and the judge. Where the two may differ by design, docs/format.md
 * says so ("Graded as tau2-bench grades").
 */

const here = path.dirname(new URL(import.meta.url).pathname);
const testdata = (name: string) => path.join(here, 'testdata', name);

interface Call {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly requestor?: 'user' | 'assistant';
}

interface Behaviour {
  readonly domain: string;
  readonly task: string;
  readonly behaviour: string;
  readonly extra?: readonly Call[];
  readonly say: 'communicate' | readonly string[];
  readonly nl: 'met' | 'not-met';
}

type Component = 'DB' | 'ENV_ASSERTION' | 'ACTION' | 'COMMUNICATE' | 'NL_ASSERTION';

interface Grade {
  readonly domain: string;
  readonly task: string;
  readonly behaviour: string;
  readonly kept: readonly number[];
  /** The calls tau2-bench's tools refused (raised on), by name, in order. */
  readonly refused: readonly string[];
  readonly components: Readonly<Record<Component, 0 | 1>>;
  readonly reward: 0 | 1;
}

const BEHAVIOURS = (
  JSON.parse(readFileSync(testdata('tau2-behaviours.json'), 'utf8')) as {
    behaviours: Behaviour[];
  }
).behaviours;
const ORACLE = JSON.parse(readFileSync(testdata('tau2-grades.json'), 'utf8')) as {
  sources: Record<string, Record<string, string>>;
  grades: Grade[];
};

const projects = new Map<string, ReturnType<typeof importedTau2>>();
const project = (domain: string) => {
  const found = projects.get(domain) ?? importedTau2(domain);
  projects.set(domain, found);
  return found;
};

/**
 * Scripted players sharing one script: the agent makes its calls in order and asks the customer
 * to make theirs; the customer makes theirs when asked; once every call is made the agent says its
 * piece and the customer says goodbye. The judge answers every assertion as the behaviour says
 * and sees no violation of any policy.
 */
function players(calls: readonly Call[], said: readonly string[], nl: 'met' | 'not-met') {
  let next = 0;
  let spoken = false;
  const call = (c: Call) => reply('', [{ name: c.name, args: c.arguments }]);
  const agent: ChatEngine = {
    chat() {
      const c = calls[next];
      if (c && c.requestor !== 'user') {
        next += 1;
        return Promise.resolve(call(c));
      }
      if (c) return Promise.resolve(reply('Please do the next step on your phone.'));
      if (!spoken) {
        spoken = true;
        return Promise.resolve(reply(said.length > 0 ? said.join(' ') : 'All done.'));
      }
      return Promise.resolve(reply('Is there anything else?'));
    },
  };
  const user: ChatEngine = {
    chat(request: ChatRequest) {
      const heard = request.messages.some((m) => m.role === 'user');
      const c = calls[next];
      if (heard && c?.requestor === 'user') {
        next += 1;
        return Promise.resolve(call(c));
      }
      if (!heard) return Promise.resolve(reply('Hi, I need some help.'));
      if (c === undefined && spoken) return Promise.resolve(reply(`Thanks. ${USER_STOP}`));
      return Promise.resolve(reply('Done. Please go on.'));
    },
  };
  const judge: ChatEngine = {
    chat(request: ChatRequest) {
      const assertion = request.responseSchema?.name === 'assertion_verdict';
      const answer = assertion
        ? { met: nl === 'met', turn: null, reason: `Scripted: ${nl}.`, evidence: '' }
        : { violated: false, turn: null, reason: 'Scripted: no violation.', evidence: '' };
      return Promise.resolve(reply(JSON.stringify(answer)));
    },
  };
  return { agent, user, judge };
}

/** The behaviour run through the imported project; its report and the findings its checks gave. */
async function runBehaviour(
  model: ProjectModel,
  index: number,
  calls: readonly Call[],
  said: readonly string[],
  nl: 'met' | 'not-met' | 'no judge',
): Promise<{ report: DialogueReport; findings: readonly Finding[]; refused: string[] }> {
  const scenario = handWrittenScenarios(model)[index];
  if (!scenario) throw new Error(`No scenario at ${String(index)}.`);
  const engines = players(calls, said, nl === 'no judge' ? 'met' : nl);
  const events: SimEvent[] = [];
  let tick = 0;
  await runSimulation(
    model,
    {
      seed: 1,
      projectHash: 'tau2',
      scenarios: [{ scenario, source: 'hand-written' }],
      trials: 1,
      concurrency: 1,
      limits: { maxTurns: 40, timeLimitMs: 600_000, maxToolRounds: 30 },
      agent: { engine: engines.agent, model: 'agent' },
      user: { engine: engines.user, model: 'user' },
      ...(nl !== 'no judge' && { judge: { engine: engines.judge, model: 'judge' } }),
      prices: {},
      now: model.now ?? '2024-01-01T00:00:00Z',
    },
    { runtime: waitingRuntime().runtime, clock: () => tick++, emit: (e) => events.push(e) },
  );
  const report = reportOf(events, new Map()).dialogues[0];
  if (!report) throw new Error('The run reported no dialogue.');
  const checks = events.find((e) => e.type === 'checks');
  // The calls the project's tools refused, by name, in order: those of the dialogue, not of setup.
  const names = new Map<string, string>();
  const refused: string[] = [];
  for (const e of events) {
    if (e.type === 'tool-call' && e.by !== 'setup') names.set(e.call, e.tool);
    const name = e.type === 'tool-result' && !e.ok ? names.get(e.call) : undefined;
    if (name !== undefined) refused.push(name);
  }
  return { report, findings: checks?.type === 'checks' ? checks.findings : [], refused };
}

/** PolicyLab's counterpart of each of tau2-bench's components, where the scenario has one. */
function components(
  findings: readonly Finding[],
  report: DialogueReport,
): Partial<Record<Component, 0 | 1>> {
  const group = (...keys: string[]) =>
    findings.filter((f) => keys.some((k) => f.id.startsWith(`expected.${k}`)));
  const all = (list: readonly Finding[]) => (list.every((f) => f.passed) ? 1 : 0);
  const out: Partial<Record<Component, 0 | 1>> = {};
  const end = group('end_state');
  if (end.length > 0) out.DB = all(end);
  const env = group('database', 'user_assertions');
  if (env.length > 0) out.ENV_ASSERTION = all(env);
  const actions = group('required_actions');
  if (actions.length > 0) out.ACTION = all(actions);
  const says = group('must_say');
  if (says.length > 0) out.COMMUNICATE = all(says);
  if (report.assertions.length > 0)
    out.NL_ASSERTION = report.assertions.every((a) => a.opinion === 'met') ? 1 : 0;
  return out;
}

function sourcesUnchanged(domain: string) {
  expect(
    changedSources(domain, ORACLE.sources[domain] ?? {}),
    'run python3 scripts/tau2/expected_grades.py',
  ).toEqual([]);
}

async function compare(domain: string) {
  sourcesUnchanged(domain);
  const { model, domain: read } = project(domain);
  const rows = [];
  for (const behaviour of BEHAVIOURS.filter((b) => b.domain === domain)) {
    const grade = ORACLE.grades.find(
      (g) =>
        g.domain === domain && g.task === behaviour.task && g.behaviour === behaviour.behaviour,
    );
    if (!grade) throw new Error(`No tau2 grade for "${behaviour.behaviour}": run the oracle.`);
    const index = read.tasks.findIndex((t) => t.id === behaviour.task);
    const task = read.tasks[index];
    if (!task) throw new Error(`No task ${behaviour.task}.`);
    const gold = grade.kept.map((i): Call => {
      const a = task.actions[i];
      if (!a) throw new Error(`Task ${task.id} has no action ${String(i)}.`);
      return { name: a.name, arguments: { ...a.arguments }, requestor: a.requestor ?? 'assistant' };
    });
    const said =
      behaviour.say === 'communicate'
        ? [task.communicate.join(' ')].filter(Boolean)
        : behaviour.say;
    const { report, findings, refused } = await runBehaviour(
      model,
      index,
      [...gold, ...(behaviour.extra ?? [])],
      said,
      behaviour.nl,
    );
    const mine = components(findings, report);
    const theirs = Object.fromEntries(
      Object.keys(mine).map((k) => [k, grade.components[k as Component]]),
    );
    rows.push({
      behaviour: `${task.id.slice(0, 48)}: ${behaviour.behaviour}`,
      tau2: grade.reward === 1 ? 'pass' : 'fail',
      // An error says why, so that a failure here reads plainly.
      policylab:
        report.verdict === 'error'
          ? `error: ${report.endingDetail} ${report.scenarioFaults.join(' ')}`.trim()
          : report.verdict,
      components: { mine, theirs },
      refused: { mine: refused, theirs: grade.refused },
      // What a failure is charged to: each breach's id and policy.
      charged: report.breaches.map((b) => `${b.id} → ${b.policy ?? 'unattributed'}`),
    });
  }
  return rows;
}

describe('tau2-bench’s grade and PolicyLab’s verdict agree', () => {
  it.skipIf(!present('retail'))(
    `on retail: gold, an unrequested write, reads skipped, separators, nothing said, an NL assertion not met${skipped('retail')}`,
    async () => {
      const rows = await compare('retail');
      expect(rows).toHaveLength(21);
      expect(rows.map((r) => [r.behaviour, r.policylab])).toEqual(
        rows.map((r) => [r.behaviour, r.tau2]),
      );
      // Component by component too, wherever the scenario carries one, graded or not.
      for (const r of rows) expect(r.components.mine, r.behaviour).toEqual(r.components.theirs);
      // And the same calls fail: a tool that answers where tau2-bench's raises, or fails where it
      // answers, is a difference even where the grade does not show it.
      for (const r of rows) expect(r.refused.mine, r.behaviour).toEqual(r.refused.theirs);
      // Every failure is charged to a policy of the import: a wrong row to its writer's (the
      // unasked address change to the address policy, the return left out to the returns
      // policy), an NL assertion the judge finds unmet to the policy on giving information.
      const charged = rows.flatMap((r) => r.charged);
      expect(charged.filter((c) => c.endsWith('unattributed'))).toEqual([]);
      expect(charged.filter((c) => c.includes('assertions'))).not.toEqual([]);
      expect(rows.find((r) => r.behaviour === '16: a write left out')?.charged).toEqual([
        expect.stringMatching(/^expected\.end_state → return-/),
      ]);
      expect(
        rows.find((r) => r.behaviour === '62: gold plus an unrequested write')?.charged,
      ).toEqual([expect.stringMatching(/^expected\.end_state → modify-default-user-address/)]);
      // Both verdicts occur: the agreement is not that of a grader that always says one thing.
      expect(new Set(rows.map((r) => r.tau2))).toEqual(new Set(['pass', 'fail']));
    },
  );

  it.skipIf(!present('telecom'))(
    `on telecom: gold, writes on either side, a fix left out, steps reordered, a transfer in other words${skipped('telecom')}`,
    async () => {
      const rows = await compare('telecom');
      expect(rows).toHaveLength(10);
      expect(rows.map((r) => [r.behaviour, r.policylab])).toEqual(
        rows.map((r) => [r.behaviour, r.tau2]),
      );
      for (const r of rows) expect(r.components.mine, r.behaviour).toEqual(r.components.theirs);
      for (const r of rows) expect(r.refused.mine, r.behaviour).toEqual(r.refused.theirs);
      expect(new Set(rows.map((r) => r.tau2))).toEqual(new Set(['pass', 'fail']));
      // Every failure is charged to a policy: a phone left in the wrong state to the step left
      // out, or with every step done to the call that spoiled it (airplane mode turned on), by
      // the manual's policy for that step; a line left without data to the refuelling policy.
      const charged = rows.flatMap((r) => r.charged);
      expect(charged).not.toEqual([]);
      expect(charged.filter((c) => c.endsWith('unattributed'))).toEqual([]);
      const of = (behaviour: string) => rows.find((r) => r.behaviour.endsWith(behaviour))?.charged;
      expect(of(': gold plus an unrequested write on the phone')).toEqual([
        expect.stringMatching(
          /^expected\.user_assertions\[0\] → guide-user-use-toggle-airplane-mode$/,
        ),
        expect.stringMatching(
          /^expected\.user_assertions\[1\] → guide-user-use-toggle-airplane-mode$/,
        ),
      ]);
      expect(of(": the user's fix left out")?.[0]).toMatch(
        /→ check-network-status-shows-mobile-data$/,
      );
      expect(of(": the agent's write left out")?.[0]).toMatch(
        /^expected\.database\[0\] → data-refueling/,
      );
    },
  );

  for (const domain of ['retail', 'telecom', 'mock'])
    it.skipIf(!present(domain))(
      `names, in every ${domain} scenario, the policy each step, phrase and assertion answers to${skipped(domain)}`,
      () => {
        const { model } = project(domain);
        const uncharged: string[] = [];
        for (const s of model.scenarios) {
          const e = s.expected;
          const named = (group: string, count: number) => {
            for (let i = 0; i < count; i += 1)
              if (e.attributions?.[`expected.${group}[${i}]`] === undefined)
                uncharged.push(`${s.id}: ${group}[${i}]`);
          };
          named('required_actions', e.requiredActions.length);
          named('must_say', e.mustSay.length);
          for (const [i, a] of (e.assertions ?? []).entries())
            if (a.policy === undefined) uncharged.push(`${s.id}: assertions[${i}]`);
          // Each policy named is one of the scenario's.
          const all = [
            ...Object.values(e.attributions ?? {}),
            ...(e.assertions ?? []).flatMap((a) => (a.policy ? [a.policy] : [])),
          ];
          for (const p of all) expect(s.policies, s.id).toContain(p);
        }
        expect(uncharged).toEqual([]);
      },
    );

  it.skipIf(!present('retail'))(
    `never passes a task graded by its NL assertions that no judge saw: it is left unclear${skipped('retail')}`,
    async () => {
      const { model, domain: read } = project('retail');
      const index = read.tasks.findIndex((t) => t.id === '76');
      const task = read.tasks[index];
      if (!task) throw new Error('No task 76.');
      const calls = task.actions.map((a) => ({ name: a.name, arguments: { ...a.arguments } }));
      const { report } = await runBehaviour(
        model,
        index,
        calls,
        [task.communicate.join(' ')],
        'no judge',
      );
      expect(report.breaches).toEqual([]);
      expect(report.unclear.map((u) => u.id)).toEqual(['expected.assertions[0]']);
      expect(report.unclear[0]?.detail).toMatch(/no judge model/);
    },
  );
});
