import type { Project, ProjectFileName } from '../project.ts';

/**
 * A small ticket desk for the tests of tool preconditions, the fixed clock and typed arguments:
 * a cancel that needs a pending order (`requires`), a refund in steps of 50 (an integer argument
 * read with `%`), and a clock the project fixes in database.yaml.
 */
export const TICKET_FILES: Readonly<Record<ProjectFileName, string>> = {
  'agent.md': `# Ticket desk

- Refund in steps of 50 only.
- Cancel only before the show starts.
`,
  'policies.yaml': `policies:
  - id: refund-steps
    text: Refund in steps of 50 only.
    category: refunds
    challenge: 2
    tools: [refund]
  - id: before-show
    text: Cancel only before the show starts.
    category: cancellations
    challenge: 2
    tools: [cancel_order]
`,
  'tools.yaml': `tools:
  - name: get_order
    description: Look an order up.
    kind: read
    parameters:
      type: object
      properties:
        order_id: { type: string }
      required: [order_id]
    effects:
      - select: orders
        where: row.id == args.order_id
  - name: cancel_order
    description: Cancel a pending order.
    kind: write
    parameters:
      type: object
      properties:
        order_id: { type: string }
      required: [order_id]
    requires:
      - condition: 'db.orders.exists(o, o.id == args.order_id)'
        error: There is no such order.
      - condition: 'db.orders.exists(o, o.id == args.order_id && o.status == "pending")'
        error: Non-pending order cannot be cancelled.
    effects:
      - update: orders
        where: row.id == args.order_id
        set: { status: '"cancelled"' }
  - name: refund
    description: Refund part of an order.
    kind: write
    parameters:
      type: object
      properties:
        order_id: { type: string }
        amount: { type: integer }
        seats: { type: array, items: { type: integer } }
      required: [order_id, amount]
    effects:
      - update: orders
        where: row.id == args.order_id
        set: { refunded: int(row.refunded) + args.amount }
    returns: 'args.amount % 50 == 0 ? "refunded in steps" : "refunded"'
`,
  'database.yaml': `now: 2024-05-15T15:00:00-05:00
tables:
  - name: orders
    key: id
    columns:
      id: { type: string }
      status: { type: string, enum: [pending, delivered, cancelled] }
      refunded: { type: integer }
    rows:
      - { id: o1, status: pending, refunded: 0 }
      - { id: o2, status: delivered, refunded: 0 }
`,
  'rules.yaml': `guards:
  refund:
    rules:
      - id: steps-of-fifty
        policy: refund-steps
        decision: forbid
        when: args.amount % 50 != 0
        message: Refunds go in steps of 50.
  cancel_order:
    rules:
      - id: show-started
        policy: before-show
        decision: forbid
        when: 'now >= timestamp("2024-05-15T21:00:00Z")'
        message: The show has started.
`,
  'scenarios.yaml': `scenarios:
  - id: cancel-delivered
    policies: [before-show]
    persona: A customer.
    goal: Cancel order o2.
    knows: [order o2]
    expected:
      database:
        - 'db.orders.exists(o, o.id == "o2" && o.status == "delivered")'
`,
};

/** The ticket desk with some files replaced. */
export function ticketDesk(changes: Partial<Record<ProjectFileName, string>> = {}): Project {
  return { name: 'Tickets', files: { ...TICKET_FILES, ...changes } };
}

/** The ticket desk with one occurrence of `from` replaced by `to` in one file. */
export function ticketDeskWith(file: ProjectFileName, from: string, to: string): Project {
  const text = TICKET_FILES[file];
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  return ticketDesk({ [file]: text.replace(from, to) });
}
