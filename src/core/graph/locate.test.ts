import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { policyAtOffset, policySpans } from './locate.ts';

const airline = readFileSync('public/examples/airline/policies.yaml', 'utf8');

/** The truth from a full YAML parse: each policy item's range and its id value's offset. */
function truth(text: string) {
  const doc = parseDocument(text);
  const items = (doc.get('policies', true) as { items: unknown[] } | undefined)?.items ?? [];
  return items.map((item) => {
    const node = item as {
      range: [number, number, number];
      get(k: string, keep: true): { range: [number] };
    };
    // The item starts at its dash; the map inside it starts after the dash.
    const at = node.get('id', true).range[0];
    // The cursor goes inside quotes.
    return {
      idAt: /['"]/.test(text.charAt(at)) ? at + 1 : at,
      start: text.lastIndexOf('-', node.range[0]),
    };
  });
}

describe('policySpans', () => {
  it('finds every policy of the airline example where a YAML parser does', () => {
    const spans = policySpans(airline);
    const expected = truth(airline);
    expect(spans).toHaveLength(expected.length);
    expect(spans.map((s) => s.idAt)).toEqual(expected.map((e) => e.idAt));
    expect(spans.map((s) => s.start)).toEqual(expected.map((e) => e.start));
    const second = spans[1];
    expect(second && policyAtOffset(spans, second.idAt + 2)).toBe(second?.id);
  });

  it('agrees with a YAML parser on generated files with comments, quotes and CRLF', () => {
    const policy = fc.record({
      id: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
      quote: fc.constantFrom('', "'", '"'),
      idFirst: fc.boolean(),
      comment: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(policy, { maxLength: 8 }),
        fc.constantFrom(2, 4),
        fc.boolean(),
        (ps, indent, crlf) => {
          const pad = ' '.repeat(indent);
          const lines = ['# policies', 'policies:'];
          for (const p of ps) {
            if (p.comment) lines.push(`${pad}# about ${p.id}: with - id: fake`);
            const id = `id: ${p.quote}${p.id}${p.quote}`;
            if (p.idFirst) lines.push(`${pad}- ${id}`, `${pad}  text: Say "id: no" here.`);
            else lines.push(`${pad}- text: 'id: not this'`, `${pad}  ${id}`);
            lines.push(`${pad}  category: tone`);
          }
          lines.push('relations: []', '');
          const text = lines.join(crlf ? '\r\n' : '\n');
          const spans = policySpans(text);
          expect(spans.map((s) => s.idAt)).toEqual(truth(text).map((e) => e.idAt));
          expect(spans.map((s) => s.id)).toEqual(ps.map((p) => p.id));
        },
      ),
      { numRuns: 500 },
    );
  });
});
