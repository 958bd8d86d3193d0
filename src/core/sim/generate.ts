import { celSelect } from '../celVariables.ts';
import type { ProjectModel, Row } from '../format/model.ts';
import type { ChatEngine, ChatMessage } from '../models/chat.ts';
import { ModelError } from '../models/errors.ts';
import type { Player } from './dialogue.ts';
import type { SimScenario } from './events.ts';
import type { CallContext } from './modelCall.ts';
import { loggedChat } from './modelCall.ts';
import type { PromptTemplate } from './prompts.ts';
import {
  GENERATOR_ASKS,
  SCENARIO_GENERATOR_PROMPT,
  generatorFix,
  renderPrompt,
} from './prompts.ts';
import { scenarioProblems } from './scenarios.ts';

/** A combination of policies to write a scenario for, and its level (a graph sample fits). */
export interface ScenarioSample {
  readonly policies: readonly string[];
  readonly level: number;
}

/** What generating scenarios needs: the generator model, time, money and where usage goes. */
export interface GenerateDeps extends CallContext {
  readonly generator: Player;
  /** Follow-up turns asking to fix an invalid scenario; 2 unless given. */
  readonly maxRepairs?: number;
  /** Replaces `SCENARIO_GENERATOR_PROMPT` (a project's own version). */
  readonly template?: PromptTemplate;
  /** Sent as the request's sampling seed, for providers that honour one (plus n for sample n). */
  readonly seed?: number;
}

/** The JSON a generator answers with; `rows` and `expected.database` are checked afterwards. */
export const SCENARIO_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: {
    persona: { type: 'string', minLength: 1 },
    goal: { type: 'string', minLength: 1 },
    knows: { type: 'array', items: { type: 'string' } },
    unknown: { type: 'array', items: { type: 'string' } },
    rows: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'object' } },
    },
    expected: {
      type: 'object',
      properties: Object.fromEntries(
        ['database', 'required_actions', 'forbidden_actions', 'must_say', 'must_not_say'].map(
          (name) => [name, { type: 'array', items: { type: 'string' } }],
        ),
      ),
      required: ['database', 'required_actions', 'forbidden_actions', 'must_say', 'must_not_say'],
      additionalProperties: false,
    },
  },
  required: ['persona', 'goal', 'knows', 'unknown', 'rows', 'expected'],
  additionalProperties: false,
};

/** A scenario as the generator writes it (scenarios.yaml's field names), before it has an id. */
export interface GeneratedJson {
  readonly persona: string;
  readonly goal: string;
  readonly knows: readonly string[];
  readonly unknown: readonly string[];
  readonly rows: Readonly<Record<string, readonly Row[]>>;
  readonly expected: Readonly<
    Record<
      'database' | 'required_actions' | 'forbidden_actions' | 'must_say' | 'must_not_say',
      readonly string[]
    >
  >;
}

/**
 * Asks the generator model for a scenario that stresses exactly `sample.policies` and checks
 * it against the project (`scenarioProblems`: rows, database assertions on the seeded database,
 * actions, phrases). An invalid scenario is sent back with every problem named, at most
 * `maxRepairs` times; after that it throws a `schema-violation` ModelError naming the problems.
 * Provider failures and unusable JSON throw the ModelError `checkedChat` gives. Emits a `usage`
 * event for each call. Throws a RangeError, calling no model, when a policy is not in the project.
 */
export function generateScenario(
  model: ProjectModel,
  sample: ScenarioSample,
  id: string,
  deps: GenerateDeps,
): Promise<SimScenario> {
  return writeScenario(model, sample, id, deps, { attempts: 0 });
}

