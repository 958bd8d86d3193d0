import type { PromptTemplate } from '../sim/prompts.ts';

// The words of "Extract policies with a model" (assist/extractByModel.ts), apart from the code
// that sends them, so the prompts panel lists the prompt without loading the extraction.

/** Categories a proposal may use; a project adds its own (the categories its policies use). */
export const POLICY_CATEGORIES = [
  'authentication',
  'privacy',
  'communication',
  'confirmation',
  'escalation',
  'payments',
  'refunds',
  'cancellations',
  'changes',
  'eligibility',
  'limits',
  'tool-use',
  'scope',
  'safety',
  'general',
] as const;

/** The prompt each section is sent with; a project may override it (`prompts: extract_policies`). */
export const EXTRACT_POLICIES_PROMPT: PromptTemplate = {
  id: 'extract-policies',
  version: 1,
  text: [
    'You split an AI agent’s system prompt into atomic policies: each one rule the agent must follow, that a single conversation can keep or break.',
    '',
    'Rules for your answer:',
    '- One policy per rule. Split a sentence that carries two obligations; keep a condition with the rule it limits ("for silver members, 2 free checked bags").',
    '- Leave out descriptions of data, tools or the company that oblige the agent to nothing.',
    '- Do not repeat a rule you already gave for this section.',
    '- "category": one of {{categories}}.',
    '- "challenge": 1 (easy to keep) to 5 (hard: conditions, exceptions, pressure from the user).',
    '- "tools": names from this list only: {{tools}}. An empty list when none is involved.',
    '- "quote": the words of the section the rule comes from, copied exactly.',
    '',
    'The section ("{{title}}"):',
    '"""',
    '{{section}}',
    '"""',
  ].join('\n'),
};
