import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { checkCel } from '../cel.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { LineIndex } from '../diagnostics.ts';
import type { ProjectFileName } from '../project.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { parseProject } from './parseProject.ts';

const YAML_FILES = [
  'policies.yaml',
  'tools.yaml',
  'database.yaml',
  'rules.yaml',
  'scenarios.yaml',
] as const;

function expectInside(
  diagnostics: readonly Diagnostic[],
  files: Readonly<Record<ProjectFileName, string>>,
) {
  for (const d of diagnostics) {
    const lines = new LineIndex(files[d.file]).lineCount;
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.endLine >= d.line).toBe(true);
    expect(d.message.length).toBeGreaterThan(0);
  }
}

/** Text that looks a little like YAML: keys, dashes, brackets, quotes, anchors, tabs. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n',
        '  ',
        '- ',
        ': ',
        '[',
        ']',
        '{',
        '}',
        ',',
        '"',
        "'",
        '&a ',
        '*a',
        '!!str ',
        '#',
        '\t',
        '|',
        '>',
        '---',
        '...',
      ),
      fc.constantFrom(
        'policies',
        'tools',
        'tables',
        'guards',
        'rules',
        'checks',
        'scenarios',
        'id',
        'when',
        'rows',
        'columns',
      ),
      fc.string({ maxLength: 8 }),
      fc.integer().map(String),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

type Mutation = {
  kind: 'delete' | 'insert' | 'duplicate' | 'swap' | 'indent';
  at: number;
  size: number;
  text: string;
};

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'duplicate', 'swap', 'indent'),
  at: fc.nat(),
  size: fc.integer({ min: 1, max: 12 }),
  text: fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom(':', '- ', '[', '"', '\n', '  ', '&x', '*x', 'null', '1e999'),
  ),
});

function mutate(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  const lines = text.split('\n');
  const line = lines.length === 0 ? 0 : m.at % lines.length;
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.size);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'duplicate':
      return [...lines.slice(0, line + 1), lines[line] ?? '', ...lines.slice(line + 1)].join('\n');
    case 'swap': {
      const other = (line + m.size) % Math.max(1, lines.length);
      const copy = [...lines];
      [copy[line], copy[other]] = [copy[other] ?? '', copy[line] ?? ''];
      return copy.join('\n');
    }
    case 'indent':
      return lines
        .map((l, i) => (i === line ? ' '.repeat(m.size % 5) + l.trimStart() : l))
        .join('\n');
  }
}

describe('parsing never throws', () => {
  it.each(YAML_FILES)('%s: random text', (file) => {
    fc.assert(
      fc.property(fc.oneof(yamlish, fc.string({ maxLength: 200, unit: 'binary' })), (text) => {
        const project = miniProject({ [file]: text });
        expectInside(parseProject(project).diagnostics, project.files);
      }),
      { numRuns: 1000 },
    );
  });

  it.each(YAML_FILES)('%s: mutations of a valid file, linted too', (file) => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const text = mutations.reduce(mutate, MINI_FILES[file]);
        const project = miniProject({ [file]: text });
        expectInside(analyzeProject(project).diagnostics, project.files);
      }),
      { numRuns: 400 },
    );
  });

  it('CEL: random conditions in every context', () => {
    const celish = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            'args',
            'db',
            'history',
            '.',
            '(',
            ')',
            '==',
            '&&',
            '||',
            '!',
            '"',
            ' ',
            'exists',
            'size',
            ',',
            '[',
            ']',
            '1',
            'x',
          ),
          fc.string({ maxLength: 4 }),
        ),
        { maxLength: 30 },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(
        celish,
        fc.constantFrom('guard', 'effect', 'returns', 'assertion' as const),
        (source, context) => {
          const problem = checkCel(source, context);
          if (problem) {
            expect(problem.offset).toBeGreaterThanOrEqual(0);
            expect(problem.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
