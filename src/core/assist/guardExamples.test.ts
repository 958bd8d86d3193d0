import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { argumentErrors } from '../sim/toolArguments.ts';
import { OWN_EXAMPLES_LIMIT, ownExamples } from './guardExamples.ts';
import { lendingDesk } from './testdata/lendingDesk.ts';

const model = parseProject(lendingDesk()).model;
const lend = model.tools.find((t) => t.name === 'lend_book');

describe('ownExamples', () => {
  it('makes calls that fit the schema, each changing one argument of the base call', () => {
    if (!lend) throw new Error('no lend_book');
    const condition = fc.oneof(
      fc.integer({ min: -5, max: 80 }).map((n) => `args.days > ${n}`),
      fc.constantFrom('args.format == "audio"', 'args.renewal', "args.member_id == 'm2'"),
      fc
        .tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70 }))
        .map(([a, b]) => `args.days >= ${a} && args.days < ${b}`),
    );
    const base = fc.record({
      member_id: fc.constantFrom('m1', 'm2'),
      days: fc.integer({ min: 1, max: 60 }),
    });
    fc.assert(
      fc.property(condition, base, (when, args) => {
        const made = ownExamples(lend, when, args, model);
        expect(made.length).toBeLessThanOrEqual(OWN_EXAMPLES_LIMIT);
        expect(new Set(made.map((m) => JSON.stringify(m.args))).size).toBe(made.length);
        for (const { args: call } of made) {
          expect(argumentErrors(lend, call)).toEqual([]);
          const changed = Object.keys(call).filter(
            (k) => !Object.is(call[k], (args as Record<string, unknown>)[k]),
          );
          expect(changed).toHaveLength(1);
        }
      }),
    );
  });

  it('tries the member ids of the members table for member_id', () => {
    if (!lend) throw new Error('no lend_book');
    const made = ownExamples(lend, 'true', { member_id: 'm1', days: 3 }, model);
    expect(made.map((m) => m.args.member_id)).toContain('m2');
  });
});
