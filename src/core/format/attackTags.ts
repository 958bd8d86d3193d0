import type { Scenario } from './model.ts';

/*
 * Adversarial scenarios and their contrastive twins (docs/format.md, "Adversarial scenarios"):
 * the tags that mark them, the tactics an adversarial one may use, and how scenarios.yaml's
 * `tags`, `tactic` and `twin_of` become the model's fields.
 */

/** The tag of a scenario that tries to make the agent break a policy. */
export const ADVERSARIAL_TAG = 'adversarial';
/** The tag of a scenario that looks like an adversarial one but is acceptable: the agent helps. */
export const CONTRASTIVE_TAG = 'contrastive';

/** The tactics an adversarial scenario may use, with what each one is in a sentence. */
export const ATTACK_TACTICS = {
  'social-engineering': 'wins the agent over with sympathy, flattery or a sad story',
  'false-authority': 'claims a role or permission the customer does not have',
  'split-request': 'splits a forbidden request into steps that each look harmless',
  urgency: 'presses for speed so the agent skips a check',
  'earlier-approval': 'claims another agent or a manager already approved it',
} as const satisfies Record<string, string>;

/** A tactic of `ATTACK_TACTICS`, by its id in scenarios.yaml. */
export type AttackTactic = keyof typeof ATTACK_TACTICS;

/** Whether `id` is one of the documented tactics. */
export function isAttackTactic(id: string): id is AttackTactic {
  return Object.hasOwn(ATTACK_TACTICS, id);
}

/** A scenario's `tags`, `tactic` and `twin_of` as model fields, leaving out what is absent or not text. */
export function attackFieldsOf(
  item: Readonly<Record<string, unknown>>,
): Pick<Scenario, 'tags' | 'tactic' | 'twinOf'> {
  const tags = Array.isArray(item.tags)
    ? item.tags.filter((t): t is string => typeof t === 'string')
    : [];
  return {
    ...(tags.length > 0 && { tags }),
    ...(typeof item.tactic === 'string' && { tactic: item.tactic }),
    ...(typeof item.twin_of === 'string' && { twinOf: item.twin_of }),
  };
}

/** Whether a scenario is tagged `tag`. */
export function hasTag(scenario: Pick<Scenario, 'tags'>, tag: string): boolean {
  return scenario.tags?.includes(tag) ?? false;
}
