import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { buildPolicies } from '../format/buildModel.ts';
import { parseProject } from '../format/parseProject.ts';
import { miniWith } from '../testing/miniProject.ts';
import { buildGraph } from './build.ts';
import { REASON_MAX_CHARS, reasonLine, setRelation, setRelations } from './edits.ts';

const FILE = `policies:
  - id: a
    text: A.
    category: c
    challenge: 1
  - id: b
    text: B.
    category: c
    challenge: 1
  - id: c
    text: C.
    category: c
    challenge: 1
relations:
  - between: [a, b]
    weight: 2
    origin: manual
`;

const relationsOf = (text: string) => buildPolicies(parseDocument(text).toJS()).relations;

function written(text: string, ...writes: Parameters<typeof setRelations>[1]): string {
  const result = setRelations(text, writes);
  if (!result.ok) throw new Error(result.message);
  return result.text;
}

describe('a relation’s reason', () => {
  it('is written with a new model relation, on one line, and read back into the model and graph', () => {
    const text = written(FILE, {
      a: 'b',
      b: 'c',
      weight: 6,
      reason: '  Both come up\n when a refund\tis asked:  # often ',
    });
    expect(text).toContain("reason: 'Both come up when a refund is asked: # often'");
    const relation = relationsOf(text).find((r) => r.between.join() === 'b,c');
    expect(relation).toMatchObject({
      origin: 'model',
      weight: 6,
      reason: 'Both come up when a refund is asked: # often',
    });
  });

  it('replaces the old reason in place when a model relation is rated again', () => {
    const once = written(FILE, { a: 'a', b: 'c', weight: 6, reason: 'first thought' });
    const twice = written(once, { a: 'c', b: 'a', weight: 3, reason: 'second thought' });
    expect(twice).not.toContain('first thought');
    expect(relationsOf(twice).filter((r) => r.between.includes('c'))).toEqual([
      expect.objectContaining({ weight: 3, origin: 'model', reason: 'second thought' }),
    ]);
  });

  it('is never given to a hand-written relation', () => {
    const result = setRelations(FILE, [{ a: 'a', b: 'b', weight: 9, reason: 'model says so' }]);
    if (!result.ok) return expect.fail(result.message);
    expect(result).toMatchObject({ written: 0, kept: 1 });
    expect(result.text).toBe(FILE);
  });

  it('a model relation set by hand becomes manual, and the next rating keeps it', () => {
    const rated = written(FILE, { a: 'b', b: 'c', weight: 6, reason: 'often together' });
    const byHand = setRelation(rated, 'c', 'b', 2);
    if (!byHand.ok) return expect.fail(byHand.message);
    expect(relationsOf(byHand.text).find((r) => r.between.join() === 'b,c')).toMatchObject({
      weight: 2,
      origin: 'manual',
    });
    const again = setRelations(byHand.text, [{ a: 'b', b: 'c', weight: 9, reason: 'still' }]);
    if (!again.ok) return expect.fail(again.message);
    expect(again).toMatchObject({ written: 0, kept: 1 });
    expect(again.text).toBe(byHand.text);
  });

  it('is appended in a one-line list’s own style', () => {
    const flow = FILE.replace(
      /relations:\n[\s\S]*$/,
      'relations:\n  - { between: [a, b], weight: 2, origin: manual }\n',
    );
    const text = written(flow, { a: 'a', b: 'c', weight: 5, reason: "it's: odd, [really]" });
    expect(text).toContain('- { between: [a, c], weight: 5, origin: model, reason: ');
    expect(relationsOf(text).at(-1)?.reason).toBe("it's: odd, [really]");
  });

  it('of any text reads back as its one line, and the file stays valid', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean(), (reason, again) => {
        const start = again ? written(FILE, { a: 'a', b: 'c', weight: 4, reason: 'x' }) : FILE;
        const text = written(start, { a: 'a', b: 'c', weight: 5, reason });
        expect(parseDocument(text).errors).toEqual([]);
        const line = reasonLine(reason);
        const relation = relationsOf(text).find((r) => r.between.includes('c'));
        expect(relation?.weight).toBe(5);
        // A blank reason writes nothing: a rating again keeps the old one.
        const expected = line === '' ? (again ? 'x' : undefined) : line.trim();
        expect(relation?.reason).toBe(expected === '' ? undefined : expected);
        expect(line.length).toBeLessThanOrEqual(REASON_MAX_CHARS);
        expect(line).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 200 },
    );
  });

  it('is allowed by the schema and shown on the graph’s edge', () => {
    const project = miniWith(
      'policies.yaml',
      '    origin: manual\n',
      '    origin: model\n    reason: Identity is checked before any refund.\n',
    );
    expect(analyzeProject(project).diagnostics).toEqual([]);
    const graph = buildGraph(parseProject(project).model);
    expect(graph.edges.find((e) => e.origin === 'model')?.reason).toBe(
      'Identity is checked before any refund.',
    );
  });
});
