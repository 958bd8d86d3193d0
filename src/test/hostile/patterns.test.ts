import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/analyze.ts';
import { checkCel, compileCel, isCelProblem } from '../../core/cel.ts';
import { parseProject } from '../../core/format/parseProject.ts';
import { argumentErrors } from '../../core/sim/toolArguments.ts';
import { testCheck, judgeOne } from '../../core/testing/checks.ts';
import { A, U, dialogue } from '../../core/testing/dialogues.ts';
import { miniWith } from '../../core/testing/miniProject.ts';
import { BACKTRACKING_PATTERNS, REFUSED_PATTERNS } from './patternInputs.ts';

// Speed is the matcher's (one pass over the text); a stalled engine would hang these tests, and
// the generous timeout only keeps a slow machine from failing a test that is not about time.
describe('backtracking patterns', () => {
  for (const input of BACKTRACKING_PATTERNS) {
    it(`answers the ${input.name} ${input.pattern} in a must_not_say check and in a guard`, () => {
      const text = input.text();
      const said = judgeOne(
        testCheck('must_not_say', { pattern: input.pattern }),
        dialogue([U('Hello'), A(text)]),
      );
      expect(said.passed).toBe(!input.matches);
      const guard = compileCel(`args.note.matches(${JSON.stringify(input.pattern)})`);
      if (isCelProblem(guard)) throw new Error(guard.message);
      expect(guard.run({ args: { note: text } })).toBe(input.matches);
    });
  }
});

describe('patterns the matcher refuses', () => {
  const checkWith = (pattern: string) =>
    miniWith(
      'rules.yaml',
      'kind: confirm_before\n    tool: refund_order',
      `kind: must_not_say\n    pattern: ${JSON.stringify(pattern)}`,
    );
  for (const { pattern, says } of REFUSED_PATTERNS) {
    it(`check names why ${pattern} cannot run, at its line`, () => {
      const found = analyzeProject(checkWith(pattern)).diagnostics.filter(
        (d) => d.code === 'unsupported-pattern',
      );
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ file: 'rules.yaml', line: 19 });
      expect(found[0]?.message).toContain(says);
      expect(checkCel(`args.note.matches(${JSON.stringify(pattern)})`, 'guard')?.message).toContain(
        says,
      );
    });
  }

  it('never hands a tool parameter’s refused pattern to a backtracking engine: check says it instead', () => {
    const patterned = miniWith(
      'tools.yaml',
      'user_id: { type: string }',
      "user_id: { type: string, pattern: '^(?=u)\\w+' }",
    );
    const parsed = parseProject(patterned);
    const tool = parsed.model.tools.find((t) => t.name === 'get_user');
    if (!tool) throw new Error('no get_user');
    // Ajv cannot compile the schema on the linear matcher, so it checks nothing …
    expect(argumentErrors(tool, { user_id: 'x1' })).toEqual([]);
    // … and check names the construct at its line.
    const found = analyzeProject(patterned).diagnostics.filter(
      (d) => d.code === 'unsupported-pattern',
    );
    expect(found.map((d) => [d.file, d.line])).toEqual([['tools.yaml', 8]]);
    expect(found[0]?.message).toContain('A lookahead');
  });
});
