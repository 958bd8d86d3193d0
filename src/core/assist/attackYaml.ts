import { applySplices, parseForEdit, planAppend } from '../format/yamlEdit.ts';
import type { GeneratedJson } from '../sim/generate.ts';

/** A scenario written by the attack writer, in the fields scenarios.yaml spells out. */
export interface AttackScenario extends GeneratedJson {
  readonly id: string;
  readonly tags: readonly string[];
  readonly tactic?: string;
  readonly twinOf?: string;
  readonly policies: readonly string[];
}

/** The result of appending scenarios to scenarios.yaml: the new text, or why it cannot be done. */
export type ScenariosEdit =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/**
 * A scenario as the mapping scenarios.yaml holds, keys in the order people write them and empty
 * lists and maps left out, so the appended text reads like a hand-written entry.
 */
export function attackScenarioValue(scenario: AttackScenario): Record<string, unknown> {
  const some = <T>(key: string, value: readonly T[]) => (value.length > 0 ? { [key]: value } : {});
  const expected = Object.fromEntries(
    Object.entries(scenario.expected).filter(([, list]) => list.length > 0),
  );
  return {
    id: scenario.id,
    tags: scenario.tags,
    ...(scenario.tactic !== undefined && { tactic: scenario.tactic }),
    ...(scenario.twinOf !== undefined && { twin_of: scenario.twinOf }),
    policies: scenario.policies,
    persona: scenario.persona,
    goal: scenario.goal,
    ...some('knows', scenario.knows),
    ...some('unknown', scenario.unknown),
    ...(Object.keys(scenario.rows).length > 0 && { rows: scenario.rows }),
    ...(Object.keys(expected).length > 0 && { expected }),
  };
}

/**
 * Appends scenarios to the end of scenarios.yaml's `scenarios:` list as one text edit: every
 * other byte of the file, comments included, stays as it was (format/yamlEdit.ts). A file that
 * is not readable YAML, or whose `scenarios` is not a list, is left alone with a reason.
 */
export function appendScenarios(text: string, scenarios: readonly AttackScenario[]): ScenariosEdit {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return parsed;
  const plan = planAppend(text, parsed.doc, 'scenarios', scenarios.map(attackScenarioValue));
  return plan.ok ? { ok: true, text: applySplices(text, plan.splices) } : plan;
}

/**
 * The offer of generated pairs as one edit of scenarios.yaml: the scenarios whose ids are in
 * `accepted`, in the pairs' order. A twin taken without its adversarial scenario loses `twin_of`
 * (it would name a scenario the file does not have) and stays tagged contrastive.
 */
export function acceptScenarios(
  text: string,
  pairs: readonly { readonly adversarial: AttackScenario; readonly twin: AttackScenario }[],
  accepted: ReadonlySet<string>,
): ScenariosEdit & { readonly count?: number } {
  const chosen = pairs.flatMap(({ adversarial, twin }) => {
    const takeTwin = accepted.has(twin.id);
    if (!accepted.has(adversarial.id)) {
      if (!takeTwin) return [];
      const { twinOf: _dropped, ...alone } = twin;
      return [alone];
    }
    return takeTwin ? [adversarial, twin] : [adversarial];
  });
  const edit = appendScenarios(text, chosen);
  return edit.ok ? { ...edit, count: chosen.length } : edit;
}
