import fc from 'fast-check';
import { Document, Scalar, isCollection, parseDocument, visit } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { GraphEditResult, PolicyField } from './edits.ts';
import { addPolicy, deletePolicy, removeRelation, setPolicyField, setRelation } from './edits.ts';
import { replaySplices } from '../testing/graphs.ts';

// Random policies files in every style the edits must keep (indentation, flow and block lists,
// one-line relation maps, quoting, folded texts, comments between and inside items, CRLF), put
// through random edits. After each edit the file must parse to exactly what the same edit does
// to the plain value, and every comment must still be there unless its item was removed.

interface Policy {
  id: string;
  text: string;
  category: string;
  challenge: number;
  tools?: string[];
}
interface Relation {
  between: [string, string];
  weight: number;
  origin?: string;
}
interface Model {
  policies?: Policy[] | null;
  relations?: Relation[] | null;
}
/** A comment tag and the item it is written inside (removed with it), if any. */
interface Tag {
  tag: string;
  owner?: string;
}

// prettier-ignore
const SPECIAL = ['a', 'b', ' ', 'z', ':', '#', "'", '"', '-', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '`', 'é', '漢', '🙂'];
const text = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.constant('\n')), { minLength: 1, maxLength: 14 })
  .map((chars) => chars.join(''))
  .filter((s) => s.trim() !== '');
const category = fc.constantFrom('refunds', 'a: b', "it's", '# hash', 'ünï', 'x, y');
const id = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const policyArb = (policyId: string) =>
  fc.record(
    {
      id: fc.constant(policyId),
      text,
      category,
      challenge: fc.integer({ min: 1, max: 5 }),
      tools: fc.array(fc.constantFrom('get_user', 'refund'), { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ['id', 'text', 'category', 'challenge'] },
  );
const weight = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom(0.5, 7.25));
const origin = fc.constantFrom('manual', 'heuristic', 'model');

const fileArb = fc
  .uniqueArray(id, { maxLength: 6 })
  .chain((ids) => fc.tuple(...ids.map(policyArb)))
  .chain((policies) =>
    fc.record({
      policies: fc.constant(policies as Policy[]),
      relations: fc.uniqueArray(
        fc.tuple(fc.nat(), fc.nat(), weight, fc.option(origin, { nil: undefined })),
        { maxLength: 8, selector: ([a, b]) => [a, b].sort().join() },
      ),
      pad: fc.constantFrom(0, 2, 4),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
      policiesStyle: fc.constantFrom('block', 'block', 'flow', 'missing'),
      relationsStyle: fc.constantFrom('block', 'oneLine', 'flow', 'missing'),
      textStyle: fc.array(
        fc.constantFrom('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_FOLDED'),
        {
          minLength: 8,
          maxLength: 8,
        },
      ),
      noise: fc.array(fc.nat({ max: 9 }), { minLength: 40, maxLength: 40 }),
    }),
  );

type FileSpec = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;

/** Writes the spec as a policies.yaml; returns the text, its value and its comment tags. */
function build(spec: FileSpec): { text: string; model: Model; tags: Tag[] } {
  const { pad, noise } = spec;
  const policies = spec.policiesStyle === 'missing' ? [] : spec.policies;
  const relations: Relation[] = [];
  for (const [a, b, w, o] of policies.length < 2 ? [] : spec.relations) {
    const x = policies[a % policies.length]?.id ?? '';
    const y = policies[b % policies.length]?.id ?? '';
    if (x === y || relations.some((r) => r.between.includes(x) && r.between.includes(y))) continue;
    relations.push({ between: [x, y], weight: w, ...(o === undefined ? {} : { origin: o }) });
  }
  const lines: string[] = [];
  const tags: Tag[] = [];
  let step = 0;
  const roll = () => noise[step++ % noise.length] ?? 0;
  const comment = (indent: number, owner?: string) => {
    const tag = `[c${tags.length}]`;
    tags.push(owner === undefined ? { tag } : { tag, owner });
    return `${' '.repeat(indent)}# ${tag} it's "odd": é`;
  };
  const between = () => {
    const r = roll();
    if (r === 0) lines.push('');
    else if (r < 4) lines.push(comment([0, pad, pad + 2][r - 1] ?? 0));
  };
  const sp = ' '.repeat(pad);
  between();
  const model: Model = {};
  if (
    spec.policiesStyle === 'flow' ||
    (spec.policiesStyle !== 'missing' && policies.length === 0)
  ) {
    lines.push(`policies: ${flow(policies)}`);
    model.policies = policies;
  } else if (spec.policiesStyle === 'block') {
    lines.push('policies:');
    model.policies = policies;
    policies.forEach((p, i) => {
      between();
      lines.push(`${sp}- id: ${p.id}${roll() < 3 ? ` ${comment(0, p.id)}` : ''}`);
      if (roll() < 3) lines.push(comment(pad + 2, p.id));
      // Sometimes the (maybe folded) text or a block list of tools ends the item.
      const textLine = `${sp}  text: ${scalar(p.text, spec.textStyle[i % 8] ?? 'PLAIN', pad + 2)}`;
      const textLast = roll() < 4;
      if (!textLast) lines.push(textLine);
      lines.push(`${sp}  category: ${scalar(p.category, 'PLAIN', pad + 2)}`);
      lines.push(`${sp}  challenge: ${p.challenge}${roll() < 3 ? ` ${comment(0, p.id)}` : ''}`);
      if (p.tools && roll() < 5) lines.push(`${sp}  tools: [${p.tools.join(', ')}]`);
      else if (p.tools) lines.push(`${sp}  tools:`, ...p.tools.map((t) => `${sp}    - ${t}`));
      if (textLast) lines.push(textLine);
    });
  }
  between();
  const owner = (r: Relation) => [...r.between].sort().join('|');
  if (spec.relationsStyle === 'flow' || (spec.relationsStyle !== 'missing' && !relations.length)) {
    lines.push(`relations: ${flow(relations)}`);
    model.relations = relations;
  } else if (spec.relationsStyle !== 'missing') {
    lines.push(`relations:${roll() < 3 ? ` ${comment(0)}` : ''}`);
    model.relations = relations;
    for (const r of relations) {
      between();
      const trailing = roll() < 3 ? ` ${comment(0, owner(r))}` : '';
      if (spec.relationsStyle === 'oneLine') {
        lines.push(`${sp}- ${flow(r)}${trailing}`);
        continue;
      }
      lines.push(`${sp}- between: [${r.between.join(', ')}]${trailing}`);
      lines.push(`${sp}  weight: ${r.weight}`);
      if (r.origin !== undefined) lines.push(`${sp}  origin: ${r.origin}`);
    }
  }
  between();
  const eol = spec.crlf ? '\r\n' : '\n';
  const text = (lines.join('\n') + (spec.finalNewline ? '\n' : '')).replace(/\n/g, eol);
  return { text, model, tags };
}

function flow(value: unknown): string {
  const doc = new Document(value);
  if (isCollection(doc.contents)) doc.contents.flow = true;
  // The library writes multi-line plain scalars in flow collections that it cannot read back.
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && node.value.includes('\n')) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 }).trimEnd();
}

