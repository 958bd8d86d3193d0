import { LOCAL_ENGINE, MODEL_ROLES } from '../../core/index.ts';
import type { AppState } from '../../state/createAppStore.ts';
import { useAppStore } from '../../state/useAppStore.ts';

/**
 * The models the next run would pay for that have no price, joined by a tab (a string, so the
 * selector's answer compares by value). A role left to the model in this browser costs nothing;
 * the generator pays only when scenarios are to be generated.
 */
export function unpricedModels(state: AppState): string {
  const { roles, prices } = state.modelSettings;
  const models = new Set<string>();
  for (const role of MODEL_ROLES) {
    if (role === 'generator' && state.runSettings.generated === 0) continue;
    const choice = roles[role];
    if (!choice || choice.engine === LOCAL_ENGINE) continue;
    if (!Object.hasOwn(prices, choice.model)) models.add(choice.model);
  }
  return [...models].join('\t');
}

/**
 * Says, before a run, when its dollar budget cannot count some of its calls: a model without a
 * price costs an unknown amount, so only a token budget limits it.
 */
export function BudgetNotice() {
  const unpriced = useAppStore(unpricedModels);
  const dollars = useAppStore((s) => s.runSettings.budgetDollars);
  const tokens = useAppStore((s) => s.runSettings.budgetTokens);
  if (unpriced === '' || dollars === null) return null;
  const names = unpriced.split('\t').map((m) => `“${m}”`);
  const which =
    names.length === 1 ? `${names[0]} has no price` : `${names.join(', ')} have no price`;
  return (
    <p className="run-form-notice" role="note" data-testid="budget-notice">
      {which}: the ${dollars} budget cannot count {names.length === 1 ? 'its' : 'their'} calls.{' '}
      {tokens === null
        ? 'Set a token budget to limit them, or add a price under Models in the header.'
        : `The ${tokens.toLocaleString('en-US')}-token budget limits them.`}
    </p>
  );
}
