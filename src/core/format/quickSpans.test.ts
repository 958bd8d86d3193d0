import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { MINI_FILES } from '../testing/miniProject.ts';
import type { YamlPath } from './yamlFile.ts';
import { parseYamlFile } from './yamlFile.ts';

/** Every path into a value: each map key and sequence index, at every depth. */
function pathsOf(value: unknown, prefix: YamlPath = []): YamlPath[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...pathsOf(item, [...prefix, key]),
    ]);
  return [];
}

/** Where each path is said to be written, by the quick spans and by the yaml document. */
function bothWays(text: string) {
  const quick = parseYamlFile('policies.yaml', text);
  const careful = parseYamlFile('policies.yaml', text);
  // Where the careful reader finds an error, the two read different files: not comparable.
  if (careful.doc.errors.length > 0) return { quick: 'unreadable', careful: 'readable' };
  const paths = pathsOf(quick.value);
  const where = (file: typeof quick) =>
    paths.map((path) => ({ path, value: file.spanOf(path), key: file.keySpanOf(path) }));
  return { quick: where(quick), careful: where(careful) };
}

const EXAMPLES = 'public/examples';

describe('quick spans', () => {
  // Many files and runs: the timeout is room for a busy machine, not a bound on speed.
  it('say what the yaml document says for every path of the examples and the mini project', () => {
    const texts = [
      ...Object.entries(MINI_FILES).filter(([name]) => name.endsWith('.yaml')),
      ...readdirSync(EXAMPLES).flatMap((example) =>
        readdirSync(`${EXAMPLES}/${example}`)
          .filter((name) => name.endsWith('.yaml'))
          .map((name) => [name, readFileSync(`${EXAMPLES}/${example}/${name}`, 'utf8')]),
      ),
    ];
    expect(texts.length).toBeGreaterThan(10);
    for (const [, text] of texts) {
      const { quick, careful } = bothWays(text ?? '');
      expect(quick).toEqual(careful);
    }
  });

  it('say what the yaml document says on any value, written in block or flow style', () => {
    const key = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '#', ':', '-', '"'),
      maxLength: 4,
    });
    const leaf = fc.oneof(
      fc.string({
        unit: fc.constantFrom('a', ' ', '#', ':', '\n', "'", '"', '-', '|'),
        maxLength: 8,
      }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(tree, fc.boolean(), fc.boolean(), (value, flow, comments) => {
        let text = flow ? dump(value, { flowLevel: 1 }) : stringify(value);
        if (comments) text = text.replace(/\n/g, ' # note\n');
        const file = parseYamlFile('policies.yaml', text);
        const { quick, careful } = bothWays(text);
        if (file.diagnostics.length > 0 || quick === 'unreadable') return;
        expect(quick).toEqual(careful);
      }),
      { numRuns: 1500 },
    );
  });
});
