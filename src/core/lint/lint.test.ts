import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { parseProject } from '../format/parseProject.ts';
import { MINI_FILES, miniProject, miniWith } from '../testing/miniProject.ts';
import { lintProject } from './lint.ts';

function lintCodes(project: ReturnType<typeof miniProject>) {
  return lintProject(parseProject(project)).map((d) => `${d.code}@${d.file}:${d.line}`);
}

describe('lintProject', () => {
  it('finds nothing in the clean mini project', () => {
    expect(lintCodes(miniProject())).toEqual([]);
  });

  it('flags a policy that no rule, check or scenario tests', () => {
    const project = miniProject({
      'policies.yaml': MINI_FILES['policies.yaml'].replace(
        'relations:',
        '  - id: be-polite\n    text: Always greet the customer by name.\n    category: tone\n    challenge: 1\nrelations:',
      ),
    });
    const found = lintProject(parseProject(project));
    expect(found.map((d) => d.code)).toEqual(['untestable-policy']);
    expect(found[0]?.message).toMatch(/No rule, check or scenario tests "be-polite"/);
  });

  it('notes, on its id, a policy that only a judge model can report on', () => {
    // verify-identity stays in the scenario but loses its guard rule to refund-window.
    const project = miniWith('rules.yaml', 'policy: verify-identity', 'policy: refund-window');
    const found = lintProject(parseProject(project));
    expect(found.map((d) => `${d.severity} ${d.code}@${d.file}:${d.line}:${d.column}`)).toEqual([
      'info judge-only-policy@policies.yaml:3:9',
    ]);
    expect(found[0]?.message).toBe(
      'Only a judge model can report on "verify-identity": no guard rule, transcript check or scenario expectation names it.',
    );
  });

  it('flags a policy written twice in other words', () => {
    const project = miniWith(
      'policies.yaml',
      'text: Refund only orders delivered within the last thirty days.',
      "text: Verify the customer's identity before any change to the order.",
    );
    expect(lintCodes(project)).toContain('near-duplicate@policies.yaml:10');
  });

  it('flags a rule after an unconditional rule as never reached', () => {
    const project = miniWith(
      'rules.yaml',
      '        when: \'!history.exists(c, c.tool == "get_user")\'\n',
      '',
    );
    const found = lintProject(parseProject(project)).filter((d) => d.code === 'shadowed-rule');
    expect(found[0]?.message).toMatch(
      /"refund-late" is never reached: "refund-after-identity" above has no condition/,
    );
  });

  it('flags a rule with the same condition as an earlier one, by decision', () => {
    const same = (decision: string) =>
      miniWith(
        'rules.yaml',
        'checks:\n',
        `      - id: refund-late-again\n        policy: refund-window\n        decision: ${decision}\n        when: db.orders.exists(o, o.id == args.order_id && o.days_since_delivery > 30)\n        message: Again.\nchecks:\n`,
      );
    expect(lintCodes(same('forbid'))).toContain('shadowed-rule@rules.yaml:18');
    expect(lintCodes(same('allow'))).toContain('contradicting-rules@rules.yaml:18');
  });

  it('finds an input on which an allow and a forbid rule both match', () => {
    const project = miniWith(
      'rules.yaml',
      'checks:\n',
      '      - id: small-refunds-ok\n        policy: refund-window\n        decision: allow\n        when: args.amount < 50\nchecks:\n',
    );
    const found = lintProject(parseProject(project)).filter(
      (d) => d.code === 'contradicting-rules',
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toMatch(
      /"small-refunds-ok" \(allow\) and "refund-after-identity" \(forbid\) both match arguments \{.*"amount":.*\}; "refund-after-identity" comes first and wins/,
    );
  });

  it('flags a tool that is denied by default with nothing to allow it', () => {
    const project = miniWith(
      'rules.yaml',
      '  refund_order:\n    rules:',
      '  refund_order:\n    default: deny\n    rules:',
    );
    expect(lintCodes(project)).toContain('always-denied@rules.yaml:2');
  });

  it('flags a scenario that expects nothing', () => {
    const project = miniWith(
      'scenarios.yaml',
      '    expected:\n      database:\n        - assert: db.orders.exists(o, o.id == "o2" && o.status == "delivered")\n          policy: refund-window\n      forbidden_actions:\n        - { tool: refund_order, policy: refund-window }\n',
      '    expected: {}\n',
    );
    const found = lintProject(parseProject(project)).find((d) => d.code === 'empty-expectations');
    expect(found?.message).toMatch(/passes even if the agent does nothing/);
    // Natural-language assertions are the judge's opinion only: the checks still expect nothing.
    const words = miniProject({
      'scenarios.yaml': project.files['scenarios.yaml'].replace(
        'expected: {}',
        'expected: { assertions: [The agent refuses.] }',
      ),
    });
    const asserted = lintProject(parseProject(words)).find((d) => d.code === 'empty-expectations');
    expect(asserted?.message).toBe(
      '"late-refund" expects nothing the checks can judge (its assertions are only the judge\'s opinion), so it passes even if the agent does nothing. Add an expected outcome.',
    );
  });

  it('flags a write tool that no guard covers', () => {
    const project = miniProject({
      'rules.yaml':
        'checks:\n  - id: confirm-refund\n    policy: refund-window\n    kind: confirm_before\n    tool: refund_order\n',
    });
    expect(lintCodes(project)).toContain('unguarded-write@tools.yaml:13');
  });

  it('orders parse and lint diagnostics together by file and line', () => {
    const project = miniWith('policies.yaml', 'challenge: 3', 'challenge: 0');
    const { diagnostics } = analyzeProject(project);
    const keys = diagnostics.map((d) => [d.file, d.line] as const);
    expect(keys).toEqual([...keys].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : 0)));
  });
});

describe('placing notes on policy ids', () => {
  it('puts each note where the YAML document would, reading lines, quoted and repeated ids too', () => {
    const extra = [
      "  - id: 'be-polite'\n    text: Greet.\n    category: tone\n    challenge: 1",
      '  - id: be-kind\n    text: Be kind.\n    category: tone\n    challenge: 1',
      '  - id: be-kind\n    text: Be kind, again.\n    category: tone\n    challenge: 1',
    ].join('\n');
    const project = miniProject({
      'policies.yaml': MINI_FILES['policies.yaml'].replace('relations:', `${extra}\nrelations:`),
      'scenarios.yaml': MINI_FILES['scenarios.yaml'].replace(
        'policies: [refund-window, verify-identity]',
        'policies: [refund-window, verify-identity, be-polite, be-kind]',
      ),
    });
    const parsed = parseProject(project);
    const notes = lintProject(parsed).filter((d) => d.code === 'judge-only-policy');
    const file = parsed.files['policies.yaml'];
    const expected = parsed.model.policies
      .filter((p) => p.id.startsWith('be-'))
      .map((p) => file.at([...p.path, 'id'], 'info', 'judge-only-policy', ''));
    expect(notes.map((n) => [n.line, n.column, n.endLine, n.endColumn])).toEqual(
      expected.map((n) => [n.line, n.column, n.endLine, n.endColumn]),
    );
    expect(notes.map((n) => n.line)).toEqual([15, 19, 23]);
  });
});
