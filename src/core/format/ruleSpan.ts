import type { Span } from '../diagnostics.ts';
import { parseYamlFile } from './yamlFile.ts';

const isObj = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Where the id of guard rule `ruleId` is written in rules.yaml (`text`), reading that one file
 * only (the rule playground's "show rule" must not parse the whole project); the first rule with
 * that id, in the order the guards are written, as the model reads them. Undefined when no guard
 * rule has that id, or the text does not read.
 */
export function guardRuleIdSpan(text: string, ruleId: string): Span | undefined {
  const file = parseYamlFile('rules.yaml', text);
  const guards = isObj(file.value) ? file.value.guards : undefined;
  if (!isObj(guards)) return undefined;
  for (const [tool, spec] of Object.entries(guards)) {
    const rules = isObj(spec) && Array.isArray(spec.rules) ? (spec.rules as unknown[]) : [];
    const at = rules.findIndex((rule) => isObj(rule) && rule.id === ruleId);
    if (at >= 0) return file.spanOf(['guards', tool, 'rules', at, 'id']);
  }
  return undefined;
}
