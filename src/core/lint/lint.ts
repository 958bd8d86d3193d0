import type { Diagnostic, Severity } from '../diagnostics.ts';
import { LineIndex, diagnosticAt } from '../diagnostics.ts';
import type { YamlFile } from '../format/yamlFile.ts';
import { policySpans } from '../graph/locate.ts';
import type { ParsedProject } from '../format/parseProject.ts';
import type { GuardRule, Policy, ProjectModel, Tool } from '../format/model.ts';
import type { PastCall } from '../rules/guards.ts';
import { CEL_STEP_BUDGET, withCelBudget } from '../celMeter.ts';
import { evaluateRule, guardVariables, typedCall } from '../rules/guards.ts';
import { seedDatabase } from '../sim/database.ts';
import { words } from '../text.ts';
import { expectsSomething, policyCoverage } from './coverage.ts';
import { similarPairs } from './similar.ts';

/** Two policies whose word sets overlap at least this much read as one policy written twice. */
const NEAR_DUPLICATE_SIMILARITY = 0.75;
/** Shorter policies are too terse for word overlap to mean anything. */
const NEAR_DUPLICATE_MIN_WORDS = 4;
/** Bounds the inputs tried per tool when looking for rules that contradict. */
const MAX_TRIALS_PER_TOOL = 80;
/** Bounds the rule evaluations of the whole search, shared among the tools that need one. */
const MAX_EVALUATIONS = 2_500;
/**
 * Rows per table in the database the search runs against. Any database state gives a valid
 * witness, and conditions that loop over tables cost rows squared, so a small one keeps lint fast.
 */
const SEARCH_ROWS_PER_TABLE = 4;
/** The clock lint uses; only conditions that read `now` see it. */
const LINT_NOW = '2026-01-01T00:00:00Z';

/**
 * Finds what parses but will mislead: untestable policies (and, as notes, those only a judge
 * model can report on), rules that never decide or that contradict each other, scenarios that
 * pass on their own, unguarded writes, duplicated policies.
 */
export function lintProject(parsed: ParsedProject): Diagnostic[] {
  const { model, files } = parsed;
  const out: Diagnostic[] = [];
  const policies = files['policies.yaml'];
  const rules = files['rules.yaml'];

  // Policies that nothing can test (a warning), and those only a judge model can report on (a
  // note: for a policy about tone or judgement, a judge may be all there can be).
  const tested = new Set<string>([
    ...model.guards.flatMap((g) => g.rules.map((r) => r.policy)),
    ...model.checks.map((c) => c.policy),
    ...model.scenarios.flatMap((s) => s.policies),
  ]);
  const coverage = policyCoverage(model);
  const atId = idLocator(policies);
  for (const policy of model.policies) {
    if (!tested.has(policy.id)) {
      out.push(
        atId(
          policy,
          'warning',
          'untestable-policy',
          `No rule, check or scenario tests "${policy.id}", so no run can tell whether it holds.`,
        ),
      );
    } else if (coverage.get(policy.id)?.length === 0) {
      out.push(
        atId(
          policy,
          'info',
          'judge-only-policy',
          `Only a judge model can report on "${policy.id}": no guard rule, transcript check or scenario expectation names it.`,
        ),
      );
    }
  }

  // Policies written twice.
  for (const [later, earlier] of nearDuplicatePairs(model)) {
    out.push(
      policies.at(
        [...later.path, 'text'],
        'warning',
        'near-duplicate',
        `This reads almost like "${earlier.id}". Merge them, or say what sets them apart.`,
      ),
    );
  }

  // Guards: rules that never decide, rules that contradict, tools that refuse everything.
  for (const guards of model.guards) {
    const seen: GuardRule[] = [];
    // The first earlier rule with each (normalised) condition.
    const byCondition = new Map<string, GuardRule>();
    for (const rule of guards.rules) {
      const unconditional = seen.find((r) => r.when === undefined);
      const condition = rule.when === undefined ? undefined : normalize(rule.when);
      const same = condition === undefined ? undefined : byCondition.get(condition);
      if (condition !== undefined && !same) byCondition.set(condition, rule);
      if (unconditional) {
        out.push(
          rules.at(
            [...rule.path, 'id'],
            'warning',
            'shadowed-rule',
            `"${rule.id}" is never reached: "${unconditional.id}" above has no condition and decides every call.`,
          ),
        );
      } else if (same) {
        const verb = same.decision === rule.decision ? 'repeats' : 'contradicts';
        out.push(
          rules.at(
            [...rule.path, 'when'],
            'warning',
            verb === 'repeats' ? 'shadowed-rule' : 'contradicting-rules',
            `"${rule.id}" ${verb} "${same.id}" above (same condition), so it never decides.`,
          ),
        );
      }
      seen.push(rule);
    }
    if (guards.defaultDecision === 'deny' && !guards.rules.some((r) => r.decision === 'allow')) {
      out.push(
        rules.atKey(
          guards.path,
          'warning',
          'always-denied',
          `"${guards.tool}" is denied by default and no rule allows it, so every call to it fails.`,
        ),
      );
    }
  }
  // The search evaluates conditions up to MAX_EVALUATIONS times: 20 budgets in all, however
  // costly each condition (celMeter.ts); past them, no more contradictions are found.
  out.push(...withCelBudget(() => findContradictions(model, parsed), 'lint', 20 * CEL_STEP_BUDGET));

  // Scenarios that expect nothing pass on their own.
  const scenarioFile = files['scenarios.yaml'];
  for (const scenario of model.scenarios) {
    if (!expectsSomething(scenario.expected)) {
      out.push(
        scenarioFile.at(
          [...scenario.path, 'id'],
          'warning',
          'empty-expectations',
          (scenario.expected.assertions ?? []).length > 0
            ? `"${scenario.id}" expects nothing the checks can judge (its assertions are only the judge's opinion), so it passes even if the agent does nothing. Add an expected outcome.`
            : `"${scenario.id}" expects nothing, so it passes even if the agent does nothing. Add an expected outcome.`,
        ),
      );
    }
  }

  // Tools whose behaviour is missing: a call to one ends the dialogue as an error.
  const toolsFile = files['tools.yaml'];
  for (const tool of model.tools)
    if (tool.notImported !== undefined)
      out.push(
        toolsFile.at(
          [...tool.path, 'not_imported'],
          'warning',
          'tool-not-imported',
          `"${tool.name}" was not imported (${tool.notImported.replace(/\.$/, '')}): a dialogue that calls it ends as an error. Write its effects and returns, then remove not_imported.`,
        ),
      );

  // Writes that nothing guards.
  for (const tool of model.tools) {
    // A user's tool (dual control) is the user's to call; guard rules hold only the agent.
    if (tool.kind !== 'write' || tool.side === 'user') continue;
    const guards = model.guards.find((g) => g.tool === tool.name);
    if (!guards || (guards.rules.length === 0 && guards.defaultDecision === 'allow')) {
      out.push(
        toolsFile.at(
          [...tool.path, 'name'],
          'warning',
          'unguarded-write',
          `"${tool.name}" changes the database but no guard rule covers it.`,
        ),
      );
    }
  }
  return out;
}

