import type { PromptInfo } from '../sim/prompts.ts';
import { ATTACK_PROMPT } from './attackPrompt.ts';
import { EXTRACT_POLICIES_PROMPT } from './extractPrompt.ts';
import { GUARD_DRAFT_PROMPT } from './guardPrompt.ts';
import { RELATE_PROMPT } from './relatePrompt.ts';

/**
 * The prompts Assist actions send (not runs), described as the run's prompts are, so the prompts
 * panel lists them and a project may override them under `prompts:`.
 */
export const ASSIST_PROMPTS: readonly PromptInfo[] = [
  {
    ...ATTACK_PROMPT,
    id: 'attack',
    key: 'attack',
    planKey: 'attack',
    title: 'Attack writer',
    purpose:
      'Sent once per chosen policy and tactic when generating adversarial scenarios (not during a run), asking for an adversarial scenario and its contrastive twin as JSON. A pair that fails `check` is sent back once with its problems.',
    places: {
      agent: { description: 'the agent’s prompt from agent.md (its first 6000 characters)' },
      policy: {
        description: 'the policy under attack: id, category, challenge, text and tools',
        essential: 'the writer will not be told which policy to attack',
      },
      tactic: {
        description: 'the tactic the customer uses, with what it is',
        essential: 'the writer will not be told which tactic to use',
      },
      tools: { description: 'the tools of tools.yaml with their parameters' },
      tables: { description: 'the tables of database.yaml with columns, key and a few rows' },
      examples: { description: 'example database conditions written with the project’s tables' },
    },
  },
  {
    ...GUARD_DRAFT_PROMPT,
    id: 'guard-draft',
    key: 'guard_draft',
    planKey: 'guardDraft',
    title: 'Guard drafter',
    purpose:
      'Sent when a person asks a model to draft a guard rule for a policy: one rule as JSON with example calls it must allow and forbid. The rule is checked and its examples run before it is offered; a bad draft is sent back once with its problems named. Not sent by runs.',
    places: {
      policy_id: { description: 'the policy’s id' },
      policy: {
        description: 'the policy’s text',
        essential: 'the drafter will not be told the policy to enforce',
      },
      tools: {
        description: 'the policy’s tools with their parameters as JSON Schema',
        essential: 'the drafter will not know the tools or their arguments',
      },
      tables: { description: 'the tables of database.yaml with columns and a few rows' },
    },
  },
  {
    ...RELATE_PROMPT,
    id: 'relate',
    key: 'relate',
    planKey: 'relate',
    title: 'Relation rater',
    purpose:
      'Sent by “Rate relations”: one policy against many others per call, asking how likely each pair meets in one conversation (0-10, with a reason). Its ratings become `relations` with `origin: model`.',
    places: {
      policy: {
        description: 'the policy to compare, as "id: text (category; tools)"',
        essential: 'the model will not be told which policy to compare',
      },
      others: {
        description: 'the policies to rate it against, one a line, in the same form',
        essential: 'the model will not be told what to rate',
      },
    },
  },
  {
    ...EXTRACT_POLICIES_PROMPT,
    id: 'extract-policies',
    key: 'extract_policies',
    planKey: 'extractPolicies',
    title: 'Policy extractor',
    purpose:
      'Sent by “Extract policies” → “Ask a model”: one call per section of agent.md (its headings are the flows), asking for the section’s atomic policies as JSON, each with a category, a challenge, its tools and the words it came from. The answers are checked, placed on agent.md’s lines and merged across flows before anything is offered. Not sent by runs.',
    places: {
      categories: {
        description: 'the categories a policy may take: the built-in list and the project’s own',
      },
      tools: { description: 'the names of the tools of tools.yaml, or “(none)”' },
      title: {
        description: 'the section’s heading (its flow)',
        essential: 'the model will not know which flow the section is',
      },
      section: {
        description: 'the section’s text, as written in agent.md',
        essential: 'the model will not be given the text to split into policies',
      },
    },
  },
];
