import type { PromptInfo, PromptOverride, PromptTemplate } from '../core/index.ts';
import { PROMPT_TEMPLATES, projectPrompts } from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';

/** One prompt as the prompts panel shows it. */
export interface PromptView {
  /** What the prompt is for and the places it fills in. */
  readonly info: PromptInfo;
  /** The text a run sends now, marked `built-in` or `project`. */
  readonly template: PromptTemplate;
  /** Whether scenarios.yaml has an entry for it (a blank one is not sent, but is there). */
  readonly written: boolean;
}

const NONE: readonly PromptOverride[] = [];

/** The prompts panel's memoised selector, made once per store (`promptsSelectors(store)`). */
export function createPromptsSelectors() {
  let lastOverrides: readonly PromptOverride[] | undefined;
  let lastViews: readonly PromptView[] = [];

  /**
   * The four prompts the simulation sends, as the last analysis of the project read them: the
   * project's own from `prompts:` in scenarios.yaml, or the built-in ones. Recomputed only when
   * the analysis changes them.
   */
  function selectPrompts(state: AppState): readonly PromptView[] {
    const overrides = state.analysis?.model.prompts ?? NONE;
    if (overrides === lastOverrides) return lastViews;
    const used = projectPrompts({ prompts: overrides });
    lastOverrides = overrides;
    lastViews = PROMPT_TEMPLATES.map((info) => ({
      info,
      template: used[info.planKey],
      written: overrides.some((o) => o.key === info.key),
    }));
    return lastViews;
  }

  return { selectPrompts };
}

/** This store's prompts selectors: `promptsSelectors(store).select...`. */
export const promptsSelectors = perStore(createPromptsSelectors);