function scalar(value: string, type: Scalar.Type, column: number): string {
  const node = new Scalar(value);
  // A kept final line break (`>+`) would take in the blank lines after it: quote those.
  const folded = type === 'BLOCK_FOLDED' && !value.endsWith('\n');
  node.type = folded || (type !== 'BLOCK_FOLDED' && !value.includes('\n')) ? type : 'QUOTE_DOUBLE';
  let text = new Document({ k: node }).toString({ lineWidth: 30 });
  // The library folds a few odd strings in a way it cannot read back: write those quoted.
  if ((parseDocument(text).toJS() as { k: unknown }).k !== value) {
    node.type = 'QUOTE_DOUBLE';
    text = new Document({ k: node }).toString({ lineWidth: 30 });
  }
  text = text.replace(/\n$/, '');
  return text
    .slice(3)
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : ' '.repeat(column) + line))
    .join('\n');
}

type Op =
  | { kind: 'add'; id: string | undefined; policy: Omit<Policy, 'id'> }
  | { kind: 'delete'; pick: number }
  | { kind: 'field'; pick: number; field: PolicyField; text: string; challenge: number }
  | { kind: 'relate'; a: number; b: number; weight: number; origin: string }
  | { kind: 'unrelate'; a: number; b: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    id: fc.option(fc.constantFrom('New Policy', 'a', 'b-1', 'Été: 2'), { nil: undefined }),
    policy: policyArb('').map(({ id: _, ...rest }) => rest),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('field' as const),
    pick: fc.nat(),
    field: fc.constantFrom<PolicyField>('text', 'category', 'challenge'),
    text,
    challenge: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant('relate' as const), a: fc.nat(), b: fc.nat(), weight, origin }),
  fc.record({ kind: fc.constant('unrelate' as const), a: fc.nat(), b: fc.nat() }),
);

const GHOST = 'ghost-policy';

