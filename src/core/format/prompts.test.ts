import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.ts';
import { PROMPT_TEMPLATES, USER_SIMULATOR_PROMPT, projectPrompts } from '../sim/prompts.ts';
import { miniProject } from '../testing/miniProject.ts';
import { parseProject } from './parseProject.ts';

const SCENARIOS = miniProject().files['scenarios.yaml'];

/** The mini project with `prompts:` (written as given) after its scenarios. */
function withPrompts(prompts: string) {
  return parseProject(miniProject({ 'scenarios.yaml': `${SCENARIOS}${prompts}` }));
}

/** Line of scenarios.yaml (from 1) holding `text`, with the mini scenarios before it. */
function lineOf(prompts: string, text: string): number {
  const whole = `${SCENARIOS}${prompts}`;
  return whole.slice(0, whole.indexOf(text)).split('\n').length;
}

const ofCode = (diagnostics: readonly Diagnostic[], code: string) =>
  diagnostics.filter((d) => d.code === code);

describe('prompts: in scenarios.yaml', () => {
  it('is read into the model with the path of each entry, and a good one has no diagnostic', () => {
    const yaml = `prompts:
  user_simulator: |
    You are {{persona}}. You want {{goal}}. Say ###STOP### when done.
  policy_judge: "Judge {{policy}} over {{transcript}}."
`;
    const parsed = withPrompts(yaml);
    expect(parsed.model.prompts).toEqual([
      {
        path: ['prompts', 'user_simulator'],
        key: 'user_simulator',
        text: 'You are {{persona}}. You want {{goal}}. Say ###STOP### when done.\n',
      },
      {
        path: ['prompts', 'policy_judge'],
        key: 'policy_judge',
        text: 'Judge {{policy}} over {{transcript}}.',
      },
    ]);
    expect(parsed.diagnostics).toEqual([]);
  });

  it('rejects an unknown prompt name with a schema error on its line', () => {
    const yaml = `prompts:\n  user_simulatr: |\n    Hello {{goal}}\n`;
    const parsed = withPrompts(yaml);
    const [error] = ofCode(parsed.diagnostics, 'schema');
    expect(error).toMatchObject({
      file: 'scenarios.yaml',
      severity: 'error',
      line: lineOf(yaml, 'user_simulatr'),
      message: 'Unknown field "user_simulatr". Did you mean "user_simulator"?',
    });
    expect(parsed.model.prompts).toEqual([]);
  });

  it('warns of a place the template does not fill, at the place, naming the known ones', () => {
    const yaml = `prompts:
  user_simulator: |
    You are {{persona}}.
    You want {{gaol}}; say ###STOP### at the end.
    You know {{knowns}}.
`;
    const warnings = ofCode(withPrompts(yaml).diagnostics, 'unknown-place');
    expect(warnings.map((d) => [d.severity, d.line, d.column, d.message])).toEqual([
      [
        'warning',
        lineOf(yaml, 'You want'),
        14,
        '`{{gaol}}` is not filled in for the user simulator prompt; it knows {{persona}}, {{goal}}, {{knows}}, {{unknown}}.',
      ],
      [
        'warning',
        lineOf(yaml, 'You know'),
        14,
        '`{{knowns}}` is not filled in for the user simulator prompt; it knows {{persona}}, {{goal}}, {{knows}}, {{unknown}}. Did you mean {{knows}}?',
      ],
    ]);
  });

  it('says a place written with spaces is not filled in', () => {
    const yaml = `prompts:\n  ask_user: "Allow {{ tool }} with {{args}}? {{reason}}"\n`;
    const [warning] = ofCode(withPrompts(yaml).diagnostics, 'unknown-place');
    expect(warning?.message).toBe(
      '`{{ tool }}` is not filled in: write it `{{tool}}`, without spaces.',
    );
  });

  it('warns what the model will not be told when an essential place is left out', () => {
    const yaml = `prompts:
  user_simulator: "Be {{persona}}. Say ###STOP### when done."
  policy_judge: "Was the policy {{policy_id}} broken?"
  scenario_generator: "Write a scenario for {{agent}}."
`;
    const missing = ofCode(withPrompts(yaml).diagnostics, 'missing-place').map((d) => [
      d.line,
      d.message,
    ]);
    expect(missing).toEqual([
      [
        lineOf(yaml, 'user_simulator'),
        'The user simulator prompt has no {{goal}} (what the customer wants from the conversation (the scenario’s goal)): the simulated user will not be told what it wants.',
      ],
      [
        lineOf(yaml, 'policy_judge'),
        'The policy judge prompt has no {{policy}} (the policy’s text): the judge will not be told the policy it judges.',
      ],
      [
        lineOf(yaml, 'policy_judge'),
        'The policy judge prompt has no {{transcript}} (the conversation with numbered turns, tool calls, guard decisions and tool results): the judge will not see the conversation.',
      ],
      [
        lineOf(yaml, 'scenario_generator'),
        'The scenario generator prompt has no {{policies}} (the policies to put to the test, one a line, with category and challenge): the generator will not be told which policies the scenario must test.',
      ],
    ]);
  });

  it('warns when the user simulator is never told its stop signal', () => {
    const yaml = `prompts:\n  user_simulator: "You want {{goal}}."\n`;
    const [warning] = ofCode(withPrompts(yaml).diagnostics, 'missing-stop');
    expect(warning?.message).toMatch(/never mentions ###STOP###: .* runs to the turn limit\.$/);
  });

  it('calls an empty prompt an error', () => {
    const yaml = `prompts:\n  policy_judge: |\n\n  ask_user: ""\n`;
    const empty = ofCode(withPrompts(yaml).diagnostics, 'empty-prompt');
    expect(empty.map((d) => [d.severity, d.line, d.message])).toEqual([
      [
        'error',
        lineOf(yaml, 'policy_judge'),
        'The policy judge prompt is empty. Write it, or remove "policy_judge:" to use the built-in one.',
      ],
      [
        'error',
        lineOf(yaml, 'ask_user'),
        'The user question prompt is empty. Write it, or remove "ask_user:" to use the built-in one.',
      ],
    ]);
  });

  it('finds no fault with the built-in texts themselves', () => {
    const yaml = `prompts:\n${PROMPT_TEMPLATES.map(
      (p) => `  ${p.key}: ${JSON.stringify(p.text)}\n`,
    ).join('')}`;
    expect(withPrompts(yaml).diagnostics).toEqual([]);
  });
});

describe('projectPrompts', () => {
  it('gives the built-in prompts to a project without its own', () => {
    const prompts = projectPrompts(parseProject(miniProject()).model);
    expect(prompts.userSimulator).toEqual({ ...USER_SIMULATOR_PROMPT, source: 'built-in' });
    expect(Object.values(prompts).map((p) => [p.id, p.source])).toEqual([
      ['user-simulator', 'built-in'],
      ['ask-user', 'built-in'],
      ['scenario-generator', 'built-in'],
      ['policy-judge', 'built-in'],
      ['assertion-judge', 'built-in'],
      ['attack', 'built-in'],
      ['guard-draft', 'built-in'],
      ['relate', 'built-in'],
      ['extract-policies', 'built-in'],
    ]);
  });

  it('uses the project’s own text, keeping the id and version, and skips a blank one', () => {
    const { model } = withPrompts(
      `prompts:\n  policy_judge: "Judge {{policy}} in {{transcript}}."\n  ask_user: "  "\n`,
    );
    const prompts = projectPrompts(model);
    expect(prompts.policyJudge).toEqual({
      id: 'policy-judge',
      version: 1,
      text: 'Judge {{policy}} in {{transcript}}.',
      source: 'project',
    });
    expect(prompts.askUser.source).toBe('built-in');
  });

  it('describes every place each built-in text uses, and uses every place it describes', () => {
    for (const info of PROMPT_TEMPLATES) {
      const used = [...info.text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
      expect(new Set(used), info.id).toEqual(new Set(Object.keys(info.places)));
    }
  });
});
