import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import type { GuardDraft } from './guardCheck.ts';
import { addGuardRule } from './guardEdit.ts';
import { lendingDesk } from './testdata/lendingDesk.ts';

const draft: GuardDraft = {
  id: 'max-21-days',
  policy: 'loan-length',
  tool: 'lend_book',
  decision: 'forbid',
  when: 'args.days > 21',
  fallback: 'message',
  message: 'Loans are at most 21 days: shorter, please.',
  examples: [],
};

const OTHER_TOOL = `# Guards of the lending desk.
guards:
  get_member: # lookups
    rules:
      - id: members-only
        policy: no-lending-when-blocked
        decision: forbid
        when: args.member_id == ""
# Checks come next.
checks: []
`;

const SAME_TOOL = `guards:
  lend_book:
    default: allow
    rules:
      # the first rule
      - id: no-blocked
        policy: no-lending-when-blocked
        decision: forbid
        when: db.members.exists(m, m.id == args.member_id && m.blocked)
        message: Blocked. # why

checks: []
`;

/** The rules of `tool` in a rules.yaml, as the project reads them, and its rules.yaml errors. */
function rulesOf(rules: string, tool = 'lend_book') {
  const parsed = parseProject(lendingDesk(rules));
  return {
    rules: parsed.model.guards.find((g) => g.tool === tool)?.rules ?? [],
    errors: parsed.diagnostics.filter((d) => d.file === 'rules.yaml' && d.severity === 'error'),
  };
}

/**
 * Whether every line of `before` is in `after`, in order: comments kept, nothing lost. An empty
 * `{}` or `[]` after a key becomes the block the rule goes in, so it is read as nothing.
 */
function keepsLines(before: string, after: string): boolean {
  const bare = (text: string) => text.replace(/: (\{\}|\[\])/g, ':').split('\n');
  const lines = bare(after);
  let at = 0;
  for (const line of bare(before)) {
    const found = lines.indexOf(line, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

describe('addGuardRule', () => {
  it.each([
    ['an empty file', ''],
    ['guards: {}', 'guards: {} # none yet\n'],
    ['guards of another tool, with comments', OTHER_TOOL],
    ['rules of the same tool', SAME_TOOL],
    ['a tool with no rules', 'guards:\n  lend_book:\n    default: deny\n'],
    ['an empty list of rules', 'guards:\n  lend_book:\n    rules: []\n'],
    [
      'checks only, no guards',
      'checks:\n  - id: c\n    policy: greet\n    kind: must_say\n    pattern: hi\n',
    ],
    [
      'a four-space file with CRLF',
      'guards:\r\n    lend_book:\r\n        rules:\r\n            - id: a\r\n              policy: loan-length\r\n              decision: allow\r\n',
    ],
  ])('adds the rule last to %s, keeping the rest', (_, before) => {
    const edit = addGuardRule(before, draft);
    expect(edit.ok).toBe(true);
    if (!edit.ok) return;
    const { rules, errors } = rulesOf(edit.text);
    expect(errors).toEqual([]);
    expect(rules.at(-1)).toMatchObject({
      id: draft.id,
      policy: draft.policy,
      decision: 'forbid',
      when: draft.when,
      fallback: 'message',
      message: draft.message,
    });
    expect(rules.length).toBe(rulesOf(before).rules.length + 1);
    for (const comment of before.match(/#.*$/gm) ?? []) expect(edit.text).toContain(comment);
    expect(keepsLines(before.replace(/\r/g, ''), edit.text.replace(/\r/g, ''))).toBe(true);
    expect(edit.text.includes('\r\n')).toBe(before.includes('\r\n'));
  });

  it('keeps the other tools’ rules and the checks where they were', () => {
    const edit = addGuardRule(OTHER_TOOL, draft);
    if (!edit.ok) throw new Error(edit.message);
    expect(rulesOf(edit.text, 'get_member').rules.map((r) => r.id)).toEqual(['members-only']);
    expect(edit.text.indexOf('lend_book:')).toBeLessThan(edit.text.indexOf('# Checks come next.'));
  });

  it.each([
    ['YAML it cannot read', 'guards:\n  lend_book: [\n'],
    ['guards written on one line', 'guards: { lend_book: { rules: [] } }\n'],
  ])('refuses %s with a sentence and changes nothing', (_, before) => {
    const edit = addGuardRule(before, draft);
    expect(edit.ok).toBe(false);
    if (!edit.ok) expect(edit.message).toMatch(/\.$/);
  });

  it('writes any condition and message so that they read back exactly', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', '"', "'", '#', ':', '!', '&', '-', '>', '{', '[', '\\', '\n'),
      minLength: 1,
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        text.filter((t) => t.trim() !== ''),
        text.map((t) => t.replace(/\n/g, ' ')),
        fc.constantFrom('', OTHER_TOOL, SAME_TOOL, 'guards: {}\n'),
        (when, message, before) => {
          const edit = addGuardRule(before, { ...draft, when, message });
          expect(edit.ok).toBe(true);
          if (!edit.ok) return;
          const rule = rulesOf(edit.text).rules.at(-1);
          expect(rule?.when).toBe(when);
          expect(rule?.message).toBe(message);
        },
      ),
    );
  });
});
