import { readFileSync } from 'node:fs';
import { parse, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { GraphEditResult } from './edits.ts';
import { addPolicy, deletePolicy, removeRelation, setPolicyField, setRelation } from './edits.ts';
import { replaySplices } from '../testing/graphs.ts';

const AIRLINE = readFileSync(
  new URL('../../../public/examples/airline/policies.yaml', import.meta.url),
  'utf8',
);

interface Plain {
  policies?: Record<string, unknown>[] | null;
  relations?: { between: string[]; weight: number; origin?: string }[] | null;
}

/** The text of a successful edit (fails the test with the message otherwise). */
function ok<T extends object>(result: GraphEditResult<T>): string {
  if (!result.ok) expect.fail(result.message);
  return result.text;
}

function value(text: string): Plain {
  const doc = parseDocument(text);
  expect(doc.errors).toEqual([]);
  return doc.toJS() as Plain;
}

/** Comment lines (`# ...` alone on a line), as written. */
function comments(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => /^\s*#/.test(line));
}

const policy = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  text: `${id} text`,
  category: 'c',
  challenge: 2,
  ...extra,
});

describe('graph edits on the airline example', () => {
  const before = value(AIRLINE);
  const beforeComments = comments(AIRLINE);

  it('adds a policy after the last one, before the comment that heads the relations', () => {
    const result = addPolicy(AIRLINE, {
      text: 'Never promise an upgrade: "maybe" is # not a yes.',
      category: 'booking',
      challenge: 4,
      tools: ['book_reservation'],
    });
    const text = ok(result);
    expect(result).toMatchObject({ id: 'new-policy' });
    expect(value(text)).toEqual({
      ...before,
      policies: [
        ...(before.policies ?? []),
        {
          id: 'new-policy',
          text: 'Never promise an upgrade: "maybe" is # not a yes.',
          category: 'booking',
          challenge: 4,
          tools: ['book_reservation'],
        },
      ],
    });
    expect(comments(text)).toEqual(beforeComments);
    expect(text).toContain(
      '    source: { line: 98 }\n  - id: new-policy\n    text: \'Never promise an upgrade: "maybe" is # not a yes.\'\n    category: booking\n    challenge: 4\n    tools: [book_reservation]\n\n# prettier-ignore\nrelations:\n',
    );
    if (result.ok) expect(replaySplices(AIRLINE, result.splices)).toBe(text);
  });

  it('deletes a policy with its relations and keeps every comment', () => {
    const result = deletePolicy(AIRLINE, 'ignore-unverified-claims');
    const text = ok(result);
    expect(result).toMatchObject({ removedRelations: 4 });
    expect(value(text)).toEqual({
      policies: before.policies?.filter((p) => p.id !== 'ignore-unverified-claims'),
      relations: before.relations?.filter((r) => !r.between.includes('ignore-unverified-claims')),
    });
    expect(comments(text)).toEqual(beforeComments);
    expect(text).toContain('  # Claims the traveller makes versus what the records say.\n\n');
    if (result.ok) expect(replaySplices(AIRLINE, result.splices)).toBe(text);
  });

  it('sets a field in place, keeping the folded style of a long text', () => {
    const long = 'Free bags: regular 0/1/2, silver 1/2/3 and gold 2/3/3. '.repeat(3).trim();
    const text = ok(setPolicyField(AIRLINE, 'free-bag-allowance', 'text', long));
    expect(text).toContain('  - id: free-bag-allowance\n    text: >-\n      Free bags:');
    const category = ok(setPolicyField(text, 'free-bag-allowance', 'category', 'bags'));
    const challenge = ok(setPolicyField(category, 'free-bag-allowance', 'challenge', 5));
    const policies = (before.policies ?? []).map((p) =>
      p.id === 'free-bag-allowance' ? { ...p, text: long, category: 'bags', challenge: 5 } : p,
    );
    expect(value(challenge)).toEqual({ ...before, policies });
    expect(comments(challenge)).toEqual(beforeComments);
  });

  it('changes a relation written the other way round, on its own line', () => {
    const result = setRelation(
      AIRLINE,
      'confirm-name-matches-profile',
      'verify-identity-before-account-actions',
      3,
      'model',
    );
    const text = ok(result);
    expect(result).toMatchObject({ created: false });
    expect(text).toContain(
      '  - { between: [verify-identity-before-account-actions, confirm-name-matches-profile], weight: 3, origin: model }\n',
    );
    expect(AIRLINE.length - text.length).toBe(1);
    expect(comments(text)).toEqual(beforeComments);
  });

  it('appends a new relation in the style of the others, and removes it again', () => {
    const result = setRelation(AIRLINE, 'introduce-as-skyway', 'no-prompt-disclosure', 2.5);
    const text = ok(result);
    expect(result).toMatchObject({ created: true });
    expect(text).toBe(
      `${AIRLINE}  - { between: [introduce-as-skyway, no-prompt-disclosure], weight: 2.5, origin: manual }\n`,
    );
    const removed = removeRelation(text, 'no-prompt-disclosure', 'introduce-as-skyway');
    expect(removed).toMatchObject({ ok: true, removed: 1, text: AIRLINE });
  });
});

