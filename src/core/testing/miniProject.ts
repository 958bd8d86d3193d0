import type { Project, ProjectFileName } from '../project.ts';

/**
 * A small, clean project for tests: every file valid, every reference resolved, every policy
 * tested, so a test can break one thing and expect exactly the diagnostic that thing causes.
 */
export const MINI_FILES: Readonly<Record<ProjectFileName, string>> = {
  'agent.md': `# Refund desk

## Identity
- Verify the customer's identity before any change to an order.

## Refunds
- Refund only orders that were delivered within the last 30 days.
`,
  'policies.yaml': `# Policies of the refund desk.
policies:
  - id: verify-identity
    text: Verify the customer's identity before any change to an order.
    category: identity
    challenge: 2
    tools: [get_user]
    source: { line: 4 }
  - id: refund-window
    text: Refund only orders delivered within the last thirty days.
    category: refunds
    challenge: 3
    tools: [refund_order]
    source: { line: 7 }
relations:
  - between: [verify-identity, refund-window]
    weight: 6
    origin: manual
`,
  'tools.yaml': `tools:
  - name: get_user
    description: Look up a customer by id.
    kind: read
    parameters:
      type: object
      properties:
        user_id: { type: string }
      required: [user_id]
    effects:
      - select: users
        where: row.id == args.user_id
  - name: refund_order
    description: Refund a delivered order.
    kind: write
    parameters:
      type: object
      properties:
        order_id: { type: string }
        amount: { type: number }
      required: [order_id]
    effects:
      - update: orders
        where: row.id == args.order_id
        set: { status: '"refunded"' }
`,
  'database.yaml': `tables:
  - name: users
    key: id
    columns:
      id: { type: string }
      name: { type: string }
    rows:
      - { id: u1, name: Ada }
      - { id: u2, name: Grace }
  - name: orders
    key: id
    columns:
      id: { type: string }
      user_id: { type: string, references: users }
      status: { type: string, enum: [delivered, refunded] }
      days_since_delivery: { type: integer }
    rows:
      - { id: o1, user_id: u1, status: delivered, days_since_delivery: 5 }
      - { id: o2, user_id: u2, status: delivered, days_since_delivery: 45 }
`,
  'rules.yaml': `guards:
  refund_order:
    rules:
      - id: refund-after-identity
        policy: verify-identity
        decision: forbid
        when: '!history.exists(c, c.tool == "get_user")'
        fallback: ask_user
        message: Verify the customer first.
      - id: refund-late
        policy: refund-window
        decision: forbid
        when: db.orders.exists(o, o.id == args.order_id && o.days_since_delivery > 30)
        message: This order is outside the 30-day window.
checks:
  - id: confirm-refund
    policy: refund-window
    kind: confirm_before
    tool: refund_order
`,
  'scenarios.yaml': `scenarios:
  - id: late-refund
    policies: [refund-window, verify-identity]
    persona: A patient customer.
    goal: Get a refund for order o2.
    knows: [order o2, user id u2]
    expected:
      database:
        - assert: db.orders.exists(o, o.id == "o2" && o.status == "delivered")
          policy: refund-window
      forbidden_actions:
        - { tool: refund_order, policy: refund-window }
`,
};

/** The mini project with some files replaced. */
export function miniProject(changes: Partial<Record<ProjectFileName, string>> = {}): Project {
  return { name: 'Mini', files: { ...MINI_FILES, ...changes } };
}

/** The mini project with one occurrence of `from` replaced by `to` in one file. */
export function miniWith(file: ProjectFileName, from: string, to: string): Project {
  const text = MINI_FILES[file];
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  return miniProject({ [file]: text.replace(from, to) });
}
