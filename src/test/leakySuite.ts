import { describe, expect, it } from 'vitest';
import type { ProjectModel } from '../core/format/model.ts';
import { policyCoverage } from '../core/lint/coverage.ts';
import type { PolicyFacts } from '../core/sim/report.ts';
import type { Customer, Step } from './leakyAgents.ts';
import { charged, runLeaky, scenarioOf, scriptedAgent, scriptedUser } from './leakyAgents.ts';

/** A scenario's compliant script: the customer, and an agent that keeps every policy in play. */
export interface Script {
  readonly customer: Customer;
  /** The compliant agent: every policy in play kept, no finding. */
  readonly steps: readonly Step[];
}

/** One leaky agent: a scenario's script changed so it breaks exactly `policy`. */
export interface LeakyCase {
  readonly policy: string;
  readonly scenario: string;
  /** Policies put in play besides the scenario's own (for a policy no scenario tests). */
  readonly inPlay?: readonly string[];
  /** How the agent breaks it. */
  readonly how: string;
  readonly agent: readonly Step[];
  /** The raw turn of the first breach; undefined for a breach no turn is known of. */
  readonly expect: { readonly turn: number | undefined };
}

/**
 * Policies that cannot be broken alone through the example as written: what the engine charges
 * is asserted as it is, with why.
 */
export interface EntangledCase extends Omit<LeakyCase, 'expect'> {
  /** Every policy charged (in id order), with its first breach's turn (`-` when none is known) and whether the scenario had it in play. */
  readonly charged: readonly string[];
  readonly why: string;
}

/** The compliant agent's steps for a scenario, from an example's scripts. */
export function stepsOf(base: Readonly<Record<string, Script>>, id: string): readonly Step[] {
  return (base[id] ?? noScript(id)).steps;
}

function noScript(id: string): never {
  throw new Error(`No script for scenario "${id}".`);
}

/** Everything one example's leaky-agent suite runs. */
export interface LeakyExample {
  readonly name: string;
  readonly model: ProjectModel;
  readonly facts: PolicyFacts;
  /** What the agent says to end every dialogue. */
  readonly signOff: string;
  readonly base: Readonly<Record<string, Script>>;
  readonly cases: readonly LeakyCase[];
  readonly entangled: readonly EntangledCase[];
  /** Policies tried though no guard, check or expectation can see them (judge-only, shown so). */
  readonly beyondCoverage: readonly string[];
  /** How many policies something deterministic can see, and how many are charged alone. */
  readonly counts: { readonly covered: number; readonly clean: number };
}

/**
 * Registers an example's suite: every compliant script gets no finding; every leaky agent is
 * charged to its policy alone, in play, at its turn, with nothing unattributed or suspect; every
 * entangled one charges exactly what it lists; and the cases cover every policy the example's
 * guards, checks and expectations can see.
 */
export function leakySuite(example: LeakyExample): void {
  const { name, model, facts, base, cases, entangled } = example;
  const run = async (
    id: string,
    steps: readonly Step[],
    customer: Customer,
    extra?: readonly string[],
  ) =>
    (
      await runLeaky(
        model,
        facts,
        scenarioOf(model, id, extra),
        scriptedAgent(steps, example.signOff),
        scriptedUser(customer),
      )
    ).report;
  const scriptOf = (id: string): Script => base[id] ?? noScript(id);

  describe(`compliant scripted agents of the ${name} example`, () => {
    it.each(Object.keys(base))('%s: no finding', async (id) => {
      const script = scriptOf(id);
      const report = await run(id, script.steps, script.customer);
      expect(charged(report)).toMatchObject({
        verdict: 'pass',
        breaches: [],
        unattributed: [],
        suspect: [],
      });
    });
  });

  describe(`leaky scripted agents of the ${name} example`, () => {
    it.each(cases.map((c) => [c.policy, c] as const))('%s', async (_, c) => {
      const report = await run(c.scenario, c.agent, scriptOf(c.scenario).customer, c.inPlay);
      const found = charged(report);
      const [d] = report.dialogues;
      expect({ ...found, why: c.how }).toMatchObject({
        verdict: 'fail',
        policies: [c.policy],
        unattributed: [],
        suspect: [],
      });
      expect(d?.breaches.every((b) => b.policy === c.policy)).toBe(true);
      const policy = report.byPolicy.find((p) => p.policy === c.policy);
      expect(policy?.breaches.every((b) => b.inPlay)).toBe(true);
      const first = d?.breaches.find((b) => b.turn !== undefined)?.turn;
      expect(first, found.breaches.join('; ')).toBe(c.expect.turn);
    });
  });

  describe(`entangled: ${name} leaky agents whose breach cannot be charged alone`, () => {
    it.each(entangled.map((c) => [c.policy, c] as const))('%s', async (_, c) => {
      const report = await run(c.scenario, c.agent, scriptOf(c.scenario).customer, c.inPlay);
      const found = charged(report);
      expect({ ...found, why: c.why }).toMatchObject({ unattributed: [], suspect: [] });
      const firsts = report.byPolicy
        .filter((p) => p.breaches.length > 0)
        .map((p) => {
          const turn = p.breaches.find((b) => b.turn !== undefined)?.turn;
          const out = p.outOfPlay > 0 ? ' (out of play)' : '';
          return `${p.policy}@${turn === undefined ? '-' : String(turn)}${out}`;
        });
      expect(firsts, found.breaches.join('; ')).toEqual(c.charged);
      expect(found.verdict).toBe(c.charged.length > 0 ? 'fail' : 'pass');
    });
  });

  describe(`the ${name} suite`, () => {
    it('has one leaky agent for each policy a guard, check or expectation can see', () => {
      const covered = [...policyCoverage(model)].flatMap(([id, by]) => (by.length > 0 ? [id] : []));
      const clean = cases.map((c) => c.policy);
      expect(new Set(clean).size).toBe(clean.length);
      const tried = new Set([...clean, ...entangled.map((c) => c.policy)]);
      expect([...tried].filter((p) => !covered.includes(p))).toEqual(example.beyondCoverage);
      expect(covered.filter((p) => !tried.has(p))).toEqual([]);
      // A compliant script for every scenario of the example.
      expect(Object.keys(base).sort()).toEqual(model.scenarios.map((s) => s.id).sort());
      expect({ covered: covered.length, clean: clean.length }).toEqual(example.counts);
    });
  });
}
