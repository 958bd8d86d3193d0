import { compilePhrasePattern, slashPattern } from '../regex/phrase.ts';
import { CelRunError, checkCel, compileCel, isCelProblem } from '../cel.ts';
import type { ProjectModel, Row } from '../format/model.ts';
import { closest } from '../text.ts';
import { rowKey, seedDatabase } from './database.ts';
import { toPlain } from './plainValues.ts';
import type { Database, SimScenario } from './events.ts';

/** What scenario levels are summed from: each policy's challenge, by id. */
export type PolicyChallenges = ReadonlyMap<string, { readonly challenge: number }>;

/**
 * The scenarios of scenarios.yaml as the run uses them. A scenario's level is the sum of its
 * policies' challenges; it is left out when a policy is unknown (the report then shows no level
 * rather than a wrong one). `policies` defaults to the project's own.
 */
export function handWrittenScenarios(
  model: ProjectModel,
  policies: PolicyChallenges = new Map(model.policies.map((p) => [p.id, p])),
): SimScenario[] {
  return model.scenarios.map((s) => {
    const level = levelOf(s.policies, policies);
    return {
      id: s.id,
      policies: s.policies,
      ...(level === undefined ? {} : { level }),
      persona: s.persona,
      goal: s.goal,
      knows: s.knows,
      unknown: s.unknown,
      rows: s.rows,
      expected: {
        database: s.expected.database,
        requiredActions: s.expected.requiredActions,
        forbiddenActions: s.expected.forbiddenActions,
        mustSay: s.expected.mustSay,
        mustNotSay: s.expected.mustNotSay,
        ...(s.expected.attributions && { attributions: s.expected.attributions }),
        ...(s.expected.actionArgs && { actionArgs: s.expected.actionArgs }),
        ...(s.expected.assertions && { assertions: s.expected.assertions }),
        ...(s.expected.userAssertions && { userAssertions: s.expected.userAssertions }),
        ...(s.expected.endState && { endState: s.expected.endState }),
        ...(s.expected.requestors && { requestors: s.expected.requestors }),
        ...(s.expected.gradedBy && { gradedBy: s.expected.gradedBy }),
        ...(s.expected.notChecked && { notChecked: s.expected.notChecked }),
      },
      ...(s.initialization && { initialization: s.initialization }),
      ...(s.messageHistory && { messageHistory: s.messageHistory }),
      ...(s.tags && { tags: s.tags }),
      ...(s.tactic !== undefined && { tactic: s.tactic }),
      ...(s.twinOf !== undefined && { twinOf: s.twinOf }),
    };
  });
}

function levelOf(ids: readonly string[], policies: PolicyChallenges): number | undefined {
  let sum = 0;
  for (const id of ids) {
    const facts = policies.get(id);
    if (!facts) return undefined;
    sum += facts.challenge;
  }
  return sum;
}

/**
 * What is wrong with a scenario for this project, one sentence each, worded so that a person or
 * the generator model can fix it; empty when it fits. Checks: persona and goal are there; its
 * rows fit their tables (`seedDatabase`: unknown table, bad values, repeated keys) and point at
 * rows that exist; every database assertion is valid CEL over `db` and gives true or false on
 * the starting database; actions name tools, none both required and forbidden; `/phrases/`
 * compile. Problems of the project's own seed rows are not the scenario's and are left out.
 */
export function scenarioProblems(model: ProjectModel, scenario: SimScenario): string[] {
  const problems: string[] = [];
  if (scenario.persona.trim() === '') problems.push('The persona is empty.');
  if (scenario.goal.trim() === '') problems.push('The goal is empty.');

  const seedOnly = new Set(seedDatabase(model).problems);
  const { db, problems: rowProblems } = seedDatabase(model, scenario.rows);
  problems.push(...rowProblems.filter((p) => !seedOnly.has(p)));
  problems.push(...danglingReferences(model, scenario.rows, db));

  scenario.expected.database.forEach((source, i) => {
    const wrong = assertionProblem(source, db);
    if (wrong !== undefined) problems.push(`expected.database[${i}] (${source}): ${wrong}`);
  });

  const tools = model.tools.map((t) => t.name);
  const { requiredActions, forbiddenActions } = scenario.expected;
  for (const [field, names] of [
    ['required_actions', requiredActions],
    ['forbidden_actions', forbiddenActions],
  ] as const) {
    for (const name of names) {
      if (tools.includes(name)) continue;
      const guess = closest(name, tools);
      const hint = guess ? `Did you mean "${guess}"? ` : '';
      problems.push(
        `expected.${field} names "${name}", which is not a tool. ${hint}Tools: ${tools.join(', ')}.`,
      );
    }
  }
  for (const name of new Set(requiredActions.filter((t) => forbiddenActions.includes(t)))) {
    problems.push(`"${name}" is both a required and a forbidden action.`);
  }

  for (const [field, phrases] of [
    ['must_say', scenario.expected.mustSay],
    ['must_not_say', scenario.expected.mustNotSay],
  ] as const) {
    phrases.forEach((phrase, i) => {
      const wrong = phraseProblem(phrase);
      if (wrong !== undefined) problems.push(`expected.${field}[${i}]: ${wrong}`);
    });
  }
  return problems;
}

/** Why an assertion cannot judge anything on `db`; undefined when it gives a boolean. */
function assertionProblem(source: string, db: Database): string | undefined {
  const problem = checkCel(source, 'assertion');
  if (problem) return `${problem.message} It must be a CEL condition over db.`;
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) return compiled.message;
  try {
    const value = compiled.run({ db });
    if (typeof value === 'boolean') return undefined;
    return `it gives ${JSON.stringify(toPlain(value))}, not true or false.`;
  } catch (error) {
    if (error instanceof CelRunError && error.missing !== undefined)
      return `it reads "${error.missing}", which the database does not have (tables: ${Object.keys(db).join(', ')}).`;
    const message = error instanceof Error ? error.message : String(error);
    return `it cannot be evaluated on the starting database (${message}).`;
  }
}

/** Scenario rows whose `references` column holds a key no row of the referenced table has. */
function danglingReferences(model: ProjectModel, rows: Database, db: Database): string[] {
  const problems: string[] = [];
  for (const table of model.tables) {
    const added: readonly Row[] = Object.hasOwn(rows, table.name) ? (rows[table.name] ?? []) : [];
    for (const column of table.columns) {
      const target = model.tables.find((t) => t.name === column.references);
      if (!target) continue;
      const keys = new Set((db[target.name] ?? []).map((r) => rowKey(r, target.key)));
      added.forEach((row: unknown, i) => {
        if (typeof row !== 'object' || row === null) return; // seedDatabase reports it
        const value: unknown = Object.hasOwn(row, column.name) ? (row as Row)[column.name] : null;
        if (value === null || value === undefined) return;
        const key = typeof value === 'string' ? value : JSON.stringify(toPlain(value));
        if (keys.has(key)) return;
        problems.push(
          `Scenario row ${i + 1} of "${table.name}": "${column.name}" is ${JSON.stringify(toPlain(value))}, but "${target.name}" has no row with ${target.key} ${JSON.stringify(key)}.`,
        );
      });
    }
  }
  return problems;
}

function phraseProblem(phrase: string): string | undefined {
  if (phrase.trim() === '') return 'the phrase is empty.';
  const written = slashPattern(phrase);
  if (written === undefined) return undefined;
  const compiled = compilePhrasePattern(written);
  return typeof compiled === 'string' ? compiled : undefined;
}
