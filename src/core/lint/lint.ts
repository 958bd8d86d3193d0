import type { Diagnostic } from '../diagnostics.ts';
import type { ParsedProject } from '../format/parseProject.ts';
import type { GuardRule, ProjectModel, Tool } from '../format/model.ts';
import type { GuardContext, PastCall } from '../rules/guards.ts';
import { decideToolCall, seedDatabase } from '../rules/guards.ts';
import { words } from '../text.ts';

/** Two policies whose word sets overlap at least this much read as one policy written twice. */
const NEAR_DUPLICATE_SIMILARITY = 0.75;
/** Bounds the inputs tried per tool when looking for rules that contradict. */
const MAX_TRIALS_PER_TOOL = 80;
/**
 * Rows per table in the database the search runs against. Any database state gives a valid
 * witness, and conditions that loop over tables cost rows squared, so a small one keeps lint fast.
 */
const SEARCH_ROWS_PER_TABLE = 4;
/** The clock lint uses; only conditions that read `now` see it. */
const LINT_NOW = '2026-01-01T00:00:00Z';

/**
 * Finds what parses but will mislead: untestable policies, rules that never decide or that
 * contradict each other, scenarios that pass on their own, unguarded writes, duplicated policies.
 */
export function lintProject(parsed: ParsedProject): Diagnostic[] {
  const { model, files } = parsed;
  const out: Diagnostic[] = [];
  const policies = files['policies.yaml'];
  const rules = files['rules.yaml'];

  // Policies that nothing can test.
  const tested = new Set<string>([
    ...model.guards.flatMap((g) => g.rules.map((r) => r.policy)),
    ...model.checks.map((c) => c.policy),
    ...model.scenarios.flatMap((s) => s.policies),
  ]);
  for (const policy of model.policies) {
    if (!tested.has(policy.id)) {
      out.push(
        policies.at(
          [...policy.path, 'id'],
          'warning',
          'untestable-policy',
          `No rule, check or scenario tests "${policy.id}", so no run can tell whether it holds.`,
        ),
      );
    }
  }

  // Policies written twice.
  const wordSets = model.policies.map((p) => new Set(words(p.text)));
  for (let j = 0; j < model.policies.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = wordSets[i];
      const b = wordSets[j];
      const later = model.policies[j];
      const earlier = model.policies[i];
      if (!a || !b || !later || !earlier || Math.min(a.size, b.size) < 4) continue;
      if (jaccard(a, b) >= NEAR_DUPLICATE_SIMILARITY) {
        out.push(
          policies.at(
            [...later.path, 'text'],
            'warning',
            'near-duplicate',
            `This reads almost like "${earlier.id}". Merge them, or say what sets them apart.`,
          ),
        );
        break;
      }
    }
  }

  // Guards: rules that never decide, rules that contradict, tools that refuse everything.
  for (const guards of model.guards) {
    const seen: GuardRule[] = [];
    for (const rule of guards.rules) {
      const unconditional = seen.find((r) => r.when === undefined);
      const same = seen.find(
        (r) => r.when !== undefined && normalize(r.when) === normalize(rule.when ?? ''),
      );
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
  out.push(...findContradictions(model, parsed));

  // Scenarios that expect nothing pass on their own.
  const scenarioFile = files['scenarios.yaml'];
  for (const scenario of model.scenarios) {
    const e = scenario.expected;
    const count =
      e.database.length +
      e.requiredActions.length +
      e.forbiddenActions.length +
      e.mustSay.length +
      e.mustNotSay.length;
    if (count === 0) {
      out.push(
        scenarioFile.at(
          [...scenario.path, 'id'],
          'warning',
          'empty-expectations',
          `"${scenario.id}" expects nothing, so it passes even if the agent does nothing. Add an expected outcome.`,
        ),
      );
    }
  }

  // Writes that nothing guards.
  const toolsFile = files['tools.yaml'];
  for (const tool of model.tools) {
    if (tool.kind !== 'write') continue;
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

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
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
    Object.entries(seedDatabase(model)).map(([table, rows]) => [
      table,
      rows.slice(0, SEARCH_ROWS_PER_TABLE),
    ]),
  );
  for (const guards of model.guards) {
    const conditional = guards.rules.filter((r) => r.when !== undefined);
    const decisions = new Set(conditional.map((r) => r.decision));
    if (decisions.size < 2) continue;
    const tool = model.tools.find((t) => t.name === guards.tool);
    if (!tool) continue;
    const reported = new Set<string>();
    for (const args of candidateArgs(tool, conditional, model)) {
      for (const history of candidateHistories(model, args)) {
        const context: GuardContext = { db, history, now: LINT_NOW };
        const matching = conditional.filter((rule) => {
          const decision = decideToolCall(
            { ...model, guards: [{ ...guards, rules: [rule] }] },
            { tool: tool.name, args },
            context,
          );
          return decision.decidedBy.kind === 'rule' && decision.trace[0]?.outcome === 'matched';
        });
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
  model: ProjectModel,
): Record<string, unknown>[] {
  const text = rules.map((r) => r.when ?? '').join(' ');
  const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const strings = [...text.matchAll(/"([^"\\]*)"/g)].map((m) => m[1] ?? '');
  const keyValues = model.tables
    .flatMap((t) => t.rows.slice(0, 3).map((r) => r[t.key]))
    .filter((v) => typeof v === 'string');
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
        if (next.length >= MAX_TRIALS_PER_TOOL) break;
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
