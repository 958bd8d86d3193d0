import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { USER_SIMULATOR_PROMPT } from '../sim/prompts.ts';
import type { PromptKey } from '../sim/prompts.ts';
import { miniProject } from '../testing/miniProject.ts';
import { parseProject } from './parseProject.ts';
import { removePromptOverride, setPromptOverride } from './promptEdits.ts';

const SCENARIOS = miniProject().files['scenarios.yaml'];

function set(text: string, key: PromptKey, prompt: string): string {
  const edit = setPromptOverride(text, key, prompt);
  if (!edit.ok) throw new Error(edit.message);
  return edit.text;
}

function remove(text: string, key: PromptKey): string {
  const edit = removePromptOverride(text, key);
  if (!edit.ok) throw new Error(edit.message);
  return edit.text;
}

describe('setPromptOverride', () => {
  it('adds prompts: at the end as a literal block, keeping the rest byte for byte', () => {
    const edit = setPromptOverride(SCENARIOS, 'user_simulator', 'Line one {{goal}}\n\nLine three');
    expect(edit).toEqual({
      ok: true,
      line: SCENARIOS.split('\n').length + 1,
      text: `${SCENARIOS}prompts:\n  user_simulator: |-\n    Line one {{goal}}\n\n    Line three\n`,
    });
  });

  it('writes the built-in text so that it reads back exactly, with no diagnostic', () => {
    const text = set(SCENARIOS, 'user_simulator', USER_SIMULATOR_PROMPT.text);
    const parsed = parseProject(miniProject({ 'scenarios.yaml': text }));
    expect(parsed.model.prompts.map((p) => [p.key, p.text])).toEqual([
      ['user_simulator', USER_SIMULATOR_PROMPT.text],
    ]);
    expect(parsed.diagnostics).toEqual([]);
  });

  it('adds a second prompt after the first, at its indentation, and keeps comments', () => {
    const start = `${SCENARIOS}prompts: # ours\n    ask_user: "Allow {{tool}}?" # short\n# the end\n`;
    const text = set(start, 'policy_judge', 'Judge {{policy}}\n{{transcript}}');
    expect(text).toBe(
      `${SCENARIOS}prompts: # ours\n    ask_user: "Allow {{tool}}?" # short\n    policy_judge: |-\n      Judge {{policy}}\n      {{transcript}}\n# the end\n`,
    );
  });

  it('fills an empty prompts: in its several spellings', () => {
    for (const empty of ['prompts:\n', 'prompts: {}\n', 'prompts: null # none yet\n', 'prompts:']) {
      const text = set(`${SCENARIOS}${empty}`, 'ask_user', 'Ask');
      expect(parse(text), empty).toMatchObject({ prompts: { ask_user: 'Ask' } });
      expect(text.startsWith(SCENARIOS), empty).toBe(true);
    }
    expect(set(`${SCENARIOS}prompts: null # none yet\n`, 'ask_user', 'Ask')).toContain(
      'prompts: # none yet\n  ask_user: |-\n    Ask\n',
    );
  });

  it('leaves an entry already there as it is, and points at it', () => {
    const start = `prompts:\n  ask_user: mine\n`;
    expect(setPromptOverride(start, 'ask_user', 'theirs')).toEqual({
      ok: true,
      text: start,
      line: 2,
    });
  });

  it('says why it cannot edit a file that is not readable or not a mapping', () => {
    expect(setPromptOverride('scenarios: [', 'ask_user', 'x')).toMatchObject({ ok: false });
    expect(setPromptOverride('- a\n', 'ask_user', 'x')).toMatchObject({
      ok: false,
      message: 'scenarios.yaml is not a mapping.',
    });
    expect(setPromptOverride('prompts: [a]\n', 'ask_user', 'x')).toMatchObject({ ok: false });
  });
});

describe('removePromptOverride', () => {
  it('takes out the entry, and prompts: with its last entry, giving back the text before', () => {
    const one = set(SCENARIOS, 'user_simulator', 'A\n\nB');
    const two = set(one, 'policy_judge', 'C');
    expect(remove(two, 'policy_judge')).toBe(one);
    expect(remove(one, 'user_simulator')).toBe(SCENARIOS);
  });

  it('changes nothing when there is no such entry', () => {
    expect(removePromptOverride(SCENARIOS, 'ask_user')).toEqual({
      ok: true,
      text: SCENARIOS,
      line: 0,
    });
  });
});

describe('editing prompts: (properties)', () => {
  const keys = fc.constantFrom<PromptKey>(
    'user_simulator',
    'ask_user',
    'scenario_generator',
    'policy_judge',
  );
  const files = fc.constantFrom(
    SCENARIOS,
    '',
    '# only a comment',
    'scenarios: []',
    SCENARIOS.replace(/\n/g, '\r\n'),
    `${SCENARIOS}prompts:\n  ask_user: "Allow {{tool}}?"\n`,
  );
  const prompts = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc
      .array(
        fc.constantFrom('a', ' ', '\n', '\t', '#', ':', '-', '|', '"', "'", '{{goal}}', '\\'),
        {
          maxLength: 30,
        },
      )
      .map((parts) => parts.join('')),
  );

  it('any text reads back exactly, the rest of the file keeps its value, and removing undoes it', () => {
    fc.assert(
      fc.property(files, keys, prompts, (file, key, prompt) => {
        const before = parse(file) as Record<string, unknown> | null;
        const already = before?.prompts !== undefined && key in (before.prompts as object);
        fc.pre(!already);
        const edit = setPromptOverride(file, key, prompt);
        expect(edit.ok).toBe(true);
        if (!edit.ok) return;
        const after = parse(edit.text) as Record<string, unknown>;
        expect((after.prompts as Record<string, unknown>)[key]).toBe(prompt);
        const { prompts: _new, ...rest } = after;
        const { prompts: _old, ...was } = before ?? {};
        expect(rest).toEqual(was);
        const back = remove(edit.text, key);
        expect(parse(back) ?? {}).toEqual(before ?? {});
      }),
      { numRuns: 300 },
    );
  });
});
