import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addPoliciesToYaml, extractPolicies, newCandidates } from './extract.ts';
import type { Policy } from './format/model.ts';
import { parseProject } from './format/parseProject.ts';
import { MINI_FILES, miniProject } from './testing/miniProject.ts';

const PROMPT = `# Support bot

You help customers of Acme.

## Refunds
- Refund only **delivered** orders, and only
  within 30 days of delivery.
- Never refund to a different card than the one used.
* ok

## Privacy
1. Do not reveal another customer's address, phone or email.

\`\`\`
- this is code, not a policy
\`\`\`
`;

describe('extractPolicies', () => {
  const candidates = extractPolicies(PROMPT, ['refund_order']);

  it('turns each list item into a policy under its heading, with its lines', () => {
    expect(candidates.map((c) => [c.category, c.source.line, c.source.endLine])).toEqual([
      ['refunds', 6, 7],
      ['refunds', 8, 8],
      ['privacy', 12, 12],
    ]);
    expect(candidates[0]?.text).toBe(
      'Refund only delivered orders, and only within 30 days of delivery.',
    );
  });

  it('builds stable, readable ids and scores conditions as harder', () => {
    expect(candidates.map((c) => c.id)).toEqual([
      'refund-delivered-orders-within-30-days',
      'refund-different-card-one-used',
      'reveal-another-customer-s-address-phone',
    ]);
    expect(extractPolicies(PROMPT).map((c) => c.id)).toEqual(candidates.map((c) => c.id));
    expect(candidates[0]?.challenge).toBeGreaterThan(candidates[1]?.challenge ?? 0);
  });

  it('never throws and always gives unique, valid ids', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom('# ', '## ', '- ', '* ', '1. ', '  ', '```', '\n'), fc.string()),
          { maxLength: 60 },
        ),
        (parts) => {
          const found = extractPolicies(parts.join(''));
          const ids = found.map((c) => c.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9_-]*$/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('newCandidates', () => {
  const prompt =
    '# Desk\n\nYou must verify the guest first. Never share a room key. The lobby is small.\n\n- Refund only paid orders.\n';
  const found = extractPolicies(prompt);
  const policy = (text: string, line: number): Policy => ({
    id: 'held',
    text,
    category: 'desk',
    challenge: 2,
    tools: [],
    source: { line },
    path: [],
  });

  it('reads sentences of one paragraph as apart: adding one leaves the others to add', () => {
    expect(found.map((c) => [c.text, c.source.line, c.sharesLine])).toEqual([
      ['You must verify the guest first.', 3, true],
      ['Never share a room key.', 3, true],
      ['Refund only paid orders.', 5, false],
    ]);
    const left = newCandidates(found, [policy('You must verify every guest first.', 3)]);
    expect(left.map((c) => c.text)).toEqual([
      'Never share a room key.',
      'Refund only paid orders.',
    ]);
  });

  it('holds the clauses of an item by a policy made of the whole item, and nested items by a range', () => {
    const nested = extractPolicies(
      '- Bags cannot be removed; no refund is given for bags not taken.\n- Free bags:\n  - silver: 2 bags in every cabin\n  - gold: 3 bags in every cabin\n- Never sell seats twice.\n',
    );
    expect(nested.map((c) => c.source.line)).toEqual([1, 1, 3, 4, 5]);
    const left = newCandidates(nested, [
      policy('Bags cannot be removed, and no refund is given for bags not taken.', 1),
      { ...policy('Free bags: silver 2, gold 3.', 2), source: { line: 2, endLine: 4 } },
    ]);
    expect(left.map((c) => c.text)).toEqual(['Never sell seats twice.']);
  });

  it('still counts a list item as held by a policy from its line, however it was reworded', () => {
    const left = newCandidates(found, [policy('Refunds: paid orders alone.', 5)]);
    expect(left.map((c) => c.text)).toEqual([
      'You must verify the guest first.',
      'Never share a room key.',
    ]);
  });
});

describe('addPoliciesToYaml', () => {
  it('appends new policies, keeps comments, and adds nothing twice', () => {
    const candidates = extractPolicies(PROMPT);
    const once = addPoliciesToYaml(MINI_FILES['policies.yaml'], candidates);
    expect(once.startsWith('# Policies of the refund desk.\n')).toBe(true);
    expect(once.startsWith(MINI_FILES['policies.yaml'].split('relations:')[0] ?? '')).toBe(true);
    expect(once).toContain('  - id: refund-delivered-orders-within-30-days\n');
    expect(once).toContain('    source: { line: 6, endLine: 7 }\n');
    expect(addPoliciesToYaml(once, candidates)).toBe(once);
    const { model, diagnostics } = parseProject(miniProject({ 'policies.yaml': once }));
    expect(diagnostics.filter((d) => d.file === 'policies.yaml' && d.code === 'schema')).toEqual(
      [],
    );
    expect(model.policies).toHaveLength(5);
  });

  it('starts a list in a file that has only comments', () => {
    const text = addPoliciesToYaml('# nothing yet\n', extractPolicies(PROMPT));
    expect(text.startsWith('# nothing yet\npolicies:\n')).toBe(true);
  });

  it('leaves a file it cannot read unchanged', () => {
    expect(addPoliciesToYaml('policies: [', extractPolicies(PROMPT))).toBe('policies: [');
  });
});
