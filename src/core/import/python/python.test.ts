import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnnotation } from './annotation.ts';
import { readDocstring } from './docstring.ts';
import { literalOfText } from './literal.ts';
import { readPythonModule } from './module.ts';
import { schemaOf, scopeOf } from './schemaOf.ts';
import { tokenizePython } from './tokenize.ts';

const SOURCE = `from typing import List, Optional

Status = Literal["open", "closed"]


@register
class Shop(Base, metaclass=Meta):
    """A shop.

    More text."""

    name: str = Field(description="The shop's " "name")
    tags: List[str] = Field(default_factory=list, description='Tags')
    owner: Optional[str] = None
    status: Status = Field(..., description="State")

    @is_tool(ToolType.WRITE)
    def close(
        self,
        reason: str,  # why
        *args,
        when: Optional[int] = None,
        **kwargs,
    ) -> "Shop":
        """Close the shop.

        Args:
            reason: Why it closes,
                in a few words.
            when (int): When.

        Returns:
            The shop.
        """
        if self.status != "open": raise ValueError("Only an open shop closes")
        for x in range(3):
            if x > reason:
                raise ValueError(f"Bad {x}")
        else:
            pass
        raise RuntimeError("always")


def helper(a, b=[1, 2], *, c: dict = {}):
    s = '''not a docstring'''
    return "Error: nope"
`;