/** `generateScenario`, counting the generator's answers in `tried` (kept when it throws). */
async function writeScenario(
  model: ProjectModel,
  sample: ScenarioSample,
  id: string,
  deps: GenerateDeps,
  tried: { attempts: number },
): Promise<SimScenario> {
  const missing = sample.policies.filter((p) => !model.policies.some((q) => q.id === p));
  if (missing.length > 0)
    throw new RangeError(
      `The project has no polic${missing.length === 1 ? 'y' : 'ies'} ${missing.map((p) => `"${p}"`).join(', ')}.`,
    );
  const messages: ChatMessage[] = [
    { role: 'system', content: scenarioGeneratorPrompt(model, sample, deps.template) },
    { role: 'user', content: GENERATOR_ASKS },
  ];
  // Every answer counts as a try, the repair turns inside checkedChat included.
  const generator: ChatEngine = {
    chat: (request, options) => {
      const answer = deps.generator.engine.chat(request, options);
      // Counted beside the answer, which is handed on untouched (no extra await in its way).
      answer.then(
        () => tried.attempts++,
        () => undefined,
      );
      return answer;
    },
  };
  const maxRepairs = Math.max(0, deps.maxRepairs ?? 2);
  for (let repairs = 0; ; repairs++) {
    if (deps.signal?.aborted) throw new ModelError('aborted', 'Generation was stopped.');
    const answer = await loggedChat(
      'generator',
      { engine: generator, model: deps.generator.model },
      {
        messages,
        responseSchema: { name: 'scenario', schema: SCENARIO_SCHEMA },
        temperature: 0.9,
        maxTokens: 2000,
        ...(deps.seed === undefined ? {} : { seed: deps.seed }),
      },
      deps,
    );
    if (answer.json === undefined)
      throw new ModelError('malformed-output', 'The generator answered without a JSON scenario.');
    const scenario = scenarioOf(answer.json as GeneratedJson, sample, id);
    const problems = scenarioProblems(model, scenario);
    if (problems.length === 0) return scenario;
    if (repairs >= maxRepairs) {
      const tries = maxRepairs === 0 ? '' : ` after ${maxRepairs} request(s) to fix it`;
      throw new ModelError(
        'schema-violation',
        `The generated scenario for ${sample.policies.join(', ')} is still invalid${tries}: ${problems.join(' ')}`,
      );
    }
    messages.push(
      { role: 'assistant', content: answer.message.content },
      {
        role: 'user',
        content: generatorFix(problems),
      },
    );
  }
}

function scenarioOf(json: GeneratedJson, sample: ScenarioSample, id: string): SimScenario {
  return {
    id,
    policies: sample.policies,
    level: sample.level,
    persona: json.persona,
    goal: json.goal,
    knows: json.knows,
    unknown: json.unknown,
    rows: json.rows,
    expected: {
      database: json.expected.database,
      requiredActions: json.expected.required_actions,
      forbiddenActions: json.expected.forbidden_actions,
      mustSay: json.expected.must_say,
      mustNotSay: json.expected.must_not_say,
    },
  };
}

/** A sample no scenario could be written for, and why. */
export interface GenerationFailure {
  readonly sample: ScenarioSample;
  readonly error: string;
  /** Answers the generator gave for it, repair turns included (0 when none could be asked). */
  readonly attempts: number;
}

/**
 * Writes a scenario for each sample, `concurrency` at a time (1 unless given). Ids are
 * `gen-<n>`, n counting samples from 1, whatever order they finish in; results keep the
 * samples' order. A sample that fails (a ModelError or an unknown policy) becomes a failure and
 * the rest go on. Once `signal` is aborted or `overBudget()` says so, no further sample starts and
 * the ones stopped mid-way are neither scenarios nor failures. `onScenario` hears of each
 * scenario as it is made, so a run can log it at once.
 */
