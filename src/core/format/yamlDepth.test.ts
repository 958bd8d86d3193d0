import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { miniProject } from '../testing/miniProject.ts';
import { MAX_YAML_DEPTH, parseYamlFile, tooDeepAt } from './yamlFile.ts';

// Hostile nesting (issue 20): thousands of lists inside each other overflowed the parser's stack
// and said "Maximum call stack size exceeded". Now the file says how deep PolicyLab reads, at the
// place it goes too deep, and the rest of the project is still checked.

const flow = (depth: number) => `scenarios: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
const TOO_DEEP = /nests lists or maps too deeply to read \(PolicyLab reads up to 200 levels\)/;

describe('nesting too deep', () => {
  it('reads nesting up to the limit, and names the place one level past it', () => {
    expect(tooDeepAt(flow(MAX_YAML_DEPTH))).toBe(-1);
    expect(parseYamlFile('scenarios.yaml', flow(MAX_YAML_DEPTH)).diagnostics).toEqual([]);
    const past = parseYamlFile('scenarios.yaml', flow(20_000));
    expect(past.value).toBeUndefined();
    expect(past.diagnostics).toHaveLength(1);
    expect(past.diagnostics[0]).toMatchObject({ severity: 'error', code: 'yaml-syntax' });
    expect(past.diagnostics[0]?.message).toMatch(TOO_DEEP);
    expect(past.diagnostics[0]).toMatchObject({ line: 1, column: 'scenarios: '.length + 201 });
  });

  it('does not count brackets inside quotes or comments', () => {
    const quoted = `a: "${'['.repeat(500)}"\nb: '${'{'.repeat(500)}'\n# ${'['.repeat(500)}\n`;
    expect(tooDeepAt(quoted)).toBe(-1);
  });

  it('says the same in words when nesting without brackets overflows the parser', () => {
    const dashes = `scenarios:\n  ${'- '.repeat(5000)}x\n`;
    const read = parseYamlFile('scenarios.yaml', dashes);
    expect(read.diagnostics.map((d) => d.message).join('\n')).toMatch(TOO_DEEP);
    expect(read.diagnostics.map((d) => d.message).join('\n')).not.toMatch(/call stack/i);
  });

  it('still checks the other files of the project', () => {
    const project = miniProject();
    const analysis = analyzeProject({
      ...project,
      files: { ...project.files, 'scenarios.yaml': flow(20_000) },
    });
    const files = new Set(analysis.diagnostics.map((d) => d.file));
    expect(analysis.diagnostics.some((d) => TOO_DEEP.test(d.message))).toBe(true);
    expect(analysis.model.policies.length).toBeGreaterThan(0);
    expect(files.has('scenarios.yaml')).toBe(true);
  });
});
