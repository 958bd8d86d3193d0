import type { Project, ProjectFileName } from '../project.ts';

/**
 * A small bakery domain for the tests of structured data: an order holds its items as a list
 * (with a JSON Schema), a customer holds their address as a mapping, orders get generated ids,
 * and placing an order inserts one order line per item with `for_each`, skips the gift note
 * with `when`, and adds the new order's id to the customer's list through `inserted.orders`.
 */
export const BAKERY_FILES: Readonly<Partial<Record<ProjectFileName, string>>> = {
  'tools.yaml': `tools:
  - name: place_order
    description: Place an order for a customer.
    kind: write
    parameters:
      type: object
      properties:
        customer_id: { type: string }
        items:
          type: array
          items:
            type: object
            properties:
              name: { type: string }
              price: { type: number }
              quantity: { type: integer }
            required: [name, price, quantity]
        note: { type: string }
      required: [customer_id, items]
    effects:
      - insert: orders
        values:
          customer_id: args.customer_id
          items: args.items
          total: sum(args.items.map(i, i.price * double(i.quantity)))
          status: '"pending"'
      - insert: lines
        for_each: args.items
        as: line
        values:
          order_id: inserted.orders.id
          name: line.name
          quantity: line.quantity
      - insert: notes
        when: has(args.note) && args.note != ""
        values: { order_id: inserted.orders.id, text: args.note }
      - update: customers
        where: row.id == args.customer_id
        set: { orders: 'row.orders + [inserted.orders.id]' }
  - name: cancel_order
    description: Cancel a pending order.
    kind: write
    parameters:
      type: object
      properties:
        order_id: { type: string }
      required: [order_id]
    effects:
      - update: orders
        when: db.orders.exists(o, o.id == args.order_id && o.status == "pending")
        where: row.id == args.order_id
        set: { status: '"cancelled"' }
    returns: db.orders.filter(o, o.id == args.order_id)
`,
  'database.yaml': `tables:
  - name: customers
    key: id
    columns:
      id: { type: string }
      name: { type: string }
      address:
        type: object
        schema:
          type: object
          properties:
            street: { type: string }
            city: { type: string }
          required: [street, city]
          additionalProperties: false
      orders: { type: array, schema: { type: array, items: { type: string } } }
    rows:
      - id: c1
        name: Ada
        address: { street: 1 Mill Lane, city: Leeds }
        orders: ['#B0001']
  - name: orders
    key: id
    columns:
      id: { type: string, generated: { prefix: '#B', digits: 4 } }
      customer_id: { type: string, references: customers }
      items:
        type: array
        schema:
          type: array
          items:
            type: object
            properties:
              name: { type: string }
              price: { type: number, minimum: 0 }
              quantity: { type: integer, minimum: 1 }
            required: [name, price, quantity]
      total: { type: number }
      status: { type: string, enum: [pending, cancelled] }
    rows:
      - id: '#B0001'
        customer_id: c1
        items: [{ name: rye loaf, price: 4.5, quantity: 2 }]
        total: 9
        status: pending
  - name: lines
    key: id
    columns:
      id: { type: integer, generated: true }
      order_id: { type: string, references: orders }
      name: { type: string }
      quantity: { type: integer }
  - name: notes
    key: order_id
    columns:
      order_id: { type: string, references: orders }
      text: { type: string }
`,
};

/** The bakery as a project (the files it does not need are empty). */
export function bakeryProject(overrides: Partial<Record<ProjectFileName, string>> = {}): Project {
  const files = { ...BAKERY_FILES, ...overrides };
  const all = {
    'agent.md': files['agent.md'] ?? '',
    'policies.yaml': files['policies.yaml'] ?? '',
    'tools.yaml': files['tools.yaml'] ?? '',
    'database.yaml': files['database.yaml'] ?? '',
    'rules.yaml': files['rules.yaml'] ?? '',
    'scenarios.yaml': files['scenarios.yaml'] ?? '',
  };
  return { name: 'Bakery', files: all };
}