export async function generateScenarios(
  model: ProjectModel,
  samples: readonly ScenarioSample[],
  deps: GenerateDeps & {
    readonly concurrency?: number;
    readonly overBudget?: () => boolean;
    readonly onScenario?: (scenario: SimScenario) => void;
    /** Which scenario ids to write (a shard's); the rest are skipped, keeping their numbers. */
    readonly include?: (id: string) => boolean;
  },
): Promise<{ scenarios: SimScenario[]; failures: GenerationFailure[] }> {
  const results: ({ scenario: SimScenario } | GenerationFailure | undefined)[] = samples.map(
    () => undefined,
  );
  let next = 0;
  const worker = async () => {
    while (next < samples.length) {
      if (deps.signal?.aborted || deps.overBudget?.()) return;
      const index = next++;
      const sample = samples[index];
      if (!sample) return;
      if (deps.include && !deps.include(`gen-${index + 1}`)) continue;
      const tried = { attempts: 0 };
      try {
        // Each sample its own seed, so two samples alike do not get the same scenario.
        const seeded = deps.seed === undefined ? deps : { ...deps, seed: deps.seed + index };
        const scenario = await writeScenario(model, sample, `gen-${index + 1}`, seeded, tried);
        results[index] = { scenario };
        deps.onScenario?.(scenario);
      } catch (error) {
        if (error instanceof ModelError && error.kind === 'aborted' && deps.signal?.aborted) return;
        if (!(error instanceof ModelError || error instanceof RangeError)) throw error;
        results[index] = { sample, error: error.message, attempts: tried.attempts };
      }
    }
  };
  const workers = Math.max(1, Math.min(deps.concurrency ?? 1, samples.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return {
    scenarios: results.flatMap((r) => (r && 'scenario' in r ? [r.scenario] : [])),
    failures: results.flatMap((r) => (r && 'error' in r ? [r] : [])),
  };
}

/** The generator's system prompt for a sample: the template filled in from the project. */
export function scenarioGeneratorPrompt(
  model: ProjectModel,
  sample: ScenarioSample,
  template: PromptTemplate = SCENARIO_GENERATOR_PROMPT,
): string {
  const policies = sample.policies.flatMap((id) => {
    const p = model.policies.find((q) => q.id === id);
    if (!p) return [];
    const tools = p.tools.length === 0 ? '' : ` (tools: ${p.tools.join(', ')})`;
    return [`- ${p.id} [${p.category}, challenge ${p.challenge}]: ${p.text}${tools}`];
  });
  const tools = model.tools.map((t) => {
    const required = new Set(t.parameters.required ?? []);
    const params = Object.entries(t.parameters.properties ?? {}).map(([name, schema]) => {
      const type =
        typeof schema.type === 'string'
          ? schema.type
          : schema.type === undefined
            ? 'any'
            : JSON.stringify(schema.type);
      const choices = Array.isArray(schema.enum) ? `, one of ${JSON.stringify(schema.enum)}` : '';
      return `${name}: ${type}${choices}${required.has(name) ? ' (required)' : ''}`;
    });
    return `- ${t.name} (${t.kind}): ${t.description}\n  parameters: ${params.join('; ') || 'none'}`;
  });
  const tables = model.tables.map((t) => {
    const columns = t.columns.map((c) =>
      [
        `${c.name} ${c.type}`,
        c.enum ? `one of ${JSON.stringify(c.enum)}` : '',
        c.nullable ? 'nullable' : '',
        c.references === undefined ? '' : `references ${c.references}`,
        c.schema === undefined ? '' : `each value fits ${JSON.stringify(c.schema)}`,
      ]
        .filter(Boolean)
        .join(', '),
    );
    const shown = t.rows.slice(0, 3).map((r) => `    ${JSON.stringify(r)}`);
    const more = t.rows.length > 3 ? ` (3 of ${t.rows.length})` : '';
    const rows = shown.length === 0 ? '  no rows yet' : `  rows${more}:\n${shown.join('\n')}`;
    return `- ${t.name} (key: ${t.key})\n  columns: ${columns.join('; ')}\n${rows}`;
  });
  const agent = model.prompt.length > 6000 ? `${model.prompt.slice(0, 6000)}\n[…]` : model.prompt;
  return renderPrompt(template, {
    agent,
    level: String(sample.level),
    policies: policies.join('\n'),
    tools: tools.join('\n') || '(none)',
    tables: tables.join('\n') || '(none)',
    examples: celExamples(model),
  });
}

/** Example conditions written with the project's own first table, so they are copyable. */
function celExamples(model: ProjectModel): string {
  const table = model.tables[0];
  const name = table?.name ?? 'orders';
  const key = table?.key ?? 'id';
  const row = table?.rows[0];
  const keyValue = JSON.stringify(row?.[key] ?? 'K1');
  const other = table?.columns.find((c) => c.name !== key);
  const otherName = other?.name ?? 'status';
  const otherValue = JSON.stringify(other?.enum?.[0] ?? row?.[otherName] ?? 'open');
  const rows = celSelect('db', name);
  const keyOf = celSelect('r', key);
  const otherOf = celSelect('r', otherName);
  return [
    `  ${rows}.exists(r, ${keyOf} == ${keyValue} && ${otherOf} == ${otherValue})`,
    `  !${rows}.exists(r, ${keyOf} == ${keyValue})`,
    `  ${rows}.all(r, ${otherOf} != ${otherValue})`,
    `  size(${rows}.filter(r, ${otherOf} == ${otherValue})) == 1`,
  ].join('\n');
}
