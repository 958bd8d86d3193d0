import type { Diagnostic } from '../../diagnostics.ts';
import { ATTACK_TACTICS, isAttackTactic } from '../attackTags.ts';
import type { ReferenceContext } from './context.ts';
import { Findings, unknownName } from './context.ts';

/**
 * Adversarial scenarios and their twins: `twin_of` must name another scenario of the file (an
 * error), and a `tactic` outside the documented list is a warning (it still runs; reports
 * just cannot group it with the known tactics).
 */
export function checkAttack(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const ids = new Set(context.model.scenarios.map((s) => s.id));
  for (const scenario of context.model.scenarios) {
    if (scenario.twinOf !== undefined) {
      const path = [...scenario.path, 'twin_of'];
      if (scenario.twinOf === scenario.id)
        found.report(
          'scenarios.yaml',
          path,
          'self-twin',
          `A scenario cannot be its own twin ("${scenario.id}").`,
        );
      else if (!ids.has(scenario.twinOf))
        found.report(
          'scenarios.yaml',
          path,
          'unknown-twin',
          unknownName('scenario', scenario.twinOf, ids),
        );
    }
    if (scenario.tactic !== undefined && !isAttackTactic(scenario.tactic))
      found.report(
        'scenarios.yaml',
        [...scenario.path, 'tactic'],
        'unknown-tactic',
        `${unknownName('tactic', scenario.tactic, Object.keys(ATTACK_TACTICS))} The known tactics are ${Object.keys(ATTACK_TACTICS).join(', ')}.`,
        'warning',
      );
  }
  return found.diagnostics;
}
