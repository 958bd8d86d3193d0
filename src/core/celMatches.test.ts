import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CelRunError, checkCel, compileCel, isCelProblem } from './cel.ts';

function run(source: string, variables: Record<string, unknown> = {}): unknown {
  const compiled = compileCel(source);
  if (isCelProblem(compiled)) throw new Error(compiled.message);
  return compiled.run(variables);
}

describe('matches() in CEL', () => {
  it('runs a backtracking pattern on a model’s long argument in one pass', () => {
    const args = { name: `${'a'.repeat(50_000)}!` };
    expect(run('args.name.matches("(a+)+$")', { args })).toBe(false);
    expect(run('args.name.matches("^(a|aa)+!$")', { args })).toBe(true);
  });

  it('means what it meant: a search, case-sensitive, anchors where written, inside macros', () => {
    const args = { code: 'INT-1234', names: ['ab', 'b'] };
    expect(run('args.code.matches("\\\\d{4}")', { args })).toBe(true);
    expect(run('args.code.matches("^int")', { args })).toBe(false);
    expect(run('args.code.matches("^INT-\\\\d+$")', { args })).toBe(true);
    expect(run('args.names.exists(n, n.matches("^a"))', { args })).toBe(true);
    expect(run('args.names.all(n, n.matches("^a"))', { args })).toBe(false);
  });

  it('agrees with JavaScript’s RegExp on patterns both run', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('a+', '^a*b$', '(ab|a)c', '[^b]+$', '\\\\bab', 'x?', '(?:a|b){2,3}'),
        fc.stringMatching(/^[abcx ]{0,10}$/),
        (pattern, text) => {
          const source = `t.matches("${pattern}")`;
          const js = new RegExp(pattern.replaceAll('\\\\', '\\'), 'u').test(text);
          expect(run(source, { t: text })).toBe(js);
        },
      ),
    );
  });

  it('refuses at check time a written pattern it cannot run, pointing at the pattern', () => {
    const source = 'args.note.matches("(a)\\\\1")';
    const problem = checkCel(source, 'guard');
    expect(problem?.offset).toBe(source.indexOf('"'));
    expect(problem?.message).toMatch(/^The pattern of matches\(\) cannot be used: A backreference/);
    expect(checkCel('args.note.matches("(?<=a)b")', 'guard')?.message).toContain('lookbehind');
    expect(checkCel('args.note.matches("(")', 'guard')?.message).toMatch(
      /^The pattern of matches\(\) is not a valid regular expression: /,
    );
    expect(checkCel('args.note.matches("^a+$")', 'guard')).toBeUndefined();
  });

  it('fails a pattern from the data it cannot run with an evaluation error naming matches()', () => {
    const compiled = compileCel('args.note.matches(args.pattern)');
    if (isCelProblem(compiled)) throw new Error(compiled.message);
    expect(() => compiled.run({ args: { note: 'x', pattern: 'a(?=b)' } })).toThrow(CelRunError);
    expect(() => compiled.run({ args: { note: 'x', pattern: 'a(?=b)' } })).toThrow(
      /^matches\(\): A lookahead/,
    );
    expect(() => run('args.n.matches("a")', { args: { n: 3 } })).toThrow(
      "found no matching overload for 'double.matches(string)'",
    );
  });
});