describe('list styles and odd files', () => {
  it('starts a file from nothing and from an empty flow list', () => {
    const empty = ok(addPolicy('', { text: 'T', category: 'c', challenge: 3 }));
    expect(empty).toBe(
      'policies:\n  - id: new-policy\n    text: T\n    category: c\n    challenge: 3\n',
    );
    expect(ok(addPolicy('policies: [] # none yet\nrelations: []\n', policy('a')))).toBe(
      'policies: # none yet\n  - id: a\n    text: a text\n    category: c\n    challenge: 2\nrelations: []\n',
    );
    expect(ok(addPolicy('policies: null\n', policy('a')))).toBe(
      'policies:\n  - id: a\n    text: a text\n    category: c\n    challenge: 2\n',
    );
  });

  it('edits flow lists inside their brackets', () => {
    const text = 'policies: [{id: a, text: A, category: c, challenge: 1}]\nrelations: []\n';
    const added = ok(addPolicy(text, policy('b')));
    expect(added).toBe(
      'policies: [{id: a, text: A, category: c, challenge: 1}, {id: b, text: b text, category: c, challenge: 2}]\nrelations: []\n',
    );
    const related = ok(setRelation(added, 'a', 'b', 4));
    expect(related).toContain(
      'relations:\n  - between: [a, b]\n    weight: 4\n    origin: manual\n',
    );
    const moved = ok(setPolicyField(related, 'b', 'category', 'x, y'));
    expect(moved).toContain("{id: b, text: b text, category: 'x, y', challenge: 2}");
    const removed = ok(deletePolicy(moved, 'a'));
    expect(value(removed)).toEqual({
      policies: [{ id: 'b', text: 'b text', category: 'x, y', challenge: 2 }],
      relations: [],
    });
    expect(ok(deletePolicy(removed, 'b'))).toContain('policies: []\n');
  });

  it.each([
    ['column 0', ''],
    ['2 spaces', '  '],
    ['4 spaces', '    '],
  ])('keeps the indentation of a list with its dash at %s', (_, pad) => {
    const text = `policies:\n${pad}- id: a\n${pad}  text: A\n${pad}  category: c\n${pad}  challenge: 1\n`;
    const added = ok(addPolicy(text, { id: 'B', text: 'B', category: 'c', challenge: 2 }));
    expect(added).toBe(
      `${text}${pad}- id: b\n${pad}  text: B\n${pad}  category: c\n${pad}  challenge: 2\n`,
    );
    const related = ok(setRelation(added, 'b', 'a', 6));
    expect(related).toBe(
      `${added}relations:\n${pad}- between: [b, a]\n${pad}  weight: 6\n${pad}  origin: manual\n`,
    );
    expect(ok(setRelation(related, 'a', 'b', 7))).toContain(`${pad}  weight: 7\n`);
    expect(ok(deletePolicy(related, 'b'))).toBe(`${text}relations: []\n`);
  });

  it('keeps Windows line endings', () => {
    const text = '# head\r\npolicies:\r\n  - id: a\r\n    text: A\r\n    challenge: 1\r\n';
    const steps = [
      (t: string) => addPolicy(t, { text: 'two\nlines', category: 'c', challenge: 2 }),
      (t: string) => setRelation(t, 'a', 'new-policy', 5),
      (t: string) => setPolicyField(t, 'a', 'text', 'A: longer'),
      (t: string) => setPolicyField(t, 'a', 'category', 'c'),
      (t: string) => deletePolicy(t, 'new-policy'),
    ];
    let current = text;
    for (const step of steps) {
      current = ok(step(current));
      expect(current.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    }
    expect(value(current)).toEqual({
      policies: [{ id: 'a', text: 'A: longer', category: 'c', challenge: 1 }],
      relations: [],
    });
  });

  it('inserts a missing field where it belongs, and an empty one after its colon', () => {
    const text = 'policies:\n  - id: a\n    challenge: 1 # easy\n  - id: b\n    category:\n';
    const withText = ok(setPolicyField(text, 'a', 'text', "it's"));
    expect(withText).toBe(
      "policies:\n  - id: a\n    text: it's\n    challenge: 1 # easy\n  - id: b\n    category:\n",
    );
    expect(ok(setPolicyField(withText, 'b', 'category', 'x'))).toMatch(/category: x\n$/);
    expect(ok(setPolicyField(withText, 'a', 'challenge', 4))).toContain('challenge: 4 # easy\n');
  });

  it('changes nothing when the value is already set', () => {
    const text = 'policies:\n  - id: a\n    text: "A"\n    category: c\n    challenge: 1\n';
    expect(setPolicyField(text, 'a', 'text', 'A')).toEqual({ ok: true, text, splices: [] });
    expect(ok(setPolicyField(text, 'a', 'text', 'B'))).toContain('text: "B"\n');
  });

  it('keeps a quoting style the value allows', () => {
    const text = "policies:\n  - {id: a, text: 'A', category: c, challenge: 1}\n";
    expect(ok(setPolicyField(text, 'a', 'text', 'B'))).toContain("text: 'B'");
    expect(ok(setPolicyField(text, 'a', 'text', 'B\nC'))).toContain('text: "B\\nC"');
  });
});

describe('block scalars', () => {
  it('does not let a kept final line break swallow the blank line after it', () => {
    const text =
      'policies:\n  - id: a\n    category: c\n    challenge: 1\n    text: >-\n      folded\n\n  # next\n';
    const edited = ok(setPolicyField(text, 'a', 'text', 'two breaks\n\n'));
    expect(value(edited).policies?.[0]?.text).toBe('two breaks\n\n');
    expect(edited).toContain('\n\n  # next\n');
    const folded = ok(setPolicyField(text, 'a', 'text', 'still folded'));
    expect(folded).toBe(text.replace('folded\n', 'still folded\n'));
  });
});

describe('refusals', () => {
  const text = `# keep\npolicies:\n  - id: a\n    text: A\n    category: c\n    challenge: 1\n`;

  it.each([
    ['policies: [\n', "can't be read as YAML (line 2)"],
    ['policies:\n  - id: a\n   text: bad indent\n', "can't be read as YAML"],
    ['- a\n- b\n', 'should be a mapping'],
    ['policies: 3\n', '`policies` should be a list'],
    ['policies: [\n  a: 1\n', "can't be read as YAML"],
  ])('refuses %j with a plain message', (bad, message) => {
    for (const result of [
      addPolicy(bad, policy('x')),
      deletePolicy(bad, 'a'),
      setPolicyField(bad, 'a', 'text', 'x'),
      setRelation(bad, 'a', 'b', 1),
      removeRelation(bad, 'a', 'b'),
    ]) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain(message);
    }
  });

  it('will not add a key to a file written as one flow mapping', () => {
    const flowRoot =
      '{policies: [{id: a, text: A, category: c, challenge: 1}, {id: b, text: B, category: c, challenge: 1}]}\n';
    expect(setRelation(flowRoot, 'a', 'b', 1)).toEqual({
      ok: false,
      message: "`relations` can't be added to a file written as one { ... } mapping.",
    });
    expect(ok(setPolicyField(flowRoot, 'b', 'challenge', 2))).toContain('challenge: 2}]}');
  });

  it('names what is missing or wrong', () => {
    const messages = [
      deletePolicy(text, 'ghost'),
      setPolicyField(text, 'ghost', 'text', 'x'),
      setPolicyField(text, 'a', 'challenge', 6),
      setPolicyField(text, 'a', 'text', '  '),
      addPolicy(text, { text: 'x', category: '', challenge: 1 }),
      setRelation(text, 'a', 'ghost', 1),
      setRelation(text, 'a', 'a', 1),
      setRelation(text, 'a', 'b', 11),
      removeRelation(text, 'a', 'b'),
    ].map((result) => (result.ok ? 'ok' : result.message));
    expect(messages).toEqual([
      'Policy "ghost" not found.',
      'Policy "ghost" not found.',
      'The challenge must be a whole number from 1 to 5.',
      'A policy needs a text.',
      'A policy needs a category.',
      'Policy "ghost" not found.',
      'A policy cannot be related to itself.',
      'The weight must be a number from 0 to 10.',
      'There is no relation between "a" and "b".',
    ]);
  });

  it('makes ids from what it is given, unique in the file', () => {
    const ids = ['Refund Window!', 'a', 'a', undefined, undefined, '42 Ünïcode stuff'].reduce<{
      text: string;
      ids: string[];
    }>(
      (acc, id) => {
        const input = { text: 'x', category: 'c', challenge: 1 };
        const result = addPolicy(acc.text, { ...input, ...(id === undefined ? {} : { id }) });
        if (!result.ok) expect.fail(result.message);
        return { text: result.text, ids: [...acc.ids, result.id] };
      },
      { text, ids: [] },
    );
    expect(ids.ids).toEqual([
      'refund-window',
      'a-2',
      'a-3',
      'new-policy',
      'new-policy-2',
      'unicode-stuff',
    ]);
    expect(parse(ids.text)).toMatchObject({ policies: expect.any(Array) as unknown });
  });
});
