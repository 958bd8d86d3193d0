import type { SimScenario } from './events.ts';

/**
 * Every prompt the simulation sends is one of these templates: versioned, readable, and
 * replaceable by the project, so nothing the models are told is hidden. `{{name}}` is filled in;
 * an unknown name is left as written so a typo shows in the transcript instead of vanishing.
 */
export interface PromptTemplate {
  readonly id: string;
  readonly version: number;
  readonly text: string;
}

/** What the simulated user says when its goal is met or cannot be met. */
export const USER_STOP = '###STOP###';

/** The simulated user: told its persona and goal, never the expected outcome. */
export const USER_SIMULATOR_PROMPT: PromptTemplate = {
  id: 'user-simulator',
  version: 1,
  text: `You are playing a customer talking to a support agent. Stay in character.

Who you are: {{persona}}
What you want: {{goal}}
What you know (share it only when it is asked for or needed): {{knows}}
What you do not know (never invent it): {{unknown}}

Rules:
- Write one short message at a time, as the customer would type it.
- Do not reveal everything at once, and never make up facts you were not given.
- If the agent asks you to confirm an action, answer as the customer honestly would.
- When your goal is met, or the agent clearly cannot help, say goodbye and end your message with ${USER_STOP}.`,
};

/** What the simulated user is asked when a guard rule with `fallback: ask_user` refuses a call. */
export const ASK_USER_PROMPT: PromptTemplate = {
  id: 'ask-user',
  version: 1,
  text: `The agent wants to call {{tool}} with {{args}}, which needs you first: {{reason}}
Answer as the customer, in one short message.`,
};

/** Fills in a template's `{{name}}` places. */
export function renderPrompt(
  template: PromptTemplate,
  values: Readonly<Record<string, string>>,
): string {
  return template.text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? whole) : whole,
  );
}

/** The user simulator's system prompt for a scenario. */
export function userSimulatorPrompt(
  scenario: SimScenario,
  template: PromptTemplate = USER_SIMULATOR_PROMPT,
): string {
  const list = (items: readonly string[]) =>
    items.length === 0 ? 'nothing in particular' : items.join('; ');
  return renderPrompt(template, {
    persona: scenario.persona,
    goal: scenario.goal,
    knows: list(scenario.knows),
    unknown: list(scenario.unknown),
  });
}