/** Pairs of policies (later, earlier) that read alike; each later policy reported once. */
function nearDuplicatePairs(model: ProjectModel): [Policy, Policy][] {
  const sets = model.policies.map((p) => words(p.text));
  return similarPairs(sets, NEAR_DUPLICATE_SIMILARITY, NEAR_DUPLICATE_MIN_WORDS).flatMap(
    ([later, earlier]) => {
      const a = model.policies[later];
      const b = model.policies[earlier];
      return a && b ? [[a, b] as [Policy, Policy]] : [];
    },
  );
}

function normalize(condition: string): string {
  return condition.replace(/\s+/g, '').replace(/'/g, '"');
}

/**
 * Looks for inputs on which an allow rule and a forbid rule of one tool both match: the earlier
 * one wins there, which is rarely what the author of the later one meant. Inputs are built from
 * the tool's parameter schema, the literals its conditions compare against, and the seed data.
 */
function findContradictions(model: ProjectModel, parsed: ParsedProject): Diagnostic[] {
  const out: Diagnostic[] = [];
  const rulesFile = parsed.files['rules.yaml'];
  const db = Object.fromEntries(
    Object.entries(seedDatabase(model).db).map(([table, rows]) => [
      table,
      rows.slice(0, SEARCH_ROWS_PER_TABLE),
    ]),
  );
  const searched = model.guards.filter(
    (g) => new Set(g.rules.filter((r) => r.when !== undefined).map((r) => r.decision)).size > 1,
  );
  const evaluationsPerTool = MAX_EVALUATIONS / Math.max(1, searched.length);
  const keyValues = model.tables
    .flatMap((t) => t.rows.slice(0, 2).map((r) => r[t.key]))
    .filter((v) => typeof v === 'string');
  for (const guards of searched) {
    const conditional = guards.rules.filter((r) => r.when !== undefined);
    const tool = model.tools.find((t) => t.name === guards.tool);
    if (!tool) continue;
    const reported = new Set<string>();
    const histories = candidateHistories(model, {}).length;
    const trials = Math.max(4, Math.floor(evaluationsPerTool / (conditional.length * histories)));
    for (const args of candidateArgs(tool, conditional, keyValues, trials)) {
      for (const history of candidateHistories(model, args)) {
        const variables = guardVariables(typedCall(model, { tool: tool.name, args }), {
          db,
          history: history.map((past) => typedCall(model, past)),
          now: model.now ?? LINT_NOW,
        });
        const matching = conditional.filter(
          (rule) => evaluateRule(rule, variables).outcome === 'matched',
        );
        const first = matching[0];
        const clash = matching.find((r) => r.decision !== first?.decision);
        if (!first || !clash || reported.has(clash.id)) continue;
        reported.add(clash.id);
        out.push(
          rulesFile.at(
            [...clash.path, 'when'],
            'warning',
            'contradicting-rules',
            `"${clash.id}" (${clash.decision}) and "${first.id}" (${first.decision}) both match ${describeInput(args, history)}; "${first.id}" comes first and wins.`,
          ),
        );
      }
    }
  }
  return out;
}

function describeInput(
  args: Readonly<Record<string, unknown>>,
  history: readonly PastCall[],
): string {
  const shown = JSON.stringify(args);
  return history.length === 0
    ? `arguments ${shown}`
    : `arguments ${shown} after ${history.map((h) => h.tool).join(', ')}`;
}

function candidateHistories(
  model: ProjectModel,
  args: Readonly<Record<string, unknown>>,
): PastCall[][] {
  const reads = model.tools
    .filter((t) => t.kind === 'read')
    .map((t) => ({ tool: t.name, args, allowed: true }));
  return reads.length === 0 ? [[]] : [[], reads];
}

function candidateArgs(
  tool: Tool,
  rules: readonly GuardRule[],
  keyValues: readonly unknown[],
  limit: number,
): Record<string, unknown>[] {
  const text = rules.map((r) => r.when ?? '').join(' ');
  const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const strings = [...text.matchAll(/"([^"\\]*)"/g)].map((m) => m[1] ?? '');
  const options: [string, unknown[]][] = Object.entries(tool.parameters.properties ?? {}).map(
    ([name, spec]) => {
      const type = spec.type;
      if (Array.isArray(spec.enum)) return [name, spec.enum as unknown[]];
      if (type === 'integer' || type === 'number') {
        return [name, unique([0, 1, ...numbers.flatMap((n) => [n - 1, n, n + 1])])];
      }
      if (type === 'boolean') return [name, [true, false]];
      if (type === 'array') return [name, [[], strings.slice(0, 2)]];
      return [name, unique(['x', ...strings, ...keyValues])];
    },
  );
  let combos: Record<string, unknown>[] = [{}];
  for (const [name, values] of options) {
    const next: Record<string, unknown>[] = [];
    for (const combo of combos) {
      for (const value of values) {
        if (next.length >= Math.min(limit, MAX_TRIALS_PER_TOOL)) break;
        next.push({ ...combo, [name]: value });
      }
    }
    combos = next;
  }
  return combos;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** The quotes a YAML id may be written in. */
const QUOTES: ReadonlySet<string> = new Set(["'", '"']);

/**
 * Places a diagnostic on a policy's id. Block-style items are found by reading lines
 * (`policySpans`), which a file of a thousand policies with hundreds of notes needs: the YAML
 * document that keeps every position is built only for ids that reading cannot find.
 */
function idLocator(policies: YamlFile) {
  let spans: Map<string, number> | undefined;
  let lines: LineIndex | undefined;
  return (policy: Policy, severity: Severity, code: string, message: string): Diagnostic => {
    if (!spans) {
      // An id written twice is left to the document, which knows which item is which.
      const found = policySpans(policies.text);
      const seen = new Map<string, number>();
      for (const span of found) seen.set(span.id, (seen.get(span.id) ?? 0) + 1);
      spans = new Map(
        found.flatMap((s) => (seen.get(s.id) === 1 ? [[s.id, s.idAt] as const] : [])),
      );
    }
    const at = spans.get(policy.id);
    // A quoted id is marked with its quotes, as the document marks it.
    const plain =
      at !== undefined &&
      policies.text.slice(at, at + policy.id.length) === policy.id &&
      !QUOTES.has(policies.text.charAt(at - 1));
    if (!plain) return policies.at([...policy.path, 'id'], severity, code, message);
    lines ??= new LineIndex(policies.text);
    return diagnosticAt(
      'policies.yaml',
      lines,
      { start: at, end: at + policy.id.length },
      severity,
      code,
      message,
    );
  };
}
