import { stringify } from 'yaml';
import type { ProjectFileName } from '../../project.ts';
import type { ImportedDomain } from '../domain.ts';
import type { CarryNote } from './carry.ts';
import { statedNow } from './clock.ts';
import { validatorNotes } from './validators.ts';
import { planTables } from './database.ts';
import { planPolicies } from './policies.ts';
import { planScenarios } from './scenarios.ts';
import { planTools } from './tools.ts';

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
  const tools = planTools(domain.tools, tables, notes);
  for (const tool of domain.userTools ?? [])
    notes.push({
      file: 'tools.yaml',
      item: `user tool ${tool.name}`,
      message:
        'A tool the user calls on their own device (dual control) has no place yet; left out.',
    });
  const scenarios = planScenarios(domain.tasks, tools.names, notes);
  const policies = planPolicies(
    domain.policy,
    tools.entries.map((t) => ({ name: t.name, description: t.description })),
  );
  const database = tables.map((t) => ({
    name: t.name,
    key: t.key,
    ...(t.description !== undefined ? { description: t.description } : {}),
    columns: Object.fromEntries(t.columns.map((c) => [c.name, c.spec])),
    rows: t.rows,
  }));
  const clock = statedNow(domain.policy);
  const header = (what: string) =>
    `# Imported from ${domain.source === 'tau2' ? 'tau2-bench' : 'IntellAgent'} (${domain.name}): ${what}\n`;
  return {
    files: {
      'agent.md':
        domain.policy.trim() === ''
          ? `# ${domain.name}\n\n(The domain had no policy document.)\n`
          : domain.policy,
      'policies.yaml': header('policies extracted from agent.md') + yaml({ policies }),
      'tools.yaml': header('tools') + yaml({ tools: tools.entries }),
      'database.yaml':
        header('tables, sliced to what the tasks touch') +
        (clock !== undefined ? `# now: the policy states "${clock.stated}"\n` : '') +
        yaml({ ...(clock !== undefined ? { now: clock.now } : {}), tables: database }),
      'rules.yaml': `${header('no guard rules or checks yet')}guards: {}\nchecks: []\n`,
      'scenarios.yaml': header('one scenario per task') + yaml({ scenarios }),
    },
    notCarried: notes,
    toolNames: tools.names,
  };
}
