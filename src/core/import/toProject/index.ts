import { stringify } from 'yaml';
import { projectFromFiles } from '../../bundle.ts';
import { parseProject } from '../../format/parseProject.ts';
import type { ProjectFileName } from '../../project.ts';
import type { ImportedDomain } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { statedNow } from './clock.ts';
import { attributed, preconditionPolicies } from './attribution.ts';
import { goldRuns } from './endStates.ts';
import { validatorNotes } from './validators.ts';
import { planTables } from './database.ts';
import { policyLinks, policyOfTool, withPoliciesInPlay } from './inPlay.ts';
import { planPolicies } from './policies.ts';
import { planScenarios } from './scenarios.ts';
import { planTools } from './tools.ts';
import { planSetupTools } from './setup.ts';
import { planEnvironment } from './environment.ts';
import { planUserSide } from './userSide.ts';
import type { UserTaskParts } from './userTasks.ts';
import { userTaskParts } from './userTasks.ts';

/** A project made from an imported domain, and everything it could not carry, by item. */
export interface ImportResult {
  readonly files: Readonly<Record<ProjectFileName, string>>;
  readonly notCarried: readonly CarryNote[];
  /** Each source tool's name in the project (`getOrder` → `get_order`). */
  readonly toolNames: ReadonlyMap<string, string>;
}

const yaml = (value: unknown) => stringify(value, { lineWidth: 0 });

/**
 * Writes an imported domain as the six files of a PolicyLab project in the current format,
 * one planner per file (database, tools, policies, scenarios), and lists each item it could
 * not carry or carried only in part.
 */
export function projectOfDomain(domain: ImportedDomain): ImportResult {
  const notes: CarryNote[] = [];
  const tables = planTables(domain.tables, notes);
  notes.push(...validatorNotes(domain.validators ?? []));
  const tools = planTools(domain.tools, tables, notes, domain);
  const user = planUserSide(
    domain,
    { tables: new Set(tables.map((t) => t.name)), tools: new Set(tools.names.values()) },
    notes,
  );
  const setup = planSetupTools(
    domain,
    { agent: tables, user: user.tables },
    new Set([...tools.names.values(), ...user.names.values()]),
    notes,
  );
  const environment = planEnvironment(
    domain,
    { agent: tables, user: user.tables },
    new Set([...tools.names.values(), ...user.names.values(), ...setup.entries.map((e) => e.name)]),
    notes,
  );
  // The user's tools too: a policy that has the agent guide the customer through a step on their
  // side ("have the user turn airplane mode off") governs that step.
  const policies = planPolicies(
    domain.policy,
    [...tools.entries, ...user.tools].map((t) => ({ name: t.name, description: t.description })),
  );
  const links = policyLinks(policies);
  const texts = policies.flatMap((p) =>
    typeof p.id === 'string' && typeof p.text === 'string' ? [{ id: p.id, text: p.text }] : [],
  );
  // A tool's failure that encodes a policy ("Non-pending order cannot be cancelled") names it.
  const linkedTo = (tool: string) => links.filter((l) => l.tools.includes(tool)).map((l) => l.id);
  const agentTools = preconditionPolicies(tools.entries, texts, linkedTo);
  const userTools = preconditionPolicies(user.tools, texts, linkedTo);
  const scenarios = planScenarios(domain.tasks, tools.names, notes, user.names).map(
    (planned, i) => {
      const task = domain.tasks[i];
      const scenario = withPoliciesInPlay(planned, links);
      return task
        ? withUserParts(
            scenario,
            userTaskParts(task, user, tools.names, domain.userFunctions ?? [], notes, {
              tables,
              functions: domain.agentFunctions ?? [],
              known: domain,
              setup,
            }),
          )
        : scenario;
    },
  );
  const database = [...tables, ...user.tables].map((t) => ({
    name: t.name,
    ...(user.tables.includes(t) && { side: 'user' }),
    key: t.key,
    ...(t.description !== undefined ? { description: t.description } : {}),
    columns: Object.fromEntries(t.columns.map((c) => [c.name, c.spec])),
    rows: t.rows,
  }));
  const clock = statedNow(domain.policy);
  const header = (what: string) =>
    `# Imported from ${domain.source === 'tau2' ? 'tau2-bench' : 'IntellAgent'} (${domain.name}): ${what}\n`;
  const scenariosFile = (list: readonly Record<string, unknown>[]) =>
    header('one scenario per task') + yaml({ scenarios: list });
  const files: Record<ProjectFileName, string> = {
    'agent.md':
      domain.policy.trim() === ''
        ? `# ${domain.name}\n\n(The domain had no policy document.)\n`
        : domain.policy,
    'policies.yaml': header('policies extracted from agent.md') + yaml({ policies }),
    'tools.yaml':
      header('tools') +
      yaml({
        tools: [
          ...agentTools,
          ...userTools,
          ...setup.entries,
          ...(environment ? [environment] : []),
        ],
      }),
    'database.yaml':
      header('tables, sliced to what the tasks touch') +
      (clock !== undefined ? `# now: the policy states "${clock.stated}"\n` : '') +
      yaml({ ...(clock !== undefined ? { now: clock.now } : {}), tables: database }),
    'rules.yaml': `${header('no guard rules or checks yet')}guards: {}\nchecks: []\n`,
    'scenarios.yaml': scenariosFile(scenarios),
  };
  // Graded as tau2-bench grades: the end state each task's gold run reaches, made by running it
  // through the project just written.
  const { model } = parseProject(projectFromFiles(domain.name, files).project);
  // And charged as the gold run shows: what the agent must say, to the step that answered it.
  const runs = goldRuns(model, domain.tasks, { agent: tools.names, user: user.names }, notes);
  const reads = new Set(model.tools.filter((t) => t.kind === 'read').map((t) => t.name));
  for (const tool of [...tools.entries, ...user.tools])
    if (tool.kind === 'write' && policyOfTool(tool.name, links) === undefined)
      notes.push({
        file: 'policies.yaml',
        item: `tool ${tool.name}`,
        message:
          'No policy extracted from the domain’s policy governs this tool, so a scenario step that calls it is charged to no policy; link one under `tools:`.',
      });
  files['scenarios.yaml'] = scenariosFile(
    scenarios.map((planned, i) => {
      const run = runs[i];
      const scenario = attributed(planned, run, { policies: texts, reads });
      if (run?.end === undefined) return scenario;
      const expected = (scenario.expected ?? {}) as Record<string, unknown>;
      return { ...scenario, expected: { ...expected, end_state: run.end } };
    }),
  );
  return { files, notCarried: notes, toolNames: tools.names };
}

/** A scenario with its task's dual-control parts: its assertions go under `expected`. */
function withUserParts(
  scenario: Record<string, unknown>,
  parts: UserTaskParts,
): Record<string, unknown> {
  const { user_assertions: userAssertions, database, not_checked: notChecked, ...rest } = parts;
  const expected = (scenario.expected ?? {}) as Record<string, unknown>;
  const more = {
    ...(userAssertions && { user_assertions: userAssertions }),
    ...(database && { database }),
    ...(notChecked && { not_checked: notChecked }),
  };
  return {
    ...scenario,
    ...rest,
    ...(Object.keys(more).length > 0 && { expected: { ...expected, ...more } }),
  };
}
