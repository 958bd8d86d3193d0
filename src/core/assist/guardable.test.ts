import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { guardablePolicies, guardability } from './guardable.ts';
import { lendingDesk } from './testdata/lendingDesk.ts';

const model = parseProject(lendingDesk()).model;
const whyOf = (id: string) => {
  const found = guardablePolicies(model).find((g) => g.policy === id);
  return found && !found.offered ? found.why : 'offered';
};

describe('guardablePolicies', () => {
  it('offers policies that limit a call of a real agent tool, and says why the others are not', () => {
    const byId = Object.fromEntries(guardablePolicies(model).map((g) => [g.policy, g]));
    expect(byId['loan-length']).toEqual({
      policy: 'loan-length',
      offered: true,
      tools: ['lend_book'],
      existing: [],
    });
    expect(byId['no-lending-when-blocked']).toMatchObject({
      offered: true,
      tools: ['lend_book', 'get_member'],
    });
    expect(whyOf('greet')).toContain('no tools');
    expect(whyOf('friendly-lookups')).toContain('what the agent says');
    expect(whyOf('ghost-tool')).toContain('open_archive');
  });

  it('names the guard rules that already hold the agent to a policy', () => {
    const guarded = parseProject(
      lendingDesk(`guards:
  lend_book:
    rules:
      - id: short-loans
        policy: loan-length
        decision: forbid
        when: args.days > 21
`),
    ).model;
    expect(guardablePolicies(guarded)[0]).toMatchObject({
      offered: true,
      existing: ['short-loans'],
    });
  });

  it('offers a tool policy exactly when its text has a word that limits a call', () => {
    const neutral = fc.constantFrom(
      'look',
      'the',
      'books',
      'member',
      'card',
      'desk',
      'shelf',
      'loans',
    );
    const limiting = fc.constantFrom('only', 'never', 'at most', 'unless', 'before', 'must');
    fc.assert(
      fc.property(
        fc.array(neutral, { minLength: 1, maxLength: 8 }),
        fc.option(fc.tuple(limiting, fc.nat()), { nil: undefined }),
        (words, limit) => {
          const all: string[] = [...words];
          if (limit) all.splice(limit[1] % (all.length + 1), 0, limit[0]);
          const first = model.policies[0];
          if (!first) throw new Error('no policy');
          const policy = { ...first, text: `${all.join(' ')}.` };
          expect(guardability(model, policy).offered).toBe(limit !== undefined);
        },
      ),
    );
  });
});
