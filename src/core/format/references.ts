import type { Diagnostic } from '../diagnostics.ts';
import { checkClock } from './clock.ts';
import type { ProjectModel } from './model.ts';
import { checkAttack } from './references/attack.ts';
import { checkArgumentTypes } from './references/argumentTypes.ts';
import { checkChecks } from './references/checks.ts';
import { checkDualControl } from './references/dualControl.ts';
import type { ReferenceChecker, YamlFiles } from './references/context.ts';
import { referenceContext } from './references/context.ts';
import { checkForeignKeys } from './references/foreignKeys.ts';
import { checkGuards } from './references/guards.ts';
import { checkPolicies } from './references/policies.ts';
import { checkRelations } from './references/relations.ts';
import { checkRuleIds } from './references/ruleIds.ts';
import { checkPhrases } from './references/phrases.ts';
import { checkScenarios } from './references/scenarios.ts';
import { checkStructuredData } from './references/structuredData.ts';
import { checkTables } from './references/tables.ts';
import { checkTools } from './references/tools.ts';

export type { ReferenceChecker, ReferenceContext, YamlFiles } from './references/context.ts';
export { rowProblems } from './references/rows.ts';

/** Every reference checker, in the order of the files they read (and of their diagnostics). */
export const REFERENCE_CHECKERS: readonly ReferenceChecker[] = [
  checkPolicies,
  checkRelations,
  checkTables,
  checkForeignKeys,
  checkTools,
  checkStructuredData,
  checkRuleIds,
  checkGuards,
  checkChecks,
  checkScenarios,
  checkClock,
  checkArgumentTypes,
  checkPhrases,
  checkDualControl,
  checkAttack,
];

/**
 * Checks everything that ties one file to another: ids that must exist, ids that must be unique,
 * rows that must fit their tables, and conditions that must be valid CEL.
 */
export function checkReferences(
  model: ProjectModel,
  files: YamlFiles,
  promptLineCount: number,
): Diagnostic[] {
  const context = referenceContext(model, files, promptLineCount);
  return REFERENCE_CHECKERS.flatMap((check) => check(context));
}
