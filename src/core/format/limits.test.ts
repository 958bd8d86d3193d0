import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProject } from '../project.ts';
import { parseProject } from './parseProject.ts';
import {
  MAX_FILE_BYTES,
  MAX_PROJECT_BYTES,
  TOO_LARGE,
  fileTooLarge,
  sizeProblems,
  utf8Length,
} from './limits.ts';

describe('utf8Length', () => {
  it('counts what encoding would, without encoding', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('size limits', () => {
  const project = createProject('Limits');

  it('says a file past the limit is, with its size and the limit, at its first line', () => {
    const big = `# ${'é'.repeat(MAX_FILE_BYTES / 2)}\npolicies: []\n`;
    const problems = sizeProblems({ ...project.files, 'policies.yaml': big });
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'policies.yaml',
        line: 1,
        column: 1,
        severity: 'error',
        code: TOO_LARGE,
        message:
          'policies.yaml is 12.0 MB; PolicyLab checks files up to 12.0 MB. Nothing in the project was checked; the text is kept as written.',
      }),
    ]);
  });

  it('lets a file of exactly the limit through', () => {
    const exact = `#${'x'.repeat(MAX_FILE_BYTES - 1)}`;
    expect(sizeProblems({ ...project.files, 'rules.yaml': exact })).toEqual([]);
    expect(fileTooLarge('rules.yaml', MAX_FILE_BYTES)).toBeUndefined();
    expect(fileTooLarge('rules.yaml', MAX_FILE_BYTES + 1)).toMatch(/^rules\.yaml is 12\.0 MB/);
  });

  it('says so when the files together pass the project limit, at the largest', () => {
    const part = (n: number) => `#${'x'.repeat(n)}\n`;
    const files = {
      ...project.files,
      'tools.yaml': part(MAX_PROJECT_BYTES / 3),
      'rules.yaml': part(MAX_PROJECT_BYTES / 3 + 10),
      'scenarios.yaml': part(MAX_PROJECT_BYTES / 3),
    };
    const [problem, ...rest] = sizeProblems(files);
    expect(rest).toEqual([]);
    expect(problem?.file).toBe('rules.yaml');
    expect(problem?.message).toMatch(
      /^The project is 24\.0 MB in all; PolicyLab checks projects up to 24\.0 MB\./,
    );
  });

  it('reads nothing of a project past the limit, and keeps its text', () => {
    const big = `policies:\n${'  - { id: p, text: t, category: c, challenge: 1 }\n'.repeat(260_000)}`;
    const files = { ...project.files, 'policies.yaml': big };
    const parsed = parseProject({ ...project, files });
    expect(parsed.diagnostics.map((d) => d.code)).toEqual([TOO_LARGE]);
    expect(parsed.model.policies).toEqual([]);
    expect(files['policies.yaml']).toBe(big);
  });
});
