import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel, isCelProblem } from './cel.ts';
import { celSelect } from './celVariables.ts';

describe('celSelect', () => {
  it('writes a plain field with a dot and a word CEL keeps with brackets', () => {
    expect(celSelect('row', 'status')).toBe('row.status');
    expect(celSelect('row', 'in')).toBe('row["in"]');
    expect(celSelect('row', 'null')).toBe('row["null"]');
    expect(celSelect('row', 'db')).toBe('row.db');
  });

  it('reads the named field, whatever the name (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom('in', 'true', 'false', 'null', 'as', 'while', 'a"b')),
        fc.string(),
        (name, value) => {
          const compiled = compileCel(celSelect('row', name));
          if (isCelProblem(compiled)) throw new Error(`${name}: ${compiled.message}`);
          expect(compiled.run({ row: { [name]: value } })).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });
});
