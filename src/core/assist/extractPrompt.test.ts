import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { promptInfo, projectPrompts } from '../sim/prompts.ts';
import { miniProject } from '../testing/miniProject.ts';
import { EXTRACT_POLICIES_PROMPT } from './extractPrompt.ts';

const SCENARIOS = miniProject().files['scenarios.yaml'];

describe('the extract_policies prompt', () => {
  it('is listed with its places, and fills every place its text has', () => {
    const info = promptInfo('extract-policies');
    expect(info).toMatchObject({ key: 'extract_policies', planKey: 'extractPolicies' });
    expect(Object.keys(info.places)).toEqual(['categories', 'tools', 'title', 'section']);
    const written = [...EXTRACT_POLICIES_PROMPT.text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
    expect(written).toEqual(Object.keys(info.places));
  });

  it('may be the project’s own, and one without the section is warned about', () => {
    const { model, diagnostics } = parseProject(
      miniProject({
        'scenarios.yaml': `${SCENARIOS}prompts:\n  extract_policies: "Split {{title}} into rules."\n`,
      }),
    );
    expect(projectPrompts(model).extractPolicies).toMatchObject({
      id: 'extract-policies',
      source: 'project',
      text: 'Split {{title}} into rules.',
    });
    expect(
      diagnostics.filter((d) => d.file === 'scenarios.yaml').map((d) => [d.severity, d.message]),
    ).toEqual([['warning', expect.stringContaining('has no {{section}}') as unknown as string]]);
  });
});