describe('readPythonModule', () => {
  const module = readPythonModule(SOURCE);
  const shop = module.classes[0];
  const close = shop?.methods[0];

  it('reads classes with their bases, decorators, docstring and fields', () => {
    expect(module.problems).toEqual([]);
    expect(shop?.name).toBe('Shop');
    expect(shop?.bases).toEqual(['Base', 'metaclass=Meta']);
    expect(shop?.decorators).toEqual(['register']);
    expect(shop?.docstring).toBe('A shop.\n\nMore text.');
    expect(shop?.fields.map((f) => [f.name, f.annotation, f.description, f.optional])).toEqual([
      ['name', 'str', "The shop's name", false],
      ['tags', 'List[str]', 'Tags', true],
      ['owner', 'Optional[str]', undefined, true],
      ['status', 'Status', 'State', false],
    ]);
  });

  it('reads a multi-line signature with annotations, defaults and stars', () => {
    expect(close?.name).toBe('close');
    expect(close?.decorators).toEqual(['is_tool(ToolType.WRITE)']);
    expect(close?.params).toEqual([
      { name: 'self', kind: 'plain' },
      { name: 'reason', kind: 'plain', annotation: 'str' },
      { name: 'args', kind: 'star' },
      { name: 'when', kind: 'plain', annotation: 'Optional[int]', default: 'None' },
      { name: 'kwargs', kind: 'starstar' },
    ]);
    expect(close?.returns).toBe('"Shop"');
  });

  it('reads raises with the if above them, inline ones and f-strings included', () => {
    expect(close?.raises.map((r) => [r.exception, r.message, r.condition, r.fstring])).toEqual([
      ['ValueError', 'Only an open shop closes', 'self.status != "open"', false],
      ['ValueError', 'Bad {x}', 'x > reason', true],
      ['RuntimeError', 'always', undefined, false],
    ]);
  });

  it('reads module functions, keyword-only markers and error returns', () => {
    const helper = module.functions[0];
    expect(helper?.params.map((p) => [p.name, p.default])).toEqual([
      ['a', undefined],
      ['b', '[1, 2]'],
      ['c', '{}'],
    ]);
    expect(helper?.docstring).toBeUndefined();
    expect(helper?.raises.map((r) => [r.exception, r.message])).toEqual([
      ['return', 'Error: nope'],
    ]);
    expect(module.assignments.map((a) => [a.name, a.value])).toEqual([
      ['Status', 'Literal["open", "closed"]'],
    ]);
  });

  it('reports what it cannot read instead of throwing', () => {
    const broken = readPythonModule('class A:\n    def f(self:\n        x = "open\n');
    expect(broken.problems.length).toBeGreaterThan(0);
    expect(broken.problems.map((p) => p.message).join(' ')).toMatch(/never closed/);
  });

  it('never throws and always ends its tokens with eof (property)', () => {
    const pythonish = fc
      .array(
        fc.constantFrom(
          'def ',
          'class ',
          'x',
          ':',
          '(',
          ')',
          '[',
          ']',
          '"',
          "'",
          '"""',
          '\n',
          '    ',
          '\t',
          '#',
          '\\',
          'f"',
          '=',
          ',',
          '@',
          'raise ',
          'if ',
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), pythonish), (text) => {
        const module = readPythonModule(text);
        const { tokens } = tokenizePython(text);
        expect(tokens[tokens.length - 1]?.type).toBe('eof');
        expect(Array.isArray(module.problems)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('finds every generated function with its parameters (property)', () => {
    const ident = fc
      .stringMatching(/^[a-z][a-z0-9_]{0,6}$/)
      .filter((s) => !['if', 'in', 'is', 'or', 'as', 'def', 'for', 'and', 'not'].includes(s));
    fc.assert(
      fc.property(
        fc.uniqueArray(ident, { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(ident, { maxLength: 4 }),
        (names, params) => {
          const source = names
            .map(
              (n) =>
                `@deco(${JSON.stringify(n)})\ndef ${n}(\n    ${params.map((p) => `${p}: int = 1`).join(',\n    ')}\n):\n    """Doc ${n}."""\n    return 1\n`,
            )
            .join('\n');
          const module = readPythonModule(source);
          expect(module.problems).toEqual([]);
          expect(module.functions.map((f) => f.name)).toEqual(names);
          for (const f of module.functions) {
            expect(f.params.map((p) => p.name)).toEqual(params);
            expect(f.docstring).toBe(`Doc ${f.name}.`);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** A Python literal for a JSON value, as `repr` would write it. */
function pyRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string')
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value as object)
    .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
}

describe('literalOfText', () => {
  it('reads what Python repr writes, back to the same value (property)', () => {
    const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(
      fc.property(json, (value) => {
        expect(literalOfText(pyRepr(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('joins adjacent strings, reads tuples, signs and empty containers', () => {
    expect(literalOfText('("a" "b", -2, 0x10, (1,), {}, [], ())')).toEqual([
      'ab',
      -2,
      16,
      [1],
      {},
      [],
      [],
    ]);
  });

  it('refuses names, calls and f-strings with a reason', () => {
    expect(literalOfText('build(1)')).toHaveProperty('notLiteral');
    expect(literalOfText('{"a": x}')).toHaveProperty('notLiteral');
    expect(literalOfText('f"{x}"')).toEqual({ notLiteral: 'an f-string' });
  });
});

describe('annotations and schemas', () => {
  const scope = scopeOf([readPythonModule(SOURCE)]);

  it('reads nested generics, unions and forward references', () => {
    expect(readAnnotation('typing.Dict[str, List["Shop"]]')).toEqual({
      kind: 'name',
      name: 'Dict',
      args: [
        { kind: 'name', name: 'str', args: [] },
        { kind: 'name', name: 'List', args: [{ kind: 'name', name: 'Shop', args: [] }] },
      ],
    });
    expect(readAnnotation('int | None')).toMatchObject({ name: 'Union' });
    expect(readAnnotation('Dict[str')).toMatchObject({ kind: 'unknown' });
  });

  it('gives JSON Schemas for scalars, lists, maps, optionals, literals and classes', () => {
    const unknown = new Set<string>();
    expect(schemaOf(readAnnotation('Optional[List[int]]'), scope, unknown)).toEqual({
      type: ['array', 'null'],
      items: { type: 'integer' },
    });
    expect(schemaOf(readAnnotation('Optional[str]'), scope, unknown)).toEqual({
      type: ['string', 'null'],
    });
    expect(schemaOf(readAnnotation('Status'), scope, unknown)).toEqual({
      type: 'string',
      enum: ['open', 'closed'],
    });
    const shop = schemaOf(readAnnotation('Dict[str, Shop]'), scope, unknown);
    expect(shop).toMatchObject({
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The shop's name" },
          tags: { type: 'array' },
        },
        required: ['name', 'status'],
      },
    });
    expect(unknown).toEqual(new Set());
    schemaOf(readAnnotation('Mystery'), scope, unknown);
    expect(unknown).toEqual(new Set(['Mystery']));
  });

  it('reads a docstring summary and its Args, continuation lines joined', () => {
    const doc = readDocstring(readPythonModule(SOURCE).classes[0]?.methods[0]?.docstring ?? '');
    expect(doc.description).toBe('Close the shop.');
    expect(Object.fromEntries(doc.args)).toEqual({
      reason: 'Why it closes, in a few words.',
      when: 'When.',
    });
  });
});