/** Runs one edit on the text and on the model; returns the new text (or the old on refusal). */
function run(text: string, model: Model, tags: Tag[], op: Op): string {
  const ids = (model.policies ?? []).map((p) => p.id);
  const pick = (n: number) =>
    n % 9 === 8 || ids.length === 0 ? GHOST : (ids[n % ids.length] ?? '');
  const sameEnds = (a: string, b: string) => (r: Relation) =>
    [a, b].sort().join('|') === [...r.between].sort().join('|');
  let result: GraphEditResult;
  let expectFailure = false;
  if (op.kind === 'add') {
    result = addPolicy(text, { ...op.policy, ...(op.id === undefined ? {} : { id: op.id }) });
    if (result.ok) {
      const newId = (result as unknown as { id: string }).id;
      expect(newId).toMatch(/^[a-z][a-z0-9_-]*$/);
      expect(ids).not.toContain(newId);
      if (op.id === undefined) expect(newId).toMatch(/^new-policy(-\d+)?$/);
      model.policies = [...(model.policies ?? []), { id: newId, ...op.policy }];
    }
  } else if (op.kind === 'delete') {
    const target = pick(op.pick);
    result = deletePolicy(text, target);
    expectFailure = target === GHOST;
    if (result.ok) {
      model.policies = (model.policies ?? []).filter((p) => p.id !== target);
      const kept = model.relations?.filter((r) => !r.between.includes(target));
      const gone = (model.relations?.length ?? 0) - (kept?.length ?? 0);
      expect(result).toMatchObject({ removedRelations: gone });
      if (model.relations) model.relations = kept ?? [];
      drop(tags, (owner) => owner === target || owner.split('|').includes(target));
    }
  } else if (op.kind === 'field') {
    const target = pick(op.pick);
    const value = op.field === 'challenge' ? op.challenge : op.text;
    result = setPolicyField(text, target, op.field, value);
    expectFailure = target === GHOST;
    const item = model.policies?.find((p) => p.id === target);
    if (result.ok && item) Object.assign(item, { [op.field]: value });
  } else if (op.kind === 'relate') {
    const [a, b] = [pick(op.a), pick(op.b)];
    result = setRelation(text, a, b, op.weight, op.origin as 'manual');
    expectFailure = a === GHOST || b === GHOST || a === b;
    if (result.ok) {
      const existing = model.relations?.find(sameEnds(a, b));
      if (existing) Object.assign(existing, { weight: op.weight, origin: op.origin });
      else
        model.relations = [
          ...(model.relations ?? []),
          { between: [a, b], weight: op.weight, origin: op.origin },
        ];
    }
  } else {
    // Mostly a relation that exists (either way round), sometimes any pair.
    const existing = model.relations?.[op.a % 4 === 3 ? -1 : op.a % (model.relations.length || 1)];
    const ends = existing?.between ?? [pick(op.a), pick(op.b)];
    const [a, b] = op.b % 2 === 0 ? ends : [ends[1], ends[0]];
    result = removeRelation(text, a, b);
    expectFailure = !(model.relations ?? []).some(sameEnds(a, b));
    if (result.ok && model.relations) {
      model.relations = model.relations.filter((r) => !sameEnds(a, b)(r));
      drop(tags, (owner) => owner === [a, b].sort().join('|'));
    }
  }
  expect(result.ok, result.ok ? 'done' : result.message).toBe(!expectFailure);
  if (!result.ok) return text;
  expect(replaySplices(text, result.splices)).toBe(result.text);
  return result.text;
}

function drop(tags: Tag[], gone: (owner: string) => boolean): void {
  for (const tag of tags) if (tag.owner !== undefined && gone(tag.owner)) tag.owner = '\u0000gone';
}

function check(text: string, model: Model, tags: readonly Tag[], crlf: boolean): void {
  const doc = parseDocument(text);
  expect(doc.errors).toEqual([]);
  expect(doc.toJS() ?? {}).toEqual(model);
  for (const { tag, owner } of tags) {
    expect(text.split(tag).length - 1, tag).toBe(owner === '\u0000gone' ? 0 : 1);
  }
  if (crlf) expect(text).not.toMatch(/(?<!\r)\n/);
}

describe('graph edits on random policies files', () => {
  it('keep the file readable, equal to the edited value, and every comment in place', () => {
    fc.assert(
      fc.property(fileArb, fc.array(opArb, { maxLength: 6 }), (spec, ops) => {
        const { text: initial, model, tags } = build(spec);
        // A file with no line break yet gets `\n`; only a CRLF file must stay CRLF.
        const crlf = initial.includes('\r\n');
        check(initial, model, tags, crlf);
        let text = initial;
        for (const op of ops) {
          text = run(text, model, tags, op);
          check(text, model, tags, crlf);
        }
      }),
      { numRuns: 300 },
    );
  });
});
