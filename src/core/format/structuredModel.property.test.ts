import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BAKERY_FILES, bakeryProject } from '../testing/bakeryProject.ts';
import { buildTables, buildTools } from './buildModel.ts';
import { parseProject } from './parseProject.ts';

const text = fc.string({ maxLength: 12 });

/** Anything, and mostly mappings of JSON Schema's own keywords to any value (often not a schema). */
const schemaLike = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom('type', 'items', 'required', 'minimum', 'properties', 'enum', 'format'),
    fc.jsonValue({ maxDepth: 2 }),
  ),
);

describe('reading structured data from the files', () => {
  it('an effect keeps exactly the for_each, as and when it was written with', () => {
    fc.assert(
      fc.property(fc.option(text), fc.option(text), fc.option(text), (forEach, as, when) => {
        const effect = {
          insert: 'orders',
          values: {},
          ...(forEach === null ? {} : { for_each: forEach }),
          ...(as === null ? {} : { as }),
          ...(when === null ? {} : { when }),
        };
        const [tool] = buildTools({ tools: [{ name: 't', effects: [effect] }] });
        const built = tool?.effects[0];
        expect(built?.forEach).toBe(forEach ?? undefined);
        expect(built?.as).toBe(as ?? undefined);
        expect(built?.when).toBe(when ?? undefined);
      }),
    );
  });

  it('generated: true, a prefix and digits, or nothing; digits that are not a count read as 1', () => {
    const spec = fc.oneof(
      fc.boolean(),
      fc.record(
        { prefix: fc.oneof(text, fc.integer()), digits: fc.oneof(fc.integer(), fc.double()) },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(spec, (generated) => {
        const [table] = buildTables({
          tables: [{ name: 'x', key: 'id', columns: { id: { type: 'string', generated } } }],
        });
        const column = table?.columns[0];
        if (generated === true) expect(column?.generated).toEqual({ prefix: '', digits: 1 });
        else if (typeof generated !== 'object' || generated === null || Array.isArray(generated))
          expect(column?.generated).toBeUndefined();
        else {
          const { prefix, digits } = generated as { prefix?: unknown; digits?: unknown };
          expect(column?.generated).toEqual({
            prefix: typeof prefix === 'string' ? prefix : '',
            digits: Number.isInteger(digits) && (digits as number) > 0 ? digits : 1,
          });
        }
      }),
    );
  });

  it('any value under a column or an effect is read without throwing, and checked in words', () => {
    fc.assert(
      fc.property(schemaLike, fc.jsonValue(), (schema, forEach) => {
        const database = (BAKERY_FILES['database.yaml'] ?? '').replace(
          '      total: { type: number }',
          `      total: { type: array, schema: ${JSON.stringify(schema)} }`,
        );
        const tools = (BAKERY_FILES['tools.yaml'] ?? '').replace(
          'for_each: args.items',
          `for_each: ${JSON.stringify(forEach)}`,
        );
        const { diagnostics } = parseProject(
          bakeryProject({ 'database.yaml': database, 'tools.yaml': tools }),
        );
        for (const d of diagnostics) expect(d.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });
});
