import type { Project } from '../project.ts';

const WORDS =
  'account address agent amount approval balance baggage booking cabin cancel card certificate change claim code compensation confirm credit customer date delay delivery deposit discount document email exchange fare fee flight gift identity insurance invoice item label limit loyalty manager member message name order passenger payment phone points price promise receipt record refund request reservation return review route seat shipment signature status stock ticket tier transfer travel upgrade voucher warranty window'.split(
    ' ',
  );

/** Sizes of a generated project. */
export interface GeneratedSize {
  readonly policies: number;
  readonly tools: number;
  readonly rules: number;
  /**
   * Relations between distinct pairs of policies, weights 0-10 (default: one per policy, each to
   * the next). A given number is capped at policies * floor((policies - 1) / 2), the distinct
   * pairs this scheme makes.
   */
  readonly relations?: number;
}

const CATEGORIES = [
  'identity',
  'booking',
  'changes',
  'refunds',
  'baggage',
  'privacy',
  'escalation',
  'tone',
];

/**
 * Writes a large, valid project for benchmarks: every reference resolves and every condition is
 * valid CEL, so parsing and linting do their full work. Deterministic: the same size gives the
 * same text.
 */
export function generateProject(size: GeneratedSize): Project {
  const tool = (i: number) => `tool_${String(i % size.tools).padStart(3, '0')}`;
  const policy = (i: number) => `policy-${String(i % size.policies).padStart(4, '0')}`;

  const policies = ['policies:'];
  for (let i = 0; i < size.policies; i++) {
    policies.push(
      `  - id: ${policy(i)}`,
      `    text: ${[3, 7, 13, 29, 31, 37].map((k) => WORDS[(Math.floor(i / k) * 17 + i * k) % WORDS.length] ?? '').join(' ')} rule ${i}.`,
      `    category: ${CATEGORIES[i % CATEGORIES.length] ?? 'tone'}`,
      `    challenge: ${(i % 5) + 1}`,
      `    tools: [${tool(i)}]`,
    );
  }
  policies.push('relations:');
  // Relation r joins policy i to the one `step` places on (wrapping): distinct while step < n/2.
  const relations =
    size.relations === undefined
      ? size.policies
      : Math.min(size.relations, size.policies * Math.floor((size.policies - 1) / 2));
  for (let r = 0; r < relations; r++) {
    const i = r % size.policies;
    const step = 1 + Math.floor(r / size.policies);
    policies.push(
      `  - between: [${policy(i)}, ${policy(i + step)}]`,
      `    weight: ${r % 11}`,
      '    origin: manual',
    );
  }

  const tools = ['tools:'];
  for (let i = 0; i < size.tools; i++) {
    tools.push(
      `  - name: ${tool(i)}`,
      `    description: Tool number ${i}.`,
      `    kind: ${i % 2 === 0 ? 'read' : 'write'}`,
      '    parameters:',
      '      type: object',
      '      properties:',
      '        order_id: { type: string }',
      '        amount: { type: number }',
      '      required: [order_id]',
      '    effects:',
      i % 2 === 0 ? '      - select: orders' : '      - update: orders',
      '        where: row.id == args.order_id',
      ...(i % 2 === 0 ? [] : ['        set: { status: \'"refunded"\' }']),
    );
  }

  const database = [
    'tables:',
    '  - name: orders',
    '    key: id',
    '    columns:',
    '      id: { type: string }',
    '      status: { type: string, enum: [delivered, refunded] }',
    '      total: { type: number }',
    '    rows:',
  ];
  for (let i = 0; i < 200; i++) {
    database.push(
      `      - { id: o${i}, status: ${i % 3 === 0 ? 'refunded' : 'delivered'}, total: ${(i * 37) % 500} }`,
    );
  }

  const rules = ['guards:'];
  const perTool = Math.ceil(size.rules / size.tools);
  let written = 0;
  for (let t = 0; t < size.tools && written < size.rules; t++) {
    rules.push(`  ${tool(t)}:`, '    rules:');
    for (let r = 0; r < perTool && written < size.rules; r++, written++) {
      rules.push(
        `      - id: rule-${String(written).padStart(4, '0')}`,
        `        policy: ${policy(written)}`,
        `        decision: ${r % 4 === 3 ? 'allow' : 'forbid'}`,
        // Allow rules cover negative amounts only, so no input matches an allow and a forbid.
        r % 4 === 3
          ? `        when: args.amount < ${-1 - r}`
          : `        when: args.amount > ${r * 10} && history.exists(c, c.tool == "${tool(t + 1)}")`,
        `        message: Refused by rule ${written}.`,
      );
    }
  }
  rules.push('checks:');
  for (let i = 0; i < 50; i++) {
    rules.push(
      `  - id: check-${i}`,
      `    policy: ${policy(size.rules + i)}`,
      '    kind: never_call',
      `    tool: ${tool(i)}`,
    );
  }

  const scenarios = ['scenarios:'];
  for (let i = 0; i < 50; i++) {
    scenarios.push(
      `  - id: scenario-${i}`,
      `    policies: [${policy(i)}, ${policy(i + 500)}]`,
      '    persona: A customer.',
      '    goal: Get a refund.',
      '    expected:',
      // Each expectation names the policy it holds the agent to, as a clean project's should.
      `      forbidden_actions: [{ tool: ${tool(i)}, policy: ${policy(i)} }]`,
    );
  }

  return {
    name: `Generated ${size.policies}`,
    files: {
      'agent.md': '# Generated\n\nA generated project for benchmarks.\n',
      'policies.yaml': `${policies.join('\n')}\n`,
      'tools.yaml': `${tools.join('\n')}\n`,
      'database.yaml': `${database.join('\n')}\n`,
      'rules.yaml': `${rules.join('\n')}\n`,
      'scenarios.yaml': `${scenarios.join('\n')}\n`,
    },
  };
}
