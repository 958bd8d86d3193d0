import type { Diagnostic } from '../diagnostics.ts';
import { LineIndex, sortDiagnostics } from '../diagnostics.ts';
import type { Project } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import {
  buildPolicies,
  buildPrompts,
  buildRules,
  buildScenarios,
  buildTables,
  buildTools,
} from './buildModel.ts';
import { buildClock } from './clock.ts';
import type { ProjectModel } from './model.ts';
import type { YamlFiles } from './references.ts';
import { sizeProblems } from './limits.ts';
import { checkPrompts } from './promptChecks.ts';
import { checkReferences } from './references.ts';
import {
  DATABASE_SCHEMA,
  POLICIES_SCHEMA,
  RULES_SCHEMA,
  SCENARIOS_SCHEMA,
  TOOLS_SCHEMA,
} from './schemas.ts';
import { validateAgainstSchema } from './validate.ts';
import type { YamlFile } from './yamlFile.ts';
import { parseYamlFile } from './yamlFile.ts';

/** The result of reading a project: its model, the parsed files and every problem found. */
export interface ParsedProject {
  readonly model: ProjectModel;
  readonly files: YamlFiles;
  readonly diagnostics: readonly Diagnostic[];
}

const SCHEMAS = {
  'policies.yaml': POLICIES_SCHEMA,
  'tools.yaml': TOOLS_SCHEMA,
  'database.yaml': DATABASE_SCHEMA,
  'rules.yaml': RULES_SCHEMA,
  'scenarios.yaml': SCENARIOS_SCHEMA,
} as const;

/**
 * Reads a project's six files into its model. Never throws: YAML errors, schema errors and broken
 * references all come back as diagnostics, and whatever could be read is in the model.
 */
export function parseProject(project: Project): ParsedProject {
  const tooLarge = sizeProblems(project.files);
  if (tooLarge.length > 0) return { ...parseProject(blank(project)), diagnostics: tooLarge };
  const diagnostics: Diagnostic[] = [];
  const parse = (name: keyof typeof SCHEMAS) => {
    const { file, schemaDiagnostics } = parseFileCached(name, project.files[name]);
    // A loop, not push(...): a file may hold more problems than a call may take arguments.
    for (const d of file.diagnostics) diagnostics.push(d);
    for (const d of schemaDiagnostics) diagnostics.push(d);
    return file;
  };
  const files: YamlFiles = {
    'policies.yaml': parse('policies.yaml'),
    'tools.yaml': parse('tools.yaml'),
    'database.yaml': parse('database.yaml'),
    'rules.yaml': parse('rules.yaml'),
    'scenarios.yaml': parse('scenarios.yaml'),
  };
  const { policies, relations } = buildPolicies(files['policies.yaml'].value);
  const { guards, checks } = buildRules(files['rules.yaml'].value);
  const now = buildClock(files['database.yaml'].value);
  const model: ProjectModel = {
    prompt: project.files['agent.md'],
    policies,
    relations,
    tools: buildTools(files['tools.yaml'].value),
    tables: buildTables(files['database.yaml'].value),
    guards,
    checks,
    scenarios: buildScenarios(files['scenarios.yaml'].value),
    prompts: buildPrompts(files['scenarios.yaml'].value),
    ...(now !== undefined && { now }),
  };
  const promptLines = new LineIndex(project.files['agent.md']).lineCount;
  diagnostics.push(
    ...checkReferences(model, files, promptLines),
    ...checkPrompts(model.prompts, files['scenarios.yaml']),
  );
  return {
    model,
    files,
    diagnostics: sortDiagnostics(
      diagnostics,
      PROJECT_FILES.map((f) => f.name),
    ),
  };
}

/** The project with every file empty: what is read of one past the size limits. */
function blank(project: Project): Project {
  const files = Object.fromEntries(PROJECT_FILES.map((f) => [f.name, ''])) as Project['files'];
  return { ...project, files };
}

/**
 * Parsing and schema-checking a file depend on its text alone, so the last result per file is
 * kept: typing in one file re-reads that file only. (The cache is plain memoisation: it holds no
 * state that could change a result.)
 */
const lastParse = new Map<
  string,
  { text: string; file: YamlFile; schemaDiagnostics: Diagnostic[] }
>();

function parseFileCached(name: keyof typeof SCHEMAS, text: string) {
  const cached = lastParse.get(name);
  if (cached?.text === text) return cached;
  const file = parseYamlFile(name, text);
  const entry = { text, file, schemaDiagnostics: validateAgainstSchema(file, SCHEMAS[name]) };
  lastParse.set(name, entry);
  return entry;
}
