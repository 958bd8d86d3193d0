import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBundle, projectFromFiles, toBundle } from './bundle.ts';
import { createProject } from './project.ts';
import { miniProject } from './testing/miniProject.ts';

describe('bundles', () => {
  it('round-trips a project', () => {
    const project = miniProject();
    expect(parseBundle(toBundle(project))).toEqual({ project, notes: [] });
  });

  it('keeps hand-placed graph positions, and drops ones that are not two numbers', () => {
    const project = { ...createProject('Placed'), layout: { a: { x: 1, y: -2.5 } } };
    expect(parseBundle(toBundle(project))).toEqual({ project, notes: [] });
    const hostile = toBundle(project).replace(
      /"layout": \{[^]*\}\n\}/,
      '"layout": {"a": {"x": 1, "y": 2}, "b": {"x": "NaN", "y": 0}, "__proto__": {"x": 0, "y": 0}, "c": null}}',
    );
    const read = parseBundle(hostile);
    expect('project' in read && read.project.layout).toEqual({
      a: { x: 1, y: 2 },
      ['__proto__']: { x: 0, y: 0 },
    });
    expect('notes' in read && read.notes.map((n) => n.message)).toEqual([
      '2 graph positions were not two numbers within ±1,000,000 and were left out.',
    ]);
    expect(toBundle(createProject('Plain'))).not.toContain('layout');
  });

  it('explains what is wrong with a file that is not a bundle', () => {
    expect(parseBundle('{')).toMatchObject({
      error: expect.stringMatching(/not valid JSON/) as unknown,
    });
    expect(parseBundle('[]')).toMatchObject({
      error: expect.stringMatching(/expected a JSON object/) as unknown,
    });
    expect(parseBundle('{"format":"other"}')).toMatchObject({
      error: expect.stringMatching(/"format" must be "policylab\/1"/) as unknown,
    });
    expect(parseBundle('{"format":"policylab/1","files":{"agent.md":3}}')).toMatchObject({
      error: expect.stringMatching(/"agent.md" in this bundle is not text/) as unknown,
    });
  });

  it('notes missing and foreign files instead of failing', () => {
    const { project, notes } = projectFromFiles('x', { 'agent.md': '# Hi', 'notes.txt': 'x' });
    expect(project.files['rules.yaml']).toBe('');
    expect(notes.map((n) => n.message)).toContain('rules.yaml is missing; it is treated as empty.');
    expect(notes.map((n) => n.message)).toContain(
      '"notes.txt" is not a project file and was left out.',
    );
  });

  it('reads files named another way as the files they mean, and says so', () => {
    const { project, notes } = projectFromFiles('x', {
      'Agent.md': '# Hi',
      'policies.yml': 'policies: []',
      'tools.yaml': 'tools: []',
      'TOOLS.YML': 'tools: [ignored]',
    });
    expect(project.files['agent.md']).toBe('# Hi');
    expect(project.files['policies.yaml']).toBe('policies: []');
    expect(project.files['tools.yaml']).toBe('tools: []');
    expect(notes.map((n) => n.message)).toEqual(
      expect.arrayContaining([
        '"Agent.md" was read as agent.md.',
        '"policies.yml" was read as policies.yaml.',
        '"TOOLS.YML" was left out: tools.yaml is here too.',
      ]),
    );
  });

  it('never throws on hostile input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ format: 'policylab/1', files: v })),
        ),
        (text) => {
          const result = parseBundle(text);
          expect('error' in result || 'project' in result).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
